package topology

import (
	"fmt"
	"math"
)

// Kind names a scattering topology.
type Kind int

const (
	// Star: the originator sends directly to m processors, one message at
	// a time (Section 2.1).
	Star Kind = iota
	// Tree: ordinary tree of out-degree p and computing layers 1..h
	// (Section 2.2).
	Tree
	// Binomial: binomial tree of out-degree p and layers 1..h
	// (Section 2.3).
	Binomial
)

// String returns "star", "tree" or "binomial".
func (k Kind) String() string {
	switch k {
	case Tree:
		return "tree"
	case Binomial:
		return "binomial"
	}
	return "star"
}

// ParseKind parses "star", "tree" or "binomial".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "star":
		return Star, nil
	case "tree":
		return Tree, nil
	case "binomial":
		return Binomial, nil
	}
	return 0, fmt.Errorf("unknown topology %q (want star, tree or binomial)", s)
}

// Order is a layer activation order (Section 2.4).
type Order int

const (
	// NLF activates layers nearest first: 1, 2, ..., h.
	NLF Order = iota
	// LLF activates the largest (deepest) layer first: h, ..., 1.
	LLF
)

// String returns "nlf" or "llf".
func (o Order) String() string {
	if o == LLF {
		return "llf"
	}
	return "nlf"
}

// ParseOrder parses "nlf" or "llf".
func ParseOrder(s string) (Order, error) {
	switch s {
	case "nlf", "NLF":
		return NLF, nil
	case "llf", "LLF":
		return LLF, nil
	}
	return 0, fmt.Errorf("unknown layer order %q (want nlf or llf)", s)
}

// Layers returns the destination layers 1..h in activation order.
func (o Order) Layers(h int) []int {
	out := make([]int, h)
	for q := range out {
		if o == LLF {
			out[q] = h - q
		} else {
			out[q] = q + 1
		}
	}
	return out
}

// ipow returns b^e (b >= 1, e >= 0): by integer products while they are
// exact in a float64 (below 2^53), math.Pow beyond — the same value, a
// tenth of the time on the sizes the LPs ask for many times over.
func ipow(b, e int) float64 {
	r := 1
	for range e {
		if b > 0 && r > (1<<53)/b {
			return math.Pow(float64(b), float64(e))
		}
		r *= b
	}
	return float64(r)
}

// LayerSize returns the number of processors in layer i (1 <= i <= h) of a
// tree of out-degree p: p^i for an ordinary tree, p(p+1)^(i-1) for a
// binomial tree. For the star there is one "layer" per processor: 1.
func LayerSize(k Kind, p, i int) float64 {
	switch k {
	case Tree:
		return ipow(p, i)
	case Binomial:
		return float64(p) * ipow(p+1, i-1)
	}
	return 1
}

// ComputingProcessors returns the number of processors that may compute:
// m for a star, p+p²+...+p^h for an ordinary tree, (p+1)^h − 1 for a
// binomial tree (the originator does not compute).
func ComputingProcessors(k Kind, m, p, h int) float64 {
	switch k {
	case Tree:
		s := 0.0
		for i := 1; i <= h; i++ {
			s += ipow(p, i)
		}
		return s
	case Binomial:
		return ipow(p+1, h) - 1
	}
	return float64(m)
}

// TotalNodes returns the number of nodes including the originator: m+1 for
// a star, (p^(h+1)−1)/(p−1) (h+1 for p=1) for an ordinary tree, (p+1)^h for
// a binomial tree.
func TotalNodes(k Kind, m, p, h int) float64 {
	return ComputingProcessors(k, m, p, h) + 1
}

// TreeHopLoad returns, for an ordinary tree, how many destination-layer
// processors' loads one link of hop l (from layer l to l+1) carries for a
// message to layer i: p^(i−l−1).
func TreeHopLoad(p, i, l int) float64 { return ipow(p, i-l-1) }

// BinomialStepLoad returns, for a binomial tree, how many destination-layer
// processors' loads one link carries in step s (1..i) of the scatter to
// layer i: p(p+1)^(i−s−1) for s < i and 1 for s = i (Section 3.3).
func BinomialStepLoad(p, i, s int) float64 {
	if s == i {
		return 1
	}
	return float64(p) * ipow(p+1, i-s-1)
}

// BinomialTransferLoad returns Σ_s BinomialStepLoad(p,i,s) = (p+1)^(i−1),
// the factor of C in the duration Si + C(p+1)^(i−1)α of a scatter to
// layer i (Section 3.3).
func BinomialTransferLoad(p, i int) float64 { return ipow(p+1, i-1) }
