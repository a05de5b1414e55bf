package pfarm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/dlsched/dlsched/platform"
	"github.com/dlsched/dlsched/topology"
)

// findOptNaive is FindOptTree as Section 3.2 writes it and as dlsched first
// implemented it: every step solves (2) on the alive tree afresh, takes the
// deepest saturated node (ties by the highest number) and removes the
// deepest leaf of its subtree (ties by the highest number).
func findOptNaive(t *topology.FarmTree, alpha, betaF float64) []int {
	alive := make([]bool, t.N())
	for i := range alive {
		alive[i] = true
	}
	for {
		sub := induced(t, alive)
		c := rates(sub.tree, alpha, betaF)
		u := -1
		for i := range c {
			sum := 0.0
			for _, j := range sub.tree.Children[i] {
				sum += c[j]
			}
			if c[i] < sum*(1-1e-12) && (u < 0 || deeper(sub.tree.Depth, i, u)) {
				u = i
			}
		}
		if u < 0 {
			kept := make([]int, len(sub.orig))
			for i, o := range sub.orig {
				kept[i] = o + 1
			}
			return kept
		}
		leaf, stack := u, []int{u}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if sub.tree.Leaf(v) && deeper(sub.tree.Depth, v, leaf) {
				leaf = v
			}
			stack = append(stack, sub.tree.Children[v]...)
		}
		alive[sub.orig[leaf]] = false
	}
}

// randomFarmTree draws a chain, a k-ary tree, a BFS tree of a mesh or a
// random tree (each node hangs on a random earlier one).
func randomFarmTree(rt *rapid.T) *topology.FarmTree {
	var tr *topology.FarmTree
	var err error
	switch rapid.IntRange(0, 3).Draw(rt, "shape") {
	case 0:
		tr, err = topology.Chain(rapid.IntRange(1, 40).Draw(rt, "N"))
	case 1:
		tr, err = topology.KAry(rapid.IntRange(1, 4).Draw(rt, "k"), rapid.IntRange(1, 5).Draw(rt, "depth"))
	case 2:
		rows, cols := rapid.IntRange(1, 12).Draw(rt, "rows"), rapid.IntRange(1, 12).Draw(rt, "cols")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		tr, err = topology.MeshBFS(rows, cols, rapid.IntRange(0, rows-1).Draw(rt, "r0"), rapid.IntRange(0, cols-1).Draw(rt, "c0"), topology.BFSRandom, rng)
	default:
		n := rapid.IntRange(1, 80).Draw(rt, "n")
		parent := make([]int, n)
		parent[0] = -1
		for i := 1; i < n; i++ {
			parent[i] = rapid.IntRange(max(0, i-rapid.IntRange(1, 8).Draw(rt, "reach")), i-1).Draw(rt, "parent")
		}
		tr = treeOf(parent)
	}
	if err != nil {
		rt.Fatal(err)
	}
	return tr
}

// treeOf completes a tree from a parent array (parents first).
func treeOf(parent []int) *topology.FarmTree {
	t := &topology.FarmTree{Name: "random tree", Parent: parent, Children: make([][]int, len(parent)), Depth: make([]int, len(parent))}
	for i, p := range parent {
		if p >= 0 {
			t.Children[p] = append(t.Children[p], i)
			t.Depth[i] = t.Depth[p] + 1
		}
	}
	return t
}

// FindOptTree keeps exactly the processors the algorithm as written keeps
// (solving (2) afresh at every step), on random trees and random α >= β_f.
func TestFindOptTreeAsWritten(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		tr := randomFarmTree(rt)
		p := &Params{M: 1000, Te: rapid.Float64Range(1e-4, 0.05).Draw(rt, "Te"),
			BetaE: rapid.Float64Range(0, 1e-3).Draw(rt, "betaE")}
		p.BetaF = rapid.Float64Range(0, p.Alpha()).Draw(rt, "betaF")
		opt, err := FindOptTree(tr, p)
		if err != nil {
			rt.Fatal(err)
		}
		if got, want := fmt.Sprint(opt.Kept), fmt.Sprint(findOptNaive(tr, p.Alpha(), p.BetaF)); got != want {
			rt.Fatalf("%s: kept %s, the algorithm as written keeps %s", tr.Name, got, want)
		}
	})
}

// FindOptTree rests on "We also assume that α > β_f" (Section 3.2); with
// β_f > α it names Params.BetaF.
func TestFindOptTreeNeedsAlphaAboveBetaF(t *testing.T) {
	p := paper(100, 1e-4) // α = 0.582 ms
	p.BetaF = 1e-3
	_, err := FindOptTree(tree(t, "kary", 2, 3), p)
	if fe, ok := err.(*platform.FieldError); !ok || fe.Field != "Params.BetaF" {
		t.Fatalf("β_f > α: %v", err)
	}
}
