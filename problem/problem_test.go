package problem

import (
	"errors"
	"math"
	"testing"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// n_min per topology: Section 3.1 ⌈V/(Dm)⌉, Section 3.2 ⌈V/(Dph)⌉,
// Section 3.3 ⌈V/(D(h(p+1)−1))⌉.
func TestNMin(t *testing.T) {
	cases := []struct {
		p    Problem
		want int
	}{
		{Problem{Kind: topology.Star, M: 10, D: 1e4, V: 5e6}, 50},
		{Problem{Kind: topology.Star, M: 10, D: 1e4, V: 5e6 + 1}, 51},
		{Problem{Kind: topology.Star, M: 3, D: 1, V: 3}, 1},
		{Problem{Kind: topology.Star, M: 3, D: 0.1, V: 0.3}, 1}, // 0.1·3 rounds to 0.30000000000000004
		{Problem{Kind: topology.Star, M: 3, D: math.Inf(1), V: 1e9}, 1},
		{Problem{Kind: topology.Tree, P: 2, H: 10, D: 1e2, V: 1e4}, 5}, // 1e4/(100·2·10)
		{Problem{Kind: topology.Tree, P: 2, H: 10, D: 1e2, V: 1e4 + 1}, 6},
		{Problem{Kind: topology.Binomial, P: 2, H: 10, D: 1e2, V: 2.9e3}, 1}, // capacity (10·3−1)·100 = 2900
		{Problem{Kind: topology.Binomial, P: 2, H: 10, D: 1e2, V: 2.9e3 + 1}, 2},
		{Problem{Kind: topology.Binomial, P: 2, H: 5, D: 1, V: 1e3}, 72}, // 1000/14 = 71.4
	}
	for _, c := range cases {
		if got := c.p.NMin(); got != c.want {
			t.Errorf("%s D=%g V=%g: n_min %d, want %d", c.p.Kind, c.p.D, c.p.V, got, c.want)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	ok := Problem{Kind: topology.Star, M: 3, S: 0, C: 1, A: 1, D: 1, V: 3}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid problem rejected: %v", err)
	}
	cases := []struct {
		field string
		mod   func(*Problem)
	}{
		{"m", func(p *Problem) { p.M = 0 }},
		{"S", func(p *Problem) { p.S = -1 }},
		{"S", func(p *Problem) { p.S = math.NaN() }},
		{"C", func(p *Problem) { p.C = 0 }},
		{"C", func(p *Problem) { p.C = math.Inf(1) }},
		{"A", func(p *Problem) { p.A = -2 }},
		{"D", func(p *Problem) { p.D = 0 }},
		{"D", func(p *Problem) { p.D = math.NaN() }},
		{"V", func(p *Problem) { p.V = math.Inf(1) }},
		{"p", func(p *Problem) { p.Kind, p.P, p.H, p.Buffers = topology.Tree, 0, 2, 1 }},
		{"h", func(p *Problem) { p.Kind, p.P, p.H, p.Buffers = topology.Binomial, 2, 0, 1 }},
		{"buffers", func(p *Problem) { p.Kind, p.P, p.H, p.Buffers = topology.Tree, 2, 2, 3 }},
		{"relay", func(p *Problem) { p.Kind, p.P, p.H, p.Buffers, p.Relay = topology.Tree, 2, 2, 1, []int{1, 2} }},
		{"procs", func(p *Problem) { p.Procs = make([]schedule.Proc, 2) }},
	}
	for _, c := range cases {
		p := ok
		c.mod(&p)
		err := p.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("want a FieldError on %q, got %v", c.field, err)
		}
	}
}
