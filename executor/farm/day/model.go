package day

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Bandwidth units: the thesis writes "Megabytes" for both 10^6 and 2^20
// bytes; ParseBandwidth makes the caller say which.
const (
	MB  = 1e6
	MiB = 1 << 20
)

// ParseBandwidth reads a bandwidth in bytes per second: a plain number, or
// a number followed by MiB (2^20 bytes) or MB (10^6 bytes), e.g. "1.51MiB"
// (the thesis's measured T800 link, which gives s = 4.75 bytes for 3 µs)
// or "1.177MB".
func ParseBandwidth(s string) (float64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "MiB"):
		mult, t = MiB, strings.TrimSuffix(t, "MiB")
	case strings.HasSuffix(t, "MB"):
		mult, t = MB, strings.TrimSuffix(t, "MB")
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("day: bandwidth %q, want a positive number of bytes/s, optionally with MiB or MB", s)
	}
	return v * mult, nil
}

// SetupBytes is s = B × set-up time (Section 4.5.1): the bytes the link
// could have carried while a communication is set up.
func SetupBytes(bandwidth, setupTime float64) float64 { return bandwidth * setupTime }

// MessageTime is c = (m + s)/B, the time a link direction is busy with one
// message of m bytes.
func MessageTime(m, s, bandwidth float64) float64 { return (m + s) / bandwidth }

// LinkEfficiency is m/(m + s), the share of the link's time spent on data.
func LinkEfficiency(m, s float64) float64 { return m / (m + s) }

// MessageForEfficiency is the message size that uses the link at
// efficiency e: m = s·e/(1 − e) (Table 1 prints its floor).
func MessageForEfficiency(s, e float64) float64 { return s * e / (1 - e) }

// Supply is B/(m + s), the jobs per second a link can deliver.
func Supply(bandwidth, m, s float64) float64 { return bandwidth / (m + s) }

// Demand is w/j, the jobs per second w workers consume.
func Demand(w int, j float64) float64 { return float64(w) / j }

// WMax is j·B/(m + s), the most workers a farm keeps busy (Section 4.5.2).
func WMax(j, bandwidth, m, s float64) float64 { return j * bandwidth / (m + s) }

// EfficiencyCeiling is min(1, j·B/(w(m + s))): the farm cannot do more work
// than the link supplies.
func EfficiencyCeiling(w int, j, bandwidth, m, s float64) float64 {
	return math.Min(1, WMax(j, bandwidth, m, s)/float64(w))
}

// FillTime is slots/(supply − min(demand, supply)) (Section 4.11.2): how
// long the excess supply takes to fill the harness; +Inf when the farm is
// not compute bound (the buffers never fill).
func FillTime(slots, supply, demand float64) float64 {
	met := math.Min(demand, supply)
	if supply-met <= 0 {
		return math.Inf(1)
	}
	return slots / (supply - met)
}

// MeanDistance is the average number of hops from the farmer to a worker:
// (w + 1)/2 on a line of w; Σ i·3^i / Σ 3^i on a full ternary tree with
// depth levels (Table 4: 1.0, 1.75, 2.615 for depths 1, 2, 3).
func MeanDistance(layout Layout, size int) float64 {
	if layout == Line {
		return float64(size+1) / 2
	}
	num, den, n := 0.0, 0.0, 1.0
	for i := 1; i <= size; i++ {
		n *= 3
		num += float64(i) * n
		den += n
	}
	return num / den
}

// Prediction is the supply/demand model of Sections 4.5 and 4.11.2 for one
// farm (JSON field names are part of the CLI contract).
type Prediction struct {
	SetupBytes        float64 `json:"setup_bytes"`
	MessageTime       float64 `json:"message_time"`
	LinkEfficiency    float64 `json:"link_efficiency"`
	Supply            float64 `json:"supply"`
	Demand            float64 `json:"demand"`
	ComputeBound      bool    `json:"compute_bound"`
	WMax              float64 `json:"w_max"`
	EfficiencyCeiling float64 `json:"efficiency_ceiling"`
	FillTime          float64 `json:"fill_time"`
	MeanDistance      float64 `json:"mean_distance"`
}

// Predict evaluates the model for a configuration (mean job time j).
func Predict(c *Config) *Prediction {
	s := c.setupBytes()
	j := c.meanJobTime()
	sup, dem := Supply(c.Bandwidth, c.MessageBytes, s), Demand(c.Workers, j)
	p := &Prediction{
		SetupBytes:        s,
		MessageTime:       MessageTime(c.MessageBytes, s, c.Bandwidth),
		LinkEfficiency:    LinkEfficiency(c.MessageBytes, s),
		Supply:            sup,
		Demand:            dem,
		ComputeBound:      sup >= dem,
		WMax:              WMax(j, c.Bandwidth, c.MessageBytes, s),
		EfficiencyCeiling: EfficiencyCeiling(c.Workers, j, c.Bandwidth, c.MessageBytes, s),
		FillTime:          FillTime(float64(c.jobSlots()), sup, dem),
	}
	if c.Layout == Line {
		p.MeanDistance = MeanDistance(Line, c.Workers)
	} else {
		p.MeanDistance = MeanDistance(Tree, c.depth())
	}
	return p
}
