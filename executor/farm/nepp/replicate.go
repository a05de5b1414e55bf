package nepp

import "slices"

// hostState is the host's view: a mirror of every node queue (jobs sent,
// results not yet received, in order, head first), which results it has,
// how many copies of each job are in the queues, and the state that
// NextJobToReplicate keeps between calls (Section 3.1.4).
type hostState struct {
	p, q, qmin int
	mirror     [][]int
	popped     []int // results received from each node: its queue's dequeues
	have       []bool
	copies     []int32
	next       int
	results    int

	// NextJobToReplicate's arguments passed by reference: the search
	// position (a job record, the walk going from a queue's tail toward
	// its head) and the threshold on the number of copies. They persist
	// from one call to the next, for the whole run.
	cur       cursor
	threshold int32
	started   bool
	// levels counts the jobs without a result by number of copies (FT
	// only), so that the fewest copies of any candidate is known without
	// walking every queue; mark flags the jobs the requester holds or was
	// just given, markedAt counts those without a result by copies.
	levels   *counts
	mark     []bool
	markedAt map[int32]int
	steps    int64 // records and queues the searches walked
}

// cursor is a job record of the mirror: the record at absolute position
// abs of node's queue (positions count every job ever entered there, so
// that a record keeps its position as the head is dequeued). A position
// before the head is past the head: the record has left the queue (its
// result came back, and so did those of the jobs ahead of it).
type cursor struct{ node, abs int }

func newHostState(alg Algorithm, p, q, qmin, jobs int) *hostState {
	h := &hostState{p: p, q: q, qmin: qmin, mirror: make([][]int, p), popped: make([]int, p),
		have: make([]bool, jobs), copies: make([]int32, jobs)}
	if alg == FaultTolerant {
		h.levels = newCounts(p + 1)
		h.levels.add(0, jobs)
	}
	return h
}

// bump changes the copies of job by d, keeping levels.
func (h *hostState) bump(job int, d int32) {
	if h.levels != nil && !h.have[job] {
		h.levels.add(int(h.copies[job]), -1)
		h.levels.add(int(h.copies[job]+d), 1)
	}
	h.copies[job] += d
}

// receive takes the result of job from node (the head of its queue, which
// works in order) and reports whether it is the first result of that job.
func (h *hostState) receive(node, job int) bool {
	h.mirror[node] = h.mirror[node][1:]
	h.popped[node]++
	h.bump(job, -1)
	if h.have[job] {
		return false
	}
	if h.levels != nil {
		h.levels.add(int(h.copies[job]), -1)
	}
	h.have[job] = true
	h.results++
	return true
}

// assign enters jobs at the tail of node's queue.
func (h *hostState) assign(node int, jobs []int) {
	h.mirror[node] = append(h.mirror[node], jobs...)
	for _, j := range jobs {
		h.bump(j, 1)
	}
}

// fresh returns the next jobs of the input file, enough to fill node's
// queue to q.
func (h *hostState) fresh(node int) []int {
	var jobs []int
	for len(h.mirror[node])+len(jobs) < h.q && h.next < len(h.have) {
		jobs = append(jobs, h.next)
		h.next++
	}
	return jobs
}

// replicas selects the set of jobs to duplicate for node (Section 3.1.4):
// NextJobToReplicate is called, with node as "exclude", until node's queue
// would be full or nothing qualifies (then the queue stays partly empty:
// "if sending a node multiple copies of the same job is the host's only
// option, the host will leave the node's queue partially empty"). The
// chosen jobs go out in input order (heuristic 4).
func (h *hostState) replicas(node int) []int {
	if !h.started {
		// "the procedure that first initializes 'node' and 'job' should
		// initialize them to the tail of a queue": the queue after the
		// first requester's, once for the run; no job has fewer copies
		// than its original.
		h.started = true
		h.threshold = 1
		h.mark = make([]bool, len(h.have))
		h.markedAt = map[int32]int{}
		h.cur = h.tail((node + 1) % h.p)
	}
	clear(h.markedAt)
	for _, j := range h.mirror[node] {
		h.mark[j] = true
		if !h.have[j] {
			h.markedAt[h.copies[j]]++
		}
	}
	var out []int
	for len(h.mirror[node])+len(out) < h.q {
		j := h.nextJobToReplicate(node)
		if j < 0 {
			break
		}
		h.mark[j] = true
		h.bump(j, 1) // a copy once sent: counted while choosing the rest
		h.markedAt[h.copies[j]]++
		out = append(out, j)
	}
	for _, j := range h.mirror[node] {
		h.mark[j] = false
	}
	for _, j := range out {
		h.mark[j] = false
		h.bump(j, -1)
	}
	slices.Sort(out)
	return out
}

// nextJobToReplicate is the report's NextJobToReplicate. Its first
// SearchForCandidate finds the first candidate (a job without a result,
// not in exclude's queue) with at most threshold copies; if every
// candidate has more, that search has walked every queue back to where it
// started and found MinReplicas, the fewest copies of a candidate; the
// threshold is raised to it (and kept: it is passed by reference) and the
// second search finds the first candidate with that many. If there is no
// candidate at all (AllRedundant) it returns -1, the position and the
// threshold unchanged. minCandidate gives MinReplicas without the walk.
func (h *hostState) nextJobToReplicate(exclude int) int {
	m := h.minCandidate()
	if m < 0 {
		return -1
	}
	h.threshold = max(h.threshold, m)
	return h.search(exclude)
}

// minCandidate is the fewest copies of any job without a result outside
// the requester's queue and not just chosen (-1: none): the smallest level
// with more such jobs than marked ones.
func (h *hostState) minCandidate() int32 {
	for lo := 1; ; {
		c := h.levels.first(lo)
		if c < 0 {
			return -1
		}
		if h.levels.at(c) > h.markedAt[int32(c)] {
			return int32(c)
		}
		lo = c + 1
	}
}

// tail is the record at the tail of node's queue.
func (h *hostState) tail(node int) cursor {
	return cursor{node, h.popped[node] + len(h.mirror[node]) - 1}
}

// search is SearchForCandidate: from the cursor it walks every job record
// once, each queue from its tail toward its head and the queues in turn
// ("node = (node + 1) mod NumNodes", skipping empty ones and exclude's),
// and returns the first job without a result, not held by exclude nor
// just chosen, with at most threshold copies; the cursor moves to the
// record after it. Otherwise it returns -1 with the cursor unchanged.
func (h *hostState) search(exclude int) int {
	start := h.cur.node
	i := max(h.cur.abs-h.popped[start], -1) // -1: past the head
	if j := h.visit(start, i, 0, start, exclude); j >= 0 {
		return j
	}
	for k := 1; k < h.p; k++ {
		node := (start + k) % h.p
		if j := h.visit(node, len(h.mirror[node])-1, 0, start, exclude); j >= 0 {
			return j
		}
	}
	return h.visit(start, len(h.mirror[start])-1, i+1, start, exclude)
}

// visit walks records from down to to of node's queue for search.
func (h *hostState) visit(node, from, to, start, exclude int) int {
	h.steps++
	if node == exclude {
		return -1
	}
	q := h.mirror[node]
	for i := from; i >= to; i-- {
		h.steps++
		j := q[i]
		if !h.have[j] && !h.mark[j] && h.copies[j] <= h.threshold {
			h.cur = h.after(node, i, start, exclude)
			return j
		}
	}
	return -1
}

// after is the record that follows record i of node's queue in the walk:
// the next one toward the head, else the tail of the next queue that is
// neither empty nor exclude's, stopping at start (the do-while of
// SearchForCandidate).
func (h *hostState) after(node, i, start, exclude int) cursor {
	if i > 0 {
		return cursor{node, h.popped[node] + i - 1}
	}
	for {
		node = (node + 1) % h.p
		if node == start || (len(h.mirror[node]) > 0 && node != exclude) {
			return h.tail(node)
		}
	}
}

// counts is a Fenwick tree of counts over 0..n-1.
type counts struct{ tree []int }

func newCounts(n int) *counts { return &counts{tree: make([]int, n+1)} }

// add adds d to the count of i.
func (c *counts) add(i, d int) {
	for i++; i < len(c.tree); i += i & -i {
		c.tree[i] += d
	}
}

// sum is the total count of 0..i-1.
func (c *counts) sum(i int) int {
	s := 0
	for ; i > 0; i -= i & -i {
		s += c.tree[i]
	}
	return s
}

// at is the count of i.
func (c *counts) at(i int) int { return c.sum(i+1) - c.sum(i) }

// first is the smallest i >= lo with a positive count, -1 if none.
func (c *counts) first(lo int) int {
	target := c.sum(lo) // find the smallest i with sum(i+1) > target
	pos, step := 0, 1
	for step*2 < len(c.tree) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if pos+step < len(c.tree) && c.tree[pos+step] <= target {
			pos += step
			target -= c.tree[pos]
		}
	}
	if pos >= len(c.tree)-1 {
		return -1
	}
	return pos
}
