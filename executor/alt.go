package executor

import (
	"fmt"
	"math"
	"strings"
)

// altSource is a receiving end an Alt can wait on (a Mailbox or a
// Channel): ready reports whether a receive could start now, commit
// performs it (it may block, for a rendezvous transfer) and runs the case's
// function, watch and unwatch register a waiting Alt to be woken when the
// source may have become ready.
type altSource interface {
	ready() bool
	commit(p *Proc)
	watch(p *Proc)
	unwatch(p *Proc)
	describe() string
	blocker // cancelWait also unwatches
}

type caseKind uint8

const (
	caseRecv caseKind = iota
	caseTimeout
	caseSkip
)

// Case is one alternative of an Alt or PriAlt: a receive from a Mailbox
// (Mailbox.Case) or a Channel (Channel.Case), a timeout (TimeoutAt,
// Timeout) or SKIP (Skip), optionally guarded (When). A Case is a small
// value; a slice of cases can be built once and reused by every Alt of a
// loop.
type Case struct {
	src  altSource
	kind caseKind
	t    float64 // absolute time of a timeout
	off  bool    // guard false
}

// TimeoutAt is a case that becomes ready at virtual time t (at once if t
// has passed).
func TimeoutAt(t float64) Case {
	if math.IsNaN(t) {
		panic("executor: TimeoutAt(NaN)")
	}
	return Case{kind: caseTimeout, t: t}
}

// Timeout is a case that becomes ready d time units after the Alt starts
// waiting; it is TimeoutAt(now + d) for the current time of the process
// calling it.
func (p *Proc) Timeout(d float64) Case {
	if d < 0 || math.IsNaN(d) {
		panic(fmt.Sprintf("executor: Timeout(%g): negative or NaN", d))
	}
	return TimeoutAt(p.sim.now + d)
}

// Skip is a case that is always ready (occam's SKIP guard): an Alt with a
// Skip never blocks.
func Skip() Case { return Case{kind: caseSkip} }

// When returns the case guarded by cond: when cond is false the case is
// ignored (occam's boolean guard).
func (c Case) When(cond bool) Case {
	c.off = c.off || !cond
	return c
}

func (c *Case) ready(now float64) bool {
	switch c.kind {
	case caseRecv:
		return c.src.ready()
	case caseTimeout:
		return now >= c.t
	default:
		return true
	}
}

// PriAlt waits until one of the enabled cases is ready and commits to the
// first ready one in argument order (occam's PRI ALT): it performs that
// receive (for a rendezvous Channel, the transfer; the process resumes when
// it ends), runs the case's function and returns the case's index. It
// returns -1 at once if no case is enabled. While it waits, a deadlock
// report names every source it waits on.
func (p *Proc) PriAlt(cases ...Case) int { return p.alt(cases, true) }

// Alt is PriAlt with deterministic fairness (occam's ALT, made
// reproducible): among the ready cases it commits to the first one in
// round-robin order, starting after the case this process chose in its
// previous Alt.
func (p *Proc) Alt(cases ...Case) int { return p.alt(cases, false) }

func (p *Proc) alt(cases []Case, pri bool) int {
	p.check()
	n := len(cases)
	start := 0
	if !pri && n > 0 {
		start = p.altNext % n
	}
	for {
		enabled := false
		tmin := math.Inf(1)
		for k := 0; k < n; k++ {
			i := start + k
			if i >= n {
				i -= n
			}
			c := &cases[i]
			if c.off {
				continue
			}
			enabled = true
			if c.ready(p.sim.now) {
				p.altNext = i + 1
				if c.kind == caseRecv {
					c.src.commit(p)
				}
				return i
			}
			if c.kind == caseTimeout && c.t < tmin {
				tmin = c.t
			}
		}
		if !enabled {
			return -1
		}
		// Nothing is ready: watch every source, set the earliest timeout,
		// and wait for any of them.
		for i := range cases {
			if c := &cases[i]; !c.off && c.kind == caseRecv {
				c.src.watch(p)
				p.block(c.src)
			}
		}
		if !math.IsInf(tmin, 1) {
			p.gen++
			p.sim.push(event{t: tmin, p: p, gen: &p.gen, g: p.gen})
		}
		p.altCases = cases
		p.park("alt", "")
		for i := range cases {
			if c := &cases[i]; !c.off && c.kind == caseRecv {
				c.src.unwatch(p)
			}
		}
	}
}

// notifyWatchers wakes the Alts waiting on a source that may have become
// ready.
func (s *Sim) notifyWatchers(ws []*Proc) {
	for _, w := range ws {
		if w.state == procBlocked {
			s.wake(w)
		}
	}
}

func removeProc(ws []*Proc, p *Proc) []*Proc {
	for i, w := range ws {
		if w == p {
			copy(ws[i:], ws[i+1:])
			ws[len(ws)-1] = nil
			return ws[:len(ws)-1]
		}
	}
	return ws
}

func altDesc(cases []Case) string {
	var parts []string
	for i := range cases {
		c := &cases[i]
		if c.off {
			continue
		}
		switch c.kind {
		case caseRecv:
			parts = append(parts, c.src.describe())
		case caseTimeout:
			parts = append(parts, fmt.Sprintf("timeout at %g", c.t))
		}
	}
	return "alt on " + strings.Join(parts, ", ")
}
