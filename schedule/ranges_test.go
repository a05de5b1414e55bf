package schedule

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The summary lists removed stages and unused destinations as ranges
// (issue 32, item 5: at n = 3,000 the pruned line listed 2,622 stage
// numbers, 379 … 3000).
func TestRanges(t *testing.T) {
	big := []int{1, 2, 3, 7}
	for k := 379; k <= 3000; k++ {
		big = append(big, k)
	}
	for _, c := range []struct {
		in   []int
		want string
	}{
		{nil, "[]"},
		{[]int{5}, "[5]"},
		{[]int{1, 2}, "[1 2]"},
		{[]int{2, 3, 4}, "[2–4]"},
		{[]int{1, 3, 4, 5, 9, 10}, "[1 3–5 9 10]"},
		{big, "[1–3 7 379–3000]"},
	} {
		if got := ranges(c.in); got != c.want {
			t.Errorf("ranges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Reading the ranges back gives the numbers: nothing is lost.
func TestRangesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set := rapid.SliceOfDistinct(rapid.IntRange(1, 60), rapid.ID[int]).Draw(t, "set")
		slices.Sort(set)
		var back []int
		for _, f := range strings.Fields(strings.Trim(ranges(set), "[]")) {
			lo, hi, ok := strings.Cut(f, "–")
			a, err := strconv.Atoi(lo)
			if err != nil {
				t.Fatalf("%q: %v", f, err)
			}
			b := a
			if ok {
				if b, err = strconv.Atoi(hi); err != nil || b-a < 2 {
					t.Fatalf("%q: a range of fewer than three numbers", f)
				}
			}
			for k := a; k <= b; k++ {
				back = append(back, k)
			}
		}
		if !slices.Equal(back, set) && !(len(back) == 0 && len(set) == 0) {
			t.Fatalf("%v -> %q -> %v", set, ranges(set), back)
		}
	})
}
