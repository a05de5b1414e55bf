package optimize

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlsched/dlsched/problem"
)

// presets are the paper's settings, as problem field → value text.
var presets = map[string][][2]string{
	"fig9a": {{"topology", "star"}, {"m", "10"}, {"A", "1e-4"}, {"C", "1e-4"}, {"S", "1e-1"}, {"V", "1e7"}},
	"fig9b": {{"topology", "star"}, {"m", "10"}, {"A", "1e-3"}, {"C", "1e-4"}, {"S", "1e-2"}, {"V", "1e7"}},
	"fig11": {{"topology", "binomial"}, {"order", "llf"}, {"p", "2"}, {"h", "10"}, {"A", "1e-3"}, {"C", "1e-6"}, {"S", "1e-3"}, {"V", "1e7"}, {"D", "1e4"}},
}

// FieldPreset is the name of the preset option in errors.
const FieldPreset = "preset"

// Preset returns the paper setting name — fig9a or fig9b (the stars of
// Fig. 9, Fig9) or fig11 (the binomial tree p=2, h=10, LLF, V=1e7, D=1e4
// of Fig. 11) — as pairs of a problem field (problem.FieldM, ...) and its
// value as text, in a fixed order. A caller fills the fields its user did
// not set; an unknown name is a *problem.FieldError.
func Preset(name string) ([][2]string, error) {
	set, ok := presets[name]
	if !ok {
		return nil, &problem.FieldError{Field: FieldPreset, Value: name, Want: "fig9a, fig9b or fig11"}
	}
	return append([][2]string(nil), set...), nil
}

// LogGrid returns k ≥ 2 buffer sizes from dmin to dmax, equally spaced on
// a log scale, with the ends exactly dmin and dmax: the grid of OverD and
// of SurfaceDs.
func LogGrid(dmin, dmax float64, k int) []float64 {
	lo, hi := math.Log(dmin), math.Log(dmax)
	grid := make([]float64, k)
	for i := range grid {
		grid[i] = math.Exp(lo + (hi-lo)*float64(i)/float64(k-1))
	}
	grid[0], grid[k-1] = dmin, dmax
	return grid
}

// MaxSurfacePoints bounds the buffer sizes of a surface (OverND).
const MaxSurfacePoints = 100

// SurfaceDs returns the buffer sizes of a surface over n and D (OverND)
// for load v: LogGrid(dmin, dmax, points) with points 7 when 0, or, when
// dmin is 0 and preset is a Fig. 9 preset (fig9a, fig9b), the fractions
// Fig9Fractions of v. points outside 2..MaxSurfacePoints is a
// *problem.FieldError on "Points".
func SurfaceDs(v, dmin, dmax float64, points int, preset string) ([]float64, error) {
	if dmin == 0 && strings.HasPrefix(preset, "fig9") {
		out := make([]float64, len(Fig9Fractions))
		for i, f := range Fig9Fractions {
			out[i] = f * v
		}
		return out, nil
	}
	if points == 0 {
		points = 7
	}
	if points < 2 || points > MaxSurfacePoints {
		return nil, &problem.FieldError{Field: "Points", Value: fmt.Sprint(points), Want: fmt.Sprintf("an integer from 2 to %d", MaxSurfacePoints)}
	}
	return LogGrid(dmin, dmax, points), nil
}
