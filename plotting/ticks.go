package plotting

import (
	"math"

	"gonum.org/v1/plot"
)

// niceTicks places the major ticks of a linear axis at the multiples of a
// round step — 1, 2 or 5 times a power of ten — that gives closest to 5
// labels (3 to 8), with 4 or 5 minor ticks between them. gonum's default
// started from the data's minimum and labelled 500, 2500, 4500, 6500 or
// 3, 9, 15 (issue 27). On an axis of integers (stages, processors) no
// step is below 1.
type niceTicks struct{ integer bool }

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(min, max float64) []plot.Tick {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	best, bestCount := 0.0, 0
	for k := math.Floor(math.Log10(span)) - 2; k <= math.Floor(math.Log10(span))+1; k++ {
		for _, m := range []float64{1, 2, 5} {
			step := m * math.Pow(10, k)
			if t.integer && step < 1 {
				continue
			}
			n := int(math.Floor(max/step+1e-9)-math.Ceil(min/step-1e-9)) + 1
			if n >= 3 && n <= 8 && (best == 0 || abs(n-5) < abs(bestCount-5) || abs(n-5) == abs(bestCount-5) && step > best) {
				best, bestCount = step, n
			}
		}
	}
	if best == 0 {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	minor := best / 5
	if m := best / math.Pow(10, math.Floor(math.Log10(best)+1e-9)); math.Abs(m-2) < 1e-9 {
		minor = best / 4
	}
	if t.integer && minor < 1 {
		minor = 1
	}
	var ts []plot.Tick
	for i := math.Ceil(min/minor - 1e-9); i <= math.Floor(max/minor+1e-9); i++ {
		v := i * minor
		if math.Abs(v) < 1e-12*span {
			v = 0
		}
		t := plot.Tick{Value: v}
		if r := v / best; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = "major" // relabelled by tickLabels
		}
		ts = append(ts, t)
	}
	return ts
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// logTicks places ticks at 1..9 times each power of ten in the range, the
// powers of ten labelled (tickLabels adds 2× and 5× on short ranges).
// gonum's LogTicks gave no tick below the first whole decade inside the
// range: 0.0102 to 1.31 showed nothing under 0.1 (issue 27).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	var ts []plot.Tick
	slack := 1e-9 * max
	for k := math.Floor(math.Log10(min)); k <= math.Ceil(math.Log10(max)); k++ {
		p := math.Pow(10, k)
		for m := 1.0; m <= 9; m++ {
			v := m * p
			if v < min-slack || v > max+slack {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = "major"
			}
			ts = append(ts, t)
		}
	}
	if len(ts) < 2 { // less than one step of a decade: linear positions
		return niceTicks{}.Ticks(min, max)
	}
	return ts
}
