package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestChainAndKAry(t *testing.T) {
	c, err := Chain(4)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(c.Parent) != "[-1 0 1 2]" || c.Levels() != 4 || !c.Leaf(3) || c.Leaf(0) {
		t.Fatalf("chain %+v", c)
	}
	// Binary tree, 3 levels: N = 7, heap order: children of processor i
	// are 2i and 2i+1 (k(i-1)+2 .. k·i+1).
	b, err := KAry(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if b.N() != 7 || fmt.Sprint(b.Children[0]) != "[1 2]" || fmt.Sprint(b.Children[2]) != "[5 6]" || fmt.Sprint(b.LevelSizes()) != "[1 2 4]" {
		t.Fatalf("binary tree %+v", b)
	}
	// Ternary, 3 levels: N = (27-1)/2 = 13; processor 4's children are
	// 3·3+2 = 11 .. 13 (0-based 10..12).
	tt, _ := KAry(3, 3)
	if tt.N() != 13 || fmt.Sprint(tt.Children[3]) != "[10 11 12]" {
		t.Fatalf("ternary tree %+v", tt)
	}
	for _, kd := range [][2]int{{2, 6}, {3, 4}, {4, 3}, {1, 9}} {
		k, d := kd[0], kd[1]
		tr, err := KAry(k, d)
		if err != nil {
			t.Fatal(err)
		}
		want := d
		if k > 1 {
			want = (pow(k, d) - 1) / (k - 1)
		}
		if tr.N() != want || KAryNodes(k, d) != want || tr.Levels() != d {
			t.Errorf("k=%d depth=%d: N %d, want %d", k, d, tr.N(), want)
		}
		for i := 1; i < tr.N(); i++ { // heap order, 1-based: parent of i is floor((i-2)/k)+1
			if p1 := (i+1-2)/k + 1; tr.Parent[i]+1 != p1 {
				t.Fatalf("k=%d: parent of processor %d is %d, want %d", k, i+1, tr.Parent[i]+1, p1)
			}
		}
	}
	for _, bad := range [][2]int{{0, 3}, {2, 0}, {2, 40}} {
		if _, err := KAry(bad[0], bad[1]); err == nil {
			t.Errorf("KAry(%d, %d) accepted", bad[0], bad[1])
		}
	}
	if _, err := Chain(0); err == nil {
		t.Error("Chain(0) accepted")
	}
}

func pow(k, d int) int {
	r := 1
	for i := 0; i < d; i++ {
		r *= k
	}
	return r
}

// BFS trees of a mesh: every node hangs on a neighbour one step closer to
// the root, the level sizes are the mesh's distance classes, and the
// three choices differ only in parents.
func TestMeshBFS(t *testing.T) {
	first, err := MeshBFS(3, 3, 0, 0, BFSFirst, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Distances from a corner of a 3×3 mesh: 1, 2, 3, 2, 1.
	if fmt.Sprint(first.LevelSizes()) != "[1 2 3 2 1]" {
		t.Fatalf("levels %v", first.LevelSizes())
	}
	last, _ := MeshBFS(3, 3, 0, 0, BFSLast, nil)
	if fmt.Sprint(last.LevelSizes()) != "[1 2 3 2 1]" || fmt.Sprint(first.Parent) == fmt.Sprint(last.Parent) {
		t.Fatalf("first %v last %v", first.Parent, last.Parent)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		r, c := 1+rng.IntN(6), 1+rng.IntN(6)
		tr, err := MeshBFS(r, c, rng.IntN(r), rng.IntN(c), BFSRandom, rng)
		if err != nil {
			t.Fatal(err)
		}
		if tr.N() != r*c {
			t.Fatalf("%d×%d: %d nodes", r, c, tr.N())
		}
		for i := 1; i < tr.N(); i++ {
			if p := tr.Parent[i]; p >= i || tr.Depth[p] != tr.Depth[i]-1 {
				t.Fatalf("node %d: parent %d at depth %d, own depth %d", i, p, tr.Depth[p], tr.Depth[i])
			}
		}
	}
	if _, err := MeshBFS(3, 8, 3, 0, BFSFirst, nil); err == nil {
		t.Error("root outside the mesh accepted")
	}
	if _, err := ParseBFSChoice("middle"); err == nil {
		t.Error("bad BFS choice accepted")
	}
}
