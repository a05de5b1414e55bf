package problem

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/topology"
)

// FromPlatform maps each shape as its doc says: a star (heterogeneous
// with every worker's S and C when per-worker A is given, its results
// the ratio β), a chain as the tree of out-degree 1 and height m, a k-ary
// tree of depth levels as the tree (k, depth); one buffer, NLF; the
// perturbations left out. Results on a tree and an invalid platform are
// refused with the platform's field named.
func TestFromPlatform(t *testing.T) {
	inf := schedule.Float(math.Inf(1))
	star := platform.Platform{Topology: platform.Topology{Kind: platform.Star, M: 2}, S: 0.1, C: 0.01, A: 1, D: inf, V: 10,
		PerWorkerA: []float64{1, 2}, ResultPerUnit: 0.5, Slows: []platform.Slow{{Worker: 1, At: 0, Factor: 0.5}}}
	chain := platform.Platform{Topology: platform.Topology{Kind: platform.Chain, M: 5}, S: 0.1, C: 0.01, A: 1, D: 4, V: 10}
	kary := platform.Platform{Topology: platform.Topology{Kind: platform.KAry, K: 3, Depth: 2}, S: 0, C: 0, A: 1, D: inf, V: 10,
		Crashes: []platform.Crash{{Worker: 4, At: 1}}}
	for _, c := range []struct {
		name string
		p    platform.Platform
		want Problem
	}{
		{"heterogeneous star with results", star, Problem{Kind: topology.Star, Order: topology.NLF, Buffers: 1, M: 2, S: 0.1, C: 0.01, A: 1,
			Procs: []schedule.Proc{{S: 0.1, C: 0.01, A: 1}, {S: 0.1, C: 0.01, A: 2}}, D: math.Inf(1), V: 10, ResultRatio: 0.5}},
		{"chain", chain, Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 1, H: 5, S: 0.1, C: 0.01, A: 1, D: 4, V: 10}},
		{"ternary tree", kary, Problem{Kind: topology.Tree, Order: topology.NLF, Buffers: 1, P: 3, H: 2, A: 1, D: math.Inf(1), V: 10}},
	} {
		got, err := FromPlatform(&c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, *got, c.want)
		}
	}
	withResults := chain
	withResults.ResultPerUnit = 1
	bad := chain
	bad.M = 0
	for p, field := range map[*platform.Platform]string{&withResults: "Platform.ResultPerUnit", &bad: "Platform.M"} {
		var fe *platform.FieldError
		if _, err := FromPlatform(p); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%+v: %v, want a FieldError on %s", *p, err, field)
		}
	}
}
