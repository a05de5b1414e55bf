package day

import (
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
		return 0, bad("Config.Bandwidth", strconv.Quote(s), "a positive number of bytes/s, optionally with MiB or MB")
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

// Link is what one link between the farmer and the farm costs per job:
// the farmer's CPU per job (FarmerCost), the job and the result message
// times c_job = (m + s)/B and c_res = (r + s)/B, and, for a link that
// carries the results back in the other direction (a tree), the
// bidirectional factor f.
type Link struct {
	FarmerCost, JobTime, ResultTime float64
	BothWays                        bool
	Factor                          float64
}

// Supply limits, as reported by FarmSupply.
const (
	LimitJobs      = "job messages"
	LimitFarmerJob = "farmer's CPU and job messages"
	LimitResults   = "result messages"
	LimitBothWays  = "links used both ways"
	LimitFarmer    = "farmer's CPU"
)

// Period is the least time per job through the link, and what sets it:
// the farmer's cost a and the job message in series, a + c_job (the
// link's buffer asks the farmer for the next job only when its transfer
// has ended, Section 4.3.2's sacrificial.buffer); the result message
// c_res ("c is the time to communicate a job or result message, which
// ever is the largest", Section 4.14.4); and on a link used both ways
// (c_job + c_res)/max(1, 2f), as its two directions together carry at
// most max(1, 2f)·B bytes per second.
func (l Link) Period() (float64, string) {
	p, why := l.FarmerCost+l.JobTime, LimitJobs
	if l.FarmerCost > 0 {
		why = LimitFarmerJob
	}
	if l.ResultTime > p {
		p, why = l.ResultTime, LimitResults
	}
	if l.BothWays {
		if b := (l.JobTime + l.ResultTime) / math.Max(1, 2*l.Factor); b > p {
			p, why = b, LimitBothWays
		}
	}
	return p, why
}

// FarmSupply is the most jobs per second the farm can be supplied with
// (Sections 4.5.1, 4.9.5, 4.12): links/Period through the farmer's links,
// and at most 1/a when the farmer spends a seconds of CPU per job (it
// hands out one job at a time: "the farmer executed an ALT for every job
// given out", 4.12.4). It returns the supply and what limits it.
func FarmSupply(links int, l Link) (float64, string) {
	p, why := l.Period()
	sup := float64(links) / p
	if l.FarmerCost > 0 && 1/l.FarmerCost < sup {
		sup, why = 1/l.FarmerCost, LimitFarmer
	}
	return sup, why
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
// farm (JSON field names are part of the CLI contract). MessageTime is the
// thesis's c, the larger of the job and the result message times.
type Prediction struct {
	SetupBytes        float64 `json:"setup_bytes"`
	MessageTime       float64 `json:"message_time"`
	JobMessageTime    float64 `json:"job_message_time"`
	ResultMessageTime float64 `json:"result_message_time"`
	LinkEfficiency    float64 `json:"link_efficiency"`
	FarmerLinks       int     `json:"farmer_links"`
	Supply            float64 `json:"supply"`
	SupplyLimit       string  `json:"supply_limit"`
	Demand            float64 `json:"demand"`
	ComputeBound      bool    `json:"compute_bound"`
	WMax              float64 `json:"w_max"`
	EfficiencyCeiling float64 `json:"efficiency_ceiling"`
	FillTime          float64 `json:"fill_time"`
	MeanDistance      float64 `json:"mean_distance"`
}

// Predict evaluates the model for a configuration (mean job time j): the
// supply of FarmSupply through the farmer's links (one on a line, three
// on a tree), the demand w/j, w_max = j·supply and the efficiency ceiling
// min(1, j·supply/w) (with m = r, no farmer cost and a line: the thesis's
// B/(m + s), jB/(m + s) and min(1, jB/(w(m + s)))).
func Predict(c *Config) *Prediction {
	s := c.setupBytes()
	j := c.meanJobTime()
	cj, cr := MessageTime(c.MessageBytes, s, c.Bandwidth), MessageTime(c.resultBytes(), s, c.Bandwidth)
	links := c.farmerLinks()
	sup, why := FarmSupply(links, Link{FarmerCost: c.FarmerCost, JobTime: cj, ResultTime: cr,
		BothWays: c.Layout == Tree, Factor: c.bidir()})
	dem := Demand(c.Workers, j)
	p := &Prediction{
		SetupBytes:        s,
		MessageTime:       math.Max(cj, cr),
		JobMessageTime:    cj,
		ResultMessageTime: cr,
		LinkEfficiency:    LinkEfficiency(c.MessageBytes, s),
		FarmerLinks:       links,
		Supply:            sup,
		SupplyLimit:       why,
		Demand:            dem,
		ComputeBound:      sup >= dem,
		WMax:              j * sup,
		EfficiencyCeiling: math.Min(1, j*sup/float64(c.Workers)),
		FillTime:          FillTime(float64(c.jobSlots()), sup, dem),
	}
	if c.Layout == Line {
		p.MeanDistance = MeanDistance(Line, c.Workers)
	} else {
		p.MeanDistance = MeanDistance(Tree, c.depth())
	}
	return p
}
