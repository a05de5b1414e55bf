package formulations

import (
	"fmt"
	"slices"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/topology"
)

// NewOrderRelaxation builds the network whose LP bounds every completion
// of a partial activation order of a star (the order search's bound,
// docs/heterogeneous.md): every stage of n sends to the processors of
// prefix in that order, then to some of the processors of rest in some
// order — every order of every subset of rest, including none — each
// message paying its startup S_i + C_i·α. The relaxation keeps the
// prefix's messages as they are and lets the processors of rest go
// unordered and without startups (a processor of rest may stay unused,
// and an unused processor pays none):
//
//   - in stage k the messages of rest follow the prefix's on the port,
//     chained at C_i·α_ik each (a "port" hop per message): the next
//     stage's first message starts after all of them;
//   - the message of stage k to i ∈ rest arrives at least C_i·α_ik after
//     the prefix's messages of stage k end (a "delivery" hop per message,
//     the message's last hop, from which i computes);
//   - with result messages (β > 0), the prefix's results are chained in
//     its order (FIFO after the last message sent, LIFO after the results
//     of rest); each i ∈ rest returns C_i·β·L_i after the prefix's results
//     (FIFO) or the last message sent (LIFO), and no earlier than its
//     computing ends, and the port carries all of rest's results, chained
//     at C_i·β·L_i (a second hop per processor);
//   - without results, Cmax is at least the end of the port's last
//     message (the last message sent arrives by then).
//
// Every completion maps to a feasible point of this LP with the same loads
// and a makespan no shorter (each start time above is at most the
// completion's), so the LP's optimum bounds every completion's LP from
// below. With rest empty it is the LP of the prefix's order exactly. The
// destinations are the problem's processor numbers; prefix and rest must
// be disjoint and not both empty.
func NewOrderRelaxation(p *problem.Problem, prefix, rest []int, n int) (*Network, error) {
	if p.Kind != topology.Star {
		return nil, fmt.Errorf("formulations: order relaxation of a %s: stars only", p.Kind)
	}
	seen := map[int]bool{}
	for _, d := range append(slices.Clone(prefix), rest...) {
		if d < 1 || d > p.M || seen[d] {
			return nil, fmt.Errorf("formulations: order relaxation: processor %d repeated or outside 1..%d", d, p.M)
		}
		seen[d] = true
	}
	if len(seen) == 0 || n < 1 {
		return nil, fmt.Errorf("formulations: order relaxation: no processor or no stage")
	}
	var pat Pattern
	for k := 1; k <= n; k++ {
		for _, d := range append(slices.Clone(prefix), rest...) {
			pat = append(pat, Msg{Stage: k, Dest: d})
		}
	}
	nw := &Network{Prob: p, Pattern: pat, MsgHops: make([][]int, len(pat)), DestMsgs: map[int][]int{}}
	for j, m := range pat {
		if len(nw.DestMsgs[m.Dest]) == 0 {
			nw.Dests = append(nw.Dests, m.Dest)
		}
		nw.DestMsgs[m.Dest] = append(nw.DestMsgs[m.Dest], j)
	}
	slices.Sort(nw.Dests)
	last := nw.relaxStages(len(prefix), len(rest), n)
	if p.Returns() {
		nw.relaxResults(prefix, rest, last)
	} else {
		// The last message sent arrives by Cmax, so the port's work does:
		// with rest's messages unordered nothing else says so.
		nw.Final = []int{last}
	}
	nw.index()
	return nw, nil
}

// relaxStages adds the hops of the n stages of the relaxation (a messages
// of the prefix, then b of rest per stage) and returns the port's last hop.
func (nw *Network) relaxStages(a, b, n int) int {
	port := -1 // the port's last hop
	for k := 0; k < n; k++ {
		base := k * (a + b)
		for q := 0; q < a; q++ {
			j := base + q
			s, c, _ := nw.Prob.Params(nw.Pattern[j].Dest)
			h := nw.addHop(Hop{Msg: j, Const: s, Coef: c})
			nw.arc(port, h, ArcLink)
			port = h
		}
		endP := port // the prefix's messages of this stage end here
		for q := a; q < a+b; q++ {
			j := base + q
			_, c, _ := nw.Prob.Params(nw.Pattern[j].Dest)
			h := nw.addHop(Hop{Msg: j, Coef: c})
			nw.arc(port, h, ArcLink)
			port = h
		}
		for q := a; q < a+b; q++ {
			j := base + q
			_, c, _ := nw.Prob.Params(nw.Pattern[j].Dest)
			h := nw.addHop(Hop{Msg: j, Level: 1, Coef: c})
			nw.arc(endP, h, ArcLink)
		}
	}
	return port
}

// relaxResults adds the result hops of the relaxation after the port's
// last distribution hop last (see NewOrderRelaxation).
func (nw *Network) relaxResults(prefix, rest []int, last int) {
	p := nw.Prob
	nw.ResultHop = map[int]int{}
	add := func(d int, withStartup bool) int {
		s, c, _ := p.Params(d)
		if !withStartup {
			s = 0
		}
		nw.Hops = append(nw.Hops, Hop{Msg: nw.DestMsgs[d][0], Level: -1, Const: s, Coef: c * p.ResultRatio, Total: true})
		return len(nw.Hops) - 1
	}
	chain := func(from int, ds []int, waits bool) int {
		for _, d := range ds {
			h := add(d, waits)
			nw.arc(from, h, ArcLink)
			if waits {
				nw.ResultHop[d] = h
			}
			from = h
		}
		return from
	}
	// rest's results: each after start, waiting for its computing, and
	// all of them chained at C·β·L on the port.
	restResults := func(start int) (own []int, end int) {
		for _, d := range rest {
			h := add(d, false)
			nw.arc(start, h, ArcLink)
			nw.ResultHop[d] = h
			own = append(own, h)
		}
		end = start
		for _, d := range rest {
			h := add(d, false)
			nw.arc(end, h, ArcLink)
			end = h
		}
		return own, end
	}
	if p.Return == problem.ReturnFIFO {
		endP := chain(last, prefix, true)
		own, end := restResults(endP)
		nw.Final = append(append([]int{endP}, own...), end)
		return
	}
	own, end := restResults(last)
	rev := slices.Clone(prefix)
	slices.Reverse(rev)
	if len(rev) == 0 {
		nw.Final = append(own, end)
		return
	}
	first := add(rev[0], true)
	nw.ResultHop[rev[0]] = first
	nw.arc(end, first, ArcLink)
	for _, h := range own {
		nw.arc(h, first, ArcLink)
	}
	nw.Final = []int{chain(first, rev[1:], true)}
}
