package topology_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/topology"
)

// Expected numbers come from Drozdowski & Wolniewicz, JPDC 64 (2004)
// (shared/papers/003_c1b2a21a487629e8.txt): Section 2.2 "The ordinary tree has
// m = (p^(h+1)−1)/(p−1) processors, when p > 1, and m = h+1 for p = 1"
// (originator included), Section 2.3 "The number of processors in a binomial
// tree with layers 0..h is m = (p+1)^h. There are p(p+1)^(i−1) processors in
// layer 1 <= i <= h", and Section 3.3 for the scatter of a binomial tree.

// ipow is integer exponentiation for the closed forms.
func ipow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

// treeTotal is the paper's m for an ordinary tree (Section 2.2).
func treeTotal(p, h int) int {
	if p == 1 {
		return h + 1
	}
	return (ipow(p, h+1) - 1) / (p - 1)
}

func TestLayerSize(t *testing.T) {
	tests := []struct {
		name    string
		k       topology.Kind
		p, i    int
		want    float64
		comment string
	}{
		{"star", topology.Star, 0, 1, 1, "one processor per 'layer'"},
		{"star/ignores p,i", topology.Star, 5, 3, 1, "one processor per 'layer'"},
		{"tree p=2 i=1", topology.Tree, 2, 1, 2, "p^i = 2"},
		{"tree p=2 i=3", topology.Tree, 2, 3, 8, "p^i = 2^3"},
		{"tree p=3 i=4", topology.Tree, 3, 4, 81, "p^i = 3^4"},
		{"tree p=1 i=5", topology.Tree, 1, 5, 1, "a chain: 1^5"},
		{"binomial p=2 i=1", topology.Binomial, 2, 1, 2, "p(p+1)^0 = 2"},
		{"binomial p=2 i=2", topology.Binomial, 2, 2, 6, "2·3"},
		{"binomial p=2 i=5", topology.Binomial, 2, 5, 162, "2·3^4; the paper's h=5 tree, deepest layer"},
		{"binomial p=1 i=4", topology.Binomial, 1, 4, 8, "1·2^3 (classic binomial tree)"},
		{"binomial p=3 i=3", topology.Binomial, 3, 3, 48, "3·4^2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := topology.LayerSize(tc.k, tc.p, tc.i); got != tc.want {
				t.Errorf("LayerSize(%v, p=%d, i=%d) = %g, want %g (%s)", tc.k, tc.p, tc.i, got, tc.want, tc.comment)
			}
		})
	}
}

func TestComputingProcessorsAndTotalNodes(t *testing.T) {
	tests := []struct {
		name          string
		k             topology.Kind
		m, p, h       int
		wantComputing float64
		wantTotal     float64
		comment       string
	}{
		{"star m=10", topology.Star, 10, 0, 0, 10, 11, "Fig. 6 star: m processors + originator"},
		{"star m=1", topology.Star, 1, 0, 0, 1, 2, "m+1"},
		{"tree p=2 h=7", topology.Tree, 0, 2, 7, 254, 255, "Section 4.2: 'ordinary tree which has h = 7 and m = 255'"},
		{"tree p=2 h=1", topology.Tree, 0, 2, 1, 2, 3, "(2^2-1)/(2-1) = 3"},
		{"tree p=3 h=2", topology.Tree, 0, 3, 2, 12, 13, "(3^3-1)/2 = 13"},
		{"tree p=1 h=4", topology.Tree, 0, 1, 4, 4, 5, "m = h+1 for p = 1"},
		{"binomial p=2 h=5", topology.Binomial, 0, 2, 5, 242, 243, "Section 4.2: 'binomial tree with h = 5 which has m = 243'"},
		{"binomial p=1 h=3", topology.Binomial, 0, 1, 3, 7, 8, "(1+1)^3"},
		{"binomial p=3 h=2", topology.Binomial, 0, 3, 2, 15, 16, "(3+1)^2"},
		{"binomial p=2 h=1", topology.Binomial, 0, 2, 1, 2, 3, "(2+1)^1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := topology.ComputingProcessors(tc.k, tc.m, tc.p, tc.h); got != tc.wantComputing {
				t.Errorf("ComputingProcessors = %g, want %g (%s)", got, tc.wantComputing, tc.comment)
			}
			if got := topology.TotalNodes(tc.k, tc.m, tc.p, tc.h); got != tc.wantTotal {
				t.Errorf("TotalNodes = %g, want %g (%s)", got, tc.wantTotal, tc.comment)
			}
		})
	}
}

// TestClosedForms sweeps p and h against the paper's closed forms, and
// checks that the layer sizes add up to the total.
func TestClosedForms(t *testing.T) {
	for p := 1; p <= 6; p++ {
		for h := 1; h <= 7; h++ {
			if got, want := topology.TotalNodes(topology.Tree, 0, p, h), float64(treeTotal(p, h)); got != want {
				t.Errorf("tree p=%d h=%d: TotalNodes = %g, paper's m = %g", p, h, got, want)
			}
			if got, want := topology.TotalNodes(topology.Binomial, 0, p, h), float64(ipow(p+1, h)); got != want {
				t.Errorf("binomial p=%d h=%d: TotalNodes = %g, paper's m = (p+1)^h = %g", p, h, got, want)
			}
			for _, k := range []topology.Kind{topology.Tree, topology.Binomial} {
				sum := 1.0 // the originator
				for i := 1; i <= h; i++ {
					sum += topology.LayerSize(k, p, i)
				}
				if got := topology.TotalNodes(k, 0, p, h); got != sum {
					t.Errorf("%v p=%d h=%d: TotalNodes = %g, 1 + Σ LayerSize = %g", k, p, h, got, sum)
				}
				if got := topology.ComputingProcessors(k, 0, p, h); got != sum-1 {
					t.Errorf("%v p=%d h=%d: ComputingProcessors = %g, Σ LayerSize = %g", k, p, h, got, sum-1)
				}
			}
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range []topology.Kind{topology.Star, topology.Tree, topology.Binomial} {
		got, err := topology.ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if s := [3]string{topology.Star.String(), topology.Tree.String(), topology.Binomial.String()}; s != [3]string{"star", "tree", "binomial"} {
		t.Errorf("Kind strings %v", s)
	}
	for _, bad := range []string{"", "ring", "stars", " star", "mesh"} {
		t.Run("bad/"+bad, func(t *testing.T) {
			_, err := topology.ParseKind(bad)
			if err == nil {
				t.Fatalf("ParseKind(%q) accepted", bad)
			}
			msg := err.Error()
			for _, want := range []string{"\"" + bad + "\"", "star", "tree", "binomial"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
		})
	}
}

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in   string
		want topology.Order
	}{
		{"nlf", topology.NLF}, {"NLF", topology.NLF}, {"llf", topology.LLF}, {"LLF", topology.LLF},
	}
	for _, tc := range tests {
		got, err := topology.ParseOrder(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if topology.NLF.String() != "nlf" || topology.LLF.String() != "llf" {
		t.Errorf("Order strings %q %q", topology.NLF, topology.LLF)
	}
	for _, bad := range []string{"", "flf", "nearest", "nlf "} {
		_, err := topology.ParseOrder(bad)
		if err == nil {
			t.Errorf("ParseOrder(%q) accepted", bad)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "\""+bad+"\"") || !strings.Contains(msg, "nlf") || !strings.Contains(msg, "llf") {
			t.Errorf("ParseOrder(%q) error %q should quote the input and name nlf and llf", bad, msg)
		}
	}
}

func TestOrderLayers(t *testing.T) {
	// Section 2.4: NLF activates layers 1, 2, ..., h; LLF h, ..., 1.
	tests := []struct {
		o    topology.Order
		h    int
		want []int
	}{
		{topology.NLF, 1, []int{1}},
		{topology.LLF, 1, []int{1}},
		{topology.NLF, 4, []int{1, 2, 3, 4}},
		{topology.LLF, 4, []int{4, 3, 2, 1}},
		{topology.NLF, 0, []int{}},
		{topology.LLF, 0, []int{}},
	}
	for _, tc := range tests {
		if got := tc.o.Layers(tc.h); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v.Layers(%d) = %v, want %v", tc.o, tc.h, got, tc.want)
		}
	}
}

func TestTreeHopLoad(t *testing.T) {
	// Section 3.2: "a single link from layer l feeds p^(i−l−1) processors
	// in layer i".
	tests := []struct {
		p, i, l int
		want    float64
	}{
		{2, 3, 0, 4}, {2, 3, 1, 2}, {2, 3, 2, 1},
		{3, 2, 0, 3}, {3, 2, 1, 1},
		{1, 5, 0, 1}, {1, 5, 4, 1},
		{4, 1, 0, 1},
	}
	for _, tc := range tests {
		if got := topology.TreeHopLoad(tc.p, tc.i, tc.l); got != tc.want {
			t.Errorf("TreeHopLoad(p=%d, i=%d, l=%d) = %g, want %g", tc.p, tc.i, tc.l, got, tc.want)
		}
	}
}

func TestBinomialStepLoad(t *testing.T) {
	// Section 3.3: in step s < i every sender passes p(p+1)^(i−s−1)
	// layer-i loads over each port, in the last step one.
	// Hand computation for p=2, i=3: steps carry 2·3=6, 2·1=2, 1 → 9 = 3^2.
	tests := []struct {
		p, i, s int
		want    float64
	}{
		{2, 3, 1, 6}, {2, 3, 2, 2}, {2, 3, 3, 1},
		{2, 1, 1, 1},
		{3, 2, 1, 3}, {3, 2, 2, 1},
		{1, 4, 1, 4}, {1, 4, 2, 2}, {1, 4, 3, 1}, {1, 4, 4, 1},
	}
	for _, tc := range tests {
		if got := topology.BinomialStepLoad(tc.p, tc.i, tc.s); got != tc.want {
			t.Errorf("BinomialStepLoad(p=%d, i=%d, s=%d) = %g, want %g", tc.p, tc.i, tc.s, got, tc.want)
		}
	}
	// Section 3.3: 1 + pΣ_{j=0}^{i−2}(p+1)^{i−j−2} = (p+1)^(i−1).
	for p := 1; p <= 6; p++ {
		for i := 1; i <= 8; i++ {
			sum := 0.0
			for s := 1; s <= i; s++ {
				sum += topology.BinomialStepLoad(p, i, s)
			}
			want := float64(ipow(p+1, i-1))
			if got := topology.BinomialTransferLoad(p, i); got != want {
				t.Errorf("BinomialTransferLoad(p=%d, i=%d) = %g, want (p+1)^(i-1) = %g", p, i, got, want)
			}
			if sum != want {
				t.Errorf("p=%d i=%d: Σ_s BinomialStepLoad = %g, want (p+1)^(i-1) = %g", p, i, sum, want)
			}
		}
	}
}

// checkGraph verifies the invariants every graph must satisfy: IDs are
// indices, node 0 is the only root, parent and child lists agree, every
// node but the originator is exactly one node's child, and ByLayer lists
// every node once, in its own layer.
func checkGraph(t *testing.T, g *topology.Graph) {
	t.Helper()
	childOf := make([]int, len(g.Nodes))
	for i := range childOf {
		childOf[i] = -1
	}
	for i, n := range g.Nodes {
		if n.ID != i {
			t.Fatalf("Nodes[%d].ID = %d", i, n.ID)
		}
		if (i == 0) != (n.Parent == -1) {
			t.Fatalf("node %d has parent %d", i, n.Parent)
		}
		if i == 0 && n.Layer != 0 {
			t.Fatalf("originator in layer %d", n.Layer)
		}
		for _, c := range n.Children {
			if c <= 0 || c >= len(g.Nodes) {
				t.Fatalf("node %d has child %d out of range", i, c)
			}
			if childOf[c] != -1 {
				t.Fatalf("node %d is a child of both %d and %d", c, childOf[c], i)
			}
			childOf[c] = i
			if g.Nodes[c].Parent != i {
				t.Fatalf("node %d lists child %d whose parent is %d", i, c, g.Nodes[c].Parent)
			}
			if g.Nodes[c].Layer <= n.Layer {
				t.Fatalf("child %d (layer %d) of node %d (layer %d) not deeper", c, g.Nodes[c].Layer, i, n.Layer)
			}
		}
	}
	for i := 1; i < len(g.Nodes); i++ {
		if childOf[i] == -1 {
			t.Fatalf("node %d is nobody's child", i)
		}
	}
	if len(g.ByLayer) != g.H+1 {
		t.Fatalf("len(ByLayer) = %d, want H+1 = %d", len(g.ByLayer), g.H+1)
	}
	if !reflect.DeepEqual(g.ByLayer[0], []int{0}) {
		t.Fatalf("ByLayer[0] = %v, want [0]", g.ByLayer[0])
	}
	seen := 0
	for l, ids := range g.ByLayer {
		for _, id := range ids {
			if g.Nodes[id].Layer != l {
				t.Fatalf("ByLayer[%d] holds node %d of layer %d", l, id, g.Nodes[id].Layer)
			}
			seen++
		}
	}
	if seen != len(g.Nodes) {
		t.Fatalf("ByLayer lists %d nodes of %d", seen, len(g.Nodes))
	}
}

// countInLayer returns how many nodes of layer i the subtree rooted at id
// holds (id included).
func countInLayer(g *topology.Graph, id, i int) int {
	n := 0
	if g.Nodes[id].Layer == i {
		n++
	}
	for _, c := range g.Nodes[id].Children {
		n += countInLayer(g, c, i)
	}
	return n
}

func TestBuildStar(t *testing.T) {
	for _, m := range []int{1, 2, 10} {
		g, err := topology.Build(topology.Star, m, 0, 0)
		if err != nil {
			t.Fatalf("Build(star, %d): %v", m, err)
		}
		checkGraph(t, g)
		if len(g.Nodes) != m+1 || g.H != 1 || g.Kind != topology.Star {
			t.Fatalf("star m=%d: %d nodes, H=%d, kind %v; want %d nodes, H=1", m, len(g.Nodes), g.H, g.Kind, m+1)
		}
		want := make([]int, m)
		for i := range want {
			want[i] = i + 1
		}
		if !reflect.DeepEqual(g.Nodes[0].Children, want) || !reflect.DeepEqual(g.ByLayer[1], want) {
			t.Fatalf("star m=%d: originator's children %v, layer 1 %v; want %v", m, g.Nodes[0].Children, g.ByLayer[1], want)
		}
		for _, n := range g.Nodes[1:] {
			if n.Layer != 1 || n.Parent != 0 || len(n.Children) != 0 {
				t.Fatalf("star processor %+v", n)
			}
		}
	}
}

func TestBuildTree(t *testing.T) {
	for _, c := range []struct{ p, h int }{{1, 1}, {1, 4}, {2, 1}, {2, 3}, {3, 2}, {2, 7}} {
		g, err := topology.Build(topology.Tree, 0, c.p, c.h)
		if err != nil {
			t.Fatalf("Build(tree, p=%d, h=%d): %v", c.p, c.h, err)
		}
		checkGraph(t, g)
		if len(g.Nodes) != treeTotal(c.p, c.h) {
			t.Fatalf("tree p=%d h=%d: %d nodes, paper's m = %d", c.p, c.h, len(g.Nodes), treeTotal(c.p, c.h))
		}
		for i := 1; i <= c.h; i++ {
			if got, want := len(g.ByLayer[i]), ipow(c.p, i); got != want {
				t.Fatalf("tree p=%d h=%d: layer %d has %d nodes, want p^i = %d", c.p, c.h, i, got, want)
			}
		}
		for _, n := range g.Nodes {
			want := c.p
			if n.Layer == c.h {
				want = 0 // leaves
			}
			if len(n.Children) != want {
				t.Fatalf("tree p=%d h=%d: node %d of layer %d has %d children, want %d", c.p, c.h, n.ID, n.Layer, len(n.Children), want)
			}
			for _, ch := range n.Children {
				if g.Nodes[ch].Layer != n.Layer+1 {
					t.Fatalf("tree: child %d of node %d skips a layer", ch, n.ID)
				}
			}
			if n.ChildrenByLayer != nil {
				t.Fatalf("tree node %d has ChildrenByLayer", n.ID)
			}
		}
		// The link into a layer-(l+1) node carries, for a message to layer
		// i, the loads of the p^(i−l−1) layer-i nodes below it.
		for l := 0; l < c.h; l++ {
			v := g.ByLayer[l+1][0]
			for i := l + 1; i <= c.h; i++ {
				if got, want := float64(countInLayer(g, v, i)), topology.TreeHopLoad(c.p, i, l); got != want {
					t.Fatalf("tree p=%d h=%d: node %d of layer %d has %g layer-%d descendants, TreeHopLoad = %g", c.p, c.h, v, l+1, got, i, want)
				}
			}
		}
	}
}

func TestBuildBinomial(t *testing.T) {
	for _, c := range []struct{ p, h int }{{1, 1}, {1, 4}, {2, 1}, {2, 3}, {3, 3}, {2, 5}} {
		g, err := topology.Build(topology.Binomial, 0, c.p, c.h)
		if err != nil {
			t.Fatalf("Build(binomial, p=%d, h=%d): %v", c.p, c.h, err)
		}
		checkGraph(t, g)
		if got, want := len(g.Nodes), ipow(c.p+1, c.h); got != want {
			t.Fatalf("binomial p=%d h=%d: %d nodes, paper's m = (p+1)^h = %d", c.p, c.h, got, want)
		}
		for i := 1; i <= c.h; i++ {
			if got, want := len(g.ByLayer[i]), c.p*ipow(c.p+1, i-1); got != want {
				t.Fatalf("binomial p=%d h=%d: layer %d has %d nodes, want p(p+1)^(i-1) = %d", c.p, c.h, i, got, want)
			}
		}
		for _, n := range g.Nodes {
			// A node of layer j has p children in each layer j+1..h, and
			// Children is those groups in layer order.
			var concat []int
			for l := n.Layer + 1; l <= c.h; l++ {
				grp := n.ChildrenByLayer[l]
				if len(grp) != c.p {
					t.Fatalf("binomial p=%d h=%d: node %d of layer %d has %d children in layer %d, want p = %d",
						c.p, c.h, n.ID, n.Layer, len(grp), l, c.p)
				}
				for _, ch := range grp {
					if g.Nodes[ch].Layer != l {
						t.Fatalf("ChildrenByLayer[%d] of node %d holds node %d of layer %d", l, n.ID, ch, g.Nodes[ch].Layer)
					}
				}
				concat = append(concat, grp...)
			}
			if len(n.ChildrenByLayer) != c.h-n.Layer {
				t.Fatalf("node %d of layer %d has children in %d layers, want %d", n.ID, n.Layer, len(n.ChildrenByLayer), c.h-n.Layer)
			}
			if !reflect.DeepEqual(n.Children, concat) {
				t.Fatalf("node %d: Children %v, ChildrenByLayer in layer order %v", n.ID, n.Children, concat)
			}
			// Section 2.3: the subtree of a layer-j node is a binomial tree
			// of height h−j, with (p+1)^(h−j) nodes.
			total := 0
			for i := n.Layer; i <= c.h; i++ {
				total += countInLayer(g, n.ID, i)
			}
			if want := ipow(c.p+1, c.h-n.Layer); total != want {
				t.Fatalf("subtree of node %d (layer %d) has %d nodes, want (p+1)^(h-j) = %d", n.ID, n.Layer, total, want)
			}
		}
		// In step s of the scatter to layer i, the link into a layer-s node
		// carries the loads of the layer-i nodes in its subtree:
		// BinomialStepLoad(p, i, s).
		for s := 1; s <= c.h; s++ {
			for _, v := range g.ByLayer[s] {
				for i := s; i <= c.h; i++ {
					if got, want := float64(countInLayer(g, v, i)), topology.BinomialStepLoad(c.p, i, s); got != want {
						t.Fatalf("binomial p=%d h=%d: node %d of layer %d has %g layer-%d nodes below, BinomialStepLoad = %g",
							c.p, c.h, v, s, got, i, want)
					}
				}
			}
		}
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name    string
		k       topology.Kind
		m, p, h int
		want    []string
	}{
		{"star m=0", topology.Star, 0, 2, 2, []string{"m >= 1", "got 0"}},
		{"star m<0", topology.Star, -3, 0, 0, []string{"m >= 1", "got -3"}},
		{"tree p=0", topology.Tree, 0, 0, 3, []string{"tree", "p >= 1", "p=0"}},
		{"tree h=0", topology.Tree, 0, 2, 0, []string{"tree", "h >= 1", "h=0"}},
		{"binomial p=0", topology.Binomial, 0, 0, 2, []string{"binomial", "p=0"}},
		{"binomial h=-1", topology.Binomial, 0, 2, -1, []string{"binomial", "h=-1"}},
		{"unknown kind", topology.Kind(7), 3, 2, 2, []string{"unknown kind 7"}},
		// MaxNodes guard: 2^23−1 = 8,388,607 nodes > 5,000,000.
		{"tree too large", topology.Tree, 0, 2, 22, []string{"8388607 nodes", "more than 5000000"}},
		// 3^15 = 14,348,907 > 5,000,000.
		{"binomial too large", topology.Binomial, 0, 2, 15, []string{"14348907 nodes", "more than 5000000"}},
		// p^(h+1) overflows nothing: the count is a float (+Inf here).
		{"tree astronomically large", topology.Tree, 0, 1000, 1000, []string{"more than 5000000"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := topology.Build(tc.k, tc.m, tc.p, tc.h)
			if err == nil {
				t.Fatalf("Build accepted: %d nodes", len(g.Nodes))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	// Just below the guard, the count is still admitted by TotalNodes.
	if n := topology.TotalNodes(topology.Binomial, 0, 2, 14); n != 4782969 || n > topology.MaxNodes {
		t.Errorf("binomial p=2 h=14 has %g nodes, want 3^14 = 4782969 <= MaxNodes", n)
	}
}

// TestIpowMatchesPow: the integer fast path gives math.Pow's value, bit
// for bit, below and above 2^53.
func TestIpowMatchesPow(t *testing.T) {
	for b := 1; b <= 12; b++ {
		for e := 0; e <= 70; e++ {
			if got, want := topology.LayerSize(topology.Tree, b, e), math.Pow(float64(b), float64(e)); got != want {
				t.Fatalf("%d^%d = %v, math.Pow %v", b, e, got, want)
			}
		}
	}
}
