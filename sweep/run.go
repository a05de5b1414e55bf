package sweep

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dlsched/dlsched/closedform"
	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
)

// MaxMessages is the largest number of messages (stages × destinations)
// a point may have; larger points are rows with status "invalid" rather
// than an attempt to build a model that cannot fit.
const MaxMessages = 10_000_000

// Options configure Run.
type Options struct {
	// Workers is the number of points solved at once, each with its own
	// solver (0: GOMAXPROCS).
	Workers int
	// Shard restricts the run to one shard of the grid.
	Shard Shard
	// Run are the solve settings (usually the spec's Run with command-line
	// overrides applied).
	Run RunConfig
	// Progress, if set, is called after each row is written with the rows
	// done (including those found in the file) and the shard's total; it
	// is called from one goroutine at a time.
	Progress func(done, total int)
	// Start, if set, is called once before solving with the shard's total
	// and the rows already in the file.
	Start func(total, done int)
	// NoTimings writes rows without their wall-clock times, so that the
	// same spec gives the same rows byte for byte (the results file is a
	// journal in completion order; merge and the CSV sort by grid index).
	NoTimings bool
}

// Summary reports what a run did.
type Summary struct {
	// Total is the number of points in the shard; Done those already in
	// the file before the run; Solved those added by this run.
	Total, Done, Solved int
	// Status counts the rows written by this run by status.
	Status map[string]int
	// Warm counts the rows written by this run whose LP was solved from
	// the basis of the row before them (Row.Warm).
	Warm int
	// LPs and Seconds add up the rows written by this run; Wall is the
	// run's wall time.
	LPs     int
	Seconds float64
	Wall    time.Duration
	// Foreign counts rows of the file whose key is not a point of this
	// shard (another spec or shard wrote them); they are kept.
	Foreign int
	// Torn reports that a torn last line was cut off the file.
	Torn bool
}

// Run solves every point of the shard that the results file at path does
// not hold yet and appends one row per point. It can be killed at any
// moment and run again: rows are written whole and points already in the
// file are skipped, so the file ends with each point exactly once. On
// cancellation of ctx it stops handing out points, waits for the points in
// progress (a verification in progress is abandoned and its point left for
// the next run) and returns ctx's error with the summary so far.
func Run(ctx context.Context, sp *Spec, path string, opt Options) (Summary, error) {
	start := time.Now()
	j, err := OpenJournal(path)
	if err != nil {
		return Summary{Status: map[string]int{}}, err
	}
	defer j.Close()
	todo, sum := plan(sp, j, opt.Shard)
	if opt.Start != nil {
		opt.Start(sum.Total, sum.Done)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	solvers, release, err := newSolvers(min(workers, max(len(todo), 1)), opt.Run.Solver)
	if err != nil {
		return sum, err
	}
	defer release()
	rc := opt.Run
	if rc.Cache == nil {
		rc.Cache = solve.NewPatternCache()
	}
	rows := solveAll(ctx, chains(todo, rc), solvers, rc)
	werr := collect(rows, j, opt, &sum)
	sum.Wall = time.Since(start)
	if werr != nil {
		return sum, werr
	}
	if err := j.Close(); err != nil {
		return sum, err
	}
	return sum, ctx.Err()
}

// plan returns the points of shard that the journal j does not hold yet,
// in grid order, and the summary before solving: the shard's points, the
// rows already done, the foreign ones.
func plan(sp *Spec, j *Journal, shard Shard) ([]Point, Summary) {
	sum := Summary{Status: map[string]int{}, Torn: j.Torn}
	mine := map[string]bool{}
	for _, pt := range sp.Points() {
		if shard.Contains(pt.Index) {
			mine[pt.Key] = true
			sum.Total++
		}
	}
	have := map[string]bool{}
	for _, r := range j.Rows {
		if !mine[r.Key] {
			sum.Foreign++
		} else if !have[r.Key] {
			have[r.Key] = true
			sum.Done++
		}
	}
	var todo []Point
	for _, pt := range sp.Points() {
		if shard.Contains(pt.Index) && !have[pt.Key] {
			todo = append(todo, pt)
		}
	}
	return todo, sum
}

// newSolvers returns k solvers of the named backend, one per worker, and
// the function that releases them all.
func newSolvers(k int, name string) ([]*solve.Solver, func(), error) {
	solvers := make([]*solve.Solver, k)
	dones := make([]func(), 0, k)
	release := func() {
		for _, done := range dones {
			done()
		}
	}
	for w := range solvers {
		s, done, err := solve.NewSolver(name)
		if err != nil {
			release()
			return nil, nil, err
		}
		solvers[w] = s
		dones = append(dones, done)
	}
	return solvers, release, nil
}

// solveAll hands the jobs to one worker per solver and returns the
// channel of their rows, closed when every worker is done. On
// cancellation of ctx no further job is handed out, and a worker leaves
// the rest of its chain, and a row whose solve or verification was
// interrupted, for the next run.
func solveAll(ctx context.Context, jobs [][]Point, solvers []*solve.Solver, rc RunConfig) <-chan Row {
	queue := make(chan []Point)
	rows := make(chan Row)
	var wg sync.WaitGroup
	for _, s := range solvers {
		wg.Add(1)
		go func(s *solve.Solver) {
			defer wg.Done()
			for grp := range queue {
				solveChain(ctx, grp, s, rc, rows)
			}
		}(s)
	}
	go func() {
		defer close(queue)
		for _, grp := range jobs {
			select {
			case queue <- grp:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(rows)
	}()
	return rows
}

// solveChain solves the points of one job in turn with solver s, warm
// from one basis when the job is a chain of unpruned points, and sends
// their rows.
func solveChain(ctx context.Context, grp []Point, s *solve.Solver, rc RunConfig, rows chan<- Row) {
	var wc *warmChain
	if len(grp) > 1 && !rc.Prune {
		wc = &warmChain{maxN: maxStages(grp)}
	}
	defer wc.close()
	for _, pt := range grp {
		if ctx.Err() != nil {
			return // the rest of the chain is left for the next run
		}
		r := solvePoint(ctx, pt, s, rc, wc)
		if ctx.Err() != nil && (r.VerifyCanceled() || r.Status == StatusFailed) {
			continue // interrupted: left for the next run
		}
		rows <- r
	}
}

// collect appends the rows to the journal j as they come, counts them into
// sum and reports progress; after a write error it drains the rest and
// returns that error.
func collect(rows <-chan Row, j *Journal, opt Options, sum *Summary) error {
	done := sum.Done
	var werr error
	for r := range rows {
		if werr != nil {
			continue // drain
		}
		if opt.NoTimings {
			r.Seconds, r.SolveSeconds, r.VerifySeconds = 0, 0, 0
		}
		if werr = j.Append(&r); werr != nil {
			continue
		}
		done++
		sum.Solved++
		sum.Status[r.Status]++
		sum.LPs += r.LPs
		if r.Warm {
			sum.Warm++
		}
		sum.Seconds += r.Seconds
		if opt.Progress != nil {
			opt.Progress(done, sum.Total)
		}
	}
	return werr
}

// warmChain holds the warm-start engine of a run of points that differ
// only in their load V and stage count (chains); solvePoint makes it at
// the first point that solves.
type warmChain struct {
	seq  *solve.Sequence
	maxN int // the most stages a point of the chain asks for
}

func (wc *warmChain) close() {
	if wc != nil && wc.seq != nil {
		wc.seq.Close()
	}
}

// maxStages returns the largest stage count the points of a chain ask
// for: a fixed n, or n_min of their problem.
func maxStages(grp []Point) int {
	most := 0
	for _, pt := range grp {
		most = max(most, stageCount(pt))
	}
	return most
}

// stageCount returns the stage count point pt asks for: its fixed n, else
// n_min of its problem (0 when the problem is invalid).
func stageCount(pt Point) int {
	if pt.Stages.Policy == StagesFixed {
		return pt.Stages.N
	}
	if pt.Problem.Validate() != nil {
		return 0
	}
	return pt.Problem.NMin()
}

// chainPoints is the most points one warm-started job holds: longer chains
// are cut, so that the workers share a long run of neighbours (each piece
// starts from scratch). It does not depend on the number of workers, so
// the rows do not either.
const chainPoints = 16

// chains groups the points to solve into jobs, in increasing V, then n,
// each cut into jobs of at most chainPoints points solved in turn by one
// worker; jobs keep the order of their first point:
//
//   - with warm starts on (run.warm) and pruning off, the points that
//     differ only in V and in their stage count (a fixed n, or n_min) form
//     chains solved from one basis;
//   - with the pattern search (pruning on, run.pattern "search"), the
//     points that differ only in their stage count (whatever their label)
//     form a job: the search at n runs the stage counts below it
//     (pattern.MaxChain) through the run's shared cache, so one worker
//     solves each count once and in order, where points handed out one by
//     one had the other worker wait for the count below. The rows are the
//     same either way (the cache's results do not depend on who asks).
//
// Every other point is a job of its own.
func chains(todo []Point, rc RunConfig) [][]Point {
	var groups [][]Point
	at := map[string]int{}
	for _, pt := range todo {
		k, ok := chainKey(pt, rc)
		if !ok {
			groups = append(groups, []Point{pt})
			continue
		}
		if i, ok := at[k]; ok {
			groups[i] = append(groups[i], pt)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []Point{pt})
	}
	var out [][]Point
	for _, grp := range groups {
		n := make(map[int]int, len(grp)) // stage count by point index, computed once
		for _, pt := range grp {
			n[pt.Index] = stageCount(pt)
		}
		sort.SliceStable(grp, func(a, b int) bool {
			if va, vb := grp[a].Problem.V, grp[b].Problem.V; va != vb {
				return va < vb
			}
			return n[grp[a].Index] < n[grp[b].Index]
		})
		for len(grp) > chainPoints {
			out = append(out, grp[:chainPoints])
			grp = grp[chainPoints:]
		}
		out = append(out, grp)
	}
	return out
}

// chainKey returns the key of the job point pt joins (see chains), or
// false when it is a job of its own.
func chainKey(pt Point, rc RunConfig) (string, bool) {
	if pt.Stages.Policy == StagesOpt || pt.Deadline > 0 {
		return "", false
	}
	q := pt.Problem
	switch {
	case rc.Prune && (rc.Pattern == "" || rc.Pattern == "search"):
		return Key("", &q, Stages{}), true
	case rc.Prune || rc.NoWarm:
		return "", false
	}
	q.V = 0
	return Key(pt.Label, &q, Stages{Policy: pt.Stages.Policy}), true
}

// errVerifyCanceled marks a row whose verification was cut short by
// cancellation.
const errVerifyCanceled = "verify: canceled"

// VerifyCanceled reports a row whose verification was interrupted (such
// rows are not written).
func (r *Row) VerifyCanceled() bool { return r.Error == errVerifyCanceled }

// statusOf classifies a solve error.
func statusOf(err error) string {
	var fe *problem.FieldError
	var se *problem.StagesError
	var ze *solve.SizeError
	switch {
	case errors.As(err, &fe), errors.As(err, &se), errors.As(err, &ze):
		return StatusInvalid
	case solve.IsInfeasible(err):
		return StatusInfeasible
	case errors.Is(err, errNoOptimizer):
		return StatusUnsupported
	}
	return StatusFailed
}

// lpOptions returns the LP settings of rc with solver s (the measured
// best first algorithm, "auto"), cancelled by ctx.
func lpOptions(ctx context.Context, rc RunConfig, s *solve.Solver) solve.Options {
	return solve.Options{Solver: s, Algorithm: "auto", Form: rc.Form, NoPrune: !rc.Prune, Tolerance: rc.Tolerance,
		NoStageGeneration: rc.NoStageGeneration, Context: ctx, WorkerOrder: rc.WorkerOrder}
}

// SolvePoint solves one point with solver s and returns its row; it never
// panics and never returns an error: failures are rows with a status and a
// message.
func SolvePoint(ctx context.Context, pt Point, s *solve.Solver, rc RunConfig) Row {
	return solvePoint(ctx, pt, s, rc, nil)
}

// solvePoint is SolvePoint, warm-started from wc's engine when wc is not
// nil (a point of a chain).
func solvePoint(ctx context.Context, pt Point, s *solve.Solver, rc RunConfig, wc *warmChain) (row Row) {
	t0 := time.Now()
	p := pt.Problem
	row = Row{Key: pt.Key, Index: pt.Index, Label: pt.Label, StagesPolicy: pt.Stages.String()}
	row.Problem = p.ScheduleProblem(0)
	row.LBTrivial = schedule.Float(p.LowerBoundLB())
	if lb, ok := closedform.LBLine(&p); ok {
		f := schedule.Float(lb)
		row.LBLayer = &f
	}
	defer func() {
		if e := recover(); e != nil {
			row.Status = StatusFailed
			row.Error = fmt.Sprintf("panic: %v\n%s", e, firstFrames(debug.Stack()))
		}
		row.Seconds = time.Since(t0).Seconds()
	}()
	n, ok := pointStages(pt, rc, &row)
	if !ok {
		return row
	}
	lo := lpOptions(ctx, rc, s)
	if ok := checkPoint(pt, n, lo, rc, &row); !ok {
		return row
	}
	sch, searchLPs, verifyErr, err := schedulePoint(pt, n, lo, rc, wc, &row)
	if err != nil {
		row.Status, row.Error = statusOf(err), err.Error()
		return row
	}
	fillRow(&row, sch, searchLPs)
	if rc.Verify {
		fillVerification(ctx, &row, sch, verifyErr)
	}
	return row
}

// pointStages validates pt's problem and returns the stage count to
// solve it with (n_min, or the fixed n); ok false when the row is already
// final (invalid, or skipped over run.max_stages or MaxMessages).
func pointStages(pt Point, rc RunConfig, row *Row) (n int, ok bool) {
	p := pt.Problem
	if err := p.Validate(); err != nil {
		row.Status, row.Error = statusOf(err), err.Error()
		return 0, false
	}
	row.NMin = p.NMin()
	n = row.NMin
	if pt.Stages.Policy == StagesFixed {
		n = pt.Stages.N
	}
	if pt.Deadline > 0 {
		if ok := deadlineStages(pt, row); !ok {
			return 0, false
		}
		row.NMin = n // the placeholder load's n_min means nothing; the row states n
	}
	row.Problem.Stages = n
	if rc.MaxStages > 0 && n > rc.MaxStages && pt.Stages.Policy != StagesOpt {
		row.Status = StatusSkipped
		row.Error = fmt.Sprintf("n=%d stages exceeds run.max_stages=%d", n, rc.MaxStages)
		return 0, false
	}
	if msgs := float64(n) * float64(len(p.Dests())); msgs > MaxMessages {
		row.Status = StatusInvalid
		row.Error = fmt.Sprintf("n=%d stages give %.3g messages, more than %d for one LP", n, msgs, MaxMessages)
		return 0, false
	}
	return n, true
}

// checkPoint refuses, before solving, an LP over the memory limit (an
// invalid row; a point whose n the search chooses is checked by it) and,
// with verification, a replay that would not fit (a skipped row: a row
// must not say "optimal" and then fail its verification for want of
// memory). ok false when the row is final.
func checkPoint(pt Point, n int, lo solve.Options, rc RunConfig, row *Row) bool {
	p := pt.Problem
	if pt.Stages.Policy != StagesOpt {
		if err := solve.CheckSize(&p, n, lo); err != nil {
			row.Status, row.Error = statusOf(err), err.Error()
			return false
		}
	}
	if rc.Verify {
		if err := replay.CheckPlatform(p.Kind, p.M, p.P, p.H, float64(n)*p.Processors(), solve.DefaultMaxModelBytes); err != nil {
			row.Status = StatusSkipped
			row.Error = err.Error() + "; set run.verify = false to solve without verification"
			return false
		}
	}
	return true
}

// schedulePoint solves pt with n stages and the LP settings lo: at the
// best n of optimize.OverN (stages = "opt"), else with solve.Schedule in
// rc's pattern, warm from wc's engine in a chain. It returns the
// schedule, the LPs the search solved beyond the schedule's own, and the
// verification's error, and records the times in row.
func schedulePoint(pt Point, n int, lo solve.Options, rc RunConfig, wc *warmChain, row *Row) (*schedule.Schedule, int, error, error) {
	p := pt.Problem
	sopt := lo
	sopt.Pattern, sopt.Cache, sopt.Verify = rc.Pattern, rc.Cache, rc.Verify
	if !rc.Prune {
		sopt.Pattern = "" // the full pattern
	}
	if wc != nil { // a chain: unpruned points only (solveChain)
		if wc.seq == nil {
			// Room for the whole chain in the first model: Fig. 9's
			// chains along n then solve 38 points from scratch instead
			// of 46 (LP time 1.05 s instead of 1.29 s).
			if wc.seq = solve.NewSequence(&p, lo); wc.seq != nil {
				wc.seq.Reserve(wc.maxN)
			}
		}
		sopt.Warm = wc.seq
	}
	if pt.Deadline > 0 {
		res, err := solve.MaxLoad(&p, n, pt.Deadline, sopt)
		if err != nil {
			return nil, 0, nil, err
		}
		row.SolveSeconds, row.VerifySeconds = res.SolveSeconds, res.VerifySeconds
		return res.Schedule, res.SearchLPs, res.VerifyErr, nil
	}
	if pt.Stages.Policy == StagesOpt {
		t1 := time.Now()
		sch, lps, err := solveOpt(&p, lo)
		row.SolveSeconds = time.Since(t1).Seconds()
		var verifyErr error
		if err == nil && rc.Verify {
			row.VerifySeconds, verifyErr = solve.Verify(sch, sopt)
		}
		return sch, lps, verifyErr, err
	}
	res, err := solve.Schedule(&p, n, sopt)
	if err != nil {
		return nil, 0, nil, err
	}
	row.SolveSeconds, row.VerifySeconds = res.SolveSeconds, res.VerifySeconds
	return res.Schedule, res.SearchLPs, res.VerifyErr, nil
}

// fillRow records the solved schedule in the row: status, makespan,
// certified bound and gap, the pattern and its bound over every pattern,
// and the LPs and simplex iterations it took (searchLPs beyond the
// schedule's own attempts).
func fillRow(row *Row, sch *schedule.Schedule, searchLPs int) {
	row.Status = sch.Status
	row.Problem = sch.Problem
	row.Stages = sch.Stages
	c, lb, g := schedule.Float(sch.Cmax), schedule.Float(sch.LowerBound), schedule.Float(sch.Gap)
	row.Cmax, row.LowerBound, row.Gap = &c, &lb, &g
	row.Pattern = sch.Pattern.Method
	if ds := sch.Pattern.Destinations; len(ds) > 0 {
		parts := make([]string, len(ds))
		for i, d := range ds {
			parts[i] = strconv.Itoa(d)
		}
		row.Pattern += " " + strings.Join(parts, ",")
	}
	pl, pg := schedule.Float(sch.PatternLowerBound), schedule.Float(sch.PatternGap)
	row.PatternLowerBound, row.PatternGap = &pl, &pg
	fillHetero(row, sch)
	if sch.Solve != nil {
		row.Certified, row.Warm = sch.Solve.Certified, sch.Solve.Warm
		row.LPs = len(sch.Solve.Attempts) + searchLPs
		for _, a := range sch.Solve.Attempts {
			row.Iterations += a.Iterations
		}
	}
}

// fillVerification records the replay's verdict, or why there is none.
func fillVerification(ctx context.Context, row *Row, sch *schedule.Schedule, verifyErr error) {
	switch v := sch.Verification; {
	case verifyErr != nil && ctx.Err() != nil:
		row.Error = errVerifyCanceled
	case verifyErr != nil:
		row.Error = "verify: " + verifyErr.Error()
	case v != nil:
		row.Verification = &Verification{OK: v.OK, Makespan: v.Makespan, Violations: len(v.Violations)}
	}
}

// firstFrames keeps the first lines of a stack trace.
func firstFrames(b []byte) string {
	n, lines := 0, 0
	for n < len(b) && lines < 12 {
		if b[n] == '\n' {
			lines++
		}
		n++
	}
	return string(b[:n])
}

// SortRows orders rows by grid index, then key.
func SortRows(rows []Row) {
	sort.SliceStable(rows, func(a, b int) bool {
		if rows[a].Index != rows[b].Index {
			return rows[a].Index < rows[b].Index
		}
		return rows[a].Key < rows[b].Key
	})
}
