//go:build cgo && highs && (linux || darwin) && (amd64 || arm64)

package highs

/*
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// The calls of HiGHS's C API (highs_c_api.h, HiGHS 1.12) this package
// makes. The library is the static build that the Go module
// github.com/bartolsthoorn/gohighs bundles and links (imported below for
// that alone); its header is not reachable from here, so the prototypes
// are restated. HighsInt is int in that build (New checks it).
typedef int HighsInt;
void* Highs_create(void);
void Highs_destroy(void* highs);
const char* Highs_version(void);
HighsInt Highs_getSizeofHighsInt(const void* highs);
HighsInt Highs_passLp(void* highs, const HighsInt num_col, const HighsInt num_row,
	const HighsInt num_nz, const HighsInt a_format, const HighsInt sense,
	const double offset, const double* col_cost, const double* col_lower,
	const double* col_upper, const double* row_lower, const double* row_upper,
	const HighsInt* a_start, const HighsInt* a_index, const double* a_value);
HighsInt Highs_run(void* highs);
HighsInt Highs_zeroAllClocks(const void* highs);
double Highs_getRunTime(const void* highs);
HighsInt Highs_clearSolver(void* highs);
HighsInt Highs_getModelStatus(const void* highs);
HighsInt Highs_getSolution(const void* highs, double* col_value, double* col_dual,
	double* row_value, double* row_dual);
double Highs_getObjectiveValue(const void* highs);
HighsInt Highs_getIntInfoValue(const void* highs, const char* info, HighsInt* value);
HighsInt Highs_getBasis(const void* highs, HighsInt* col_status, HighsInt* row_status);
HighsInt Highs_setBasis(void* highs, const HighsInt* col_status, const HighsInt* row_status);
HighsInt Highs_changeColBounds(void* highs, const HighsInt col, const double lower, const double upper);
HighsInt Highs_changeRowBounds(void* highs, const HighsInt row, const double lower, const double upper);
HighsInt Highs_setBoolOptionValue(void* highs, const char* option, const HighsInt value);
HighsInt Highs_setIntOptionValue(void* highs, const char* option, const HighsInt value);
HighsInt Highs_setDoubleOptionValue(void* highs, const char* option, const double value);
HighsInt Highs_setStringOptionValue(void* highs, const char* option, const char* value);
HighsInt Highs_getDoubleOptionValue(const void* highs, const char* option, double* value);
HighsInt Highs_getIntOptionValue(const void* highs, const char* option, HighsInt* value);
HighsInt Highs_startCallback(void* highs, const HighsInt callback_type);

// HighsCallbackDataIn begins with the flag a callback sets to interrupt
// the solve; the header promises that layout ("the first 2 fields of this
// struct are interrupt and solution"), and only that field is written.
typedef struct { int user_interrupt; } dlInterruptIn;
typedef void (*dlCallback)(int, const char*, const void*, dlInterruptIn*, void*);
HighsInt Highs_setCallback(void* highs, dlCallback cb, void* data);

// kHighsCallbackSimplexInterrupt and kHighsCallbackIpmInterrupt.
enum { dlSimplexInterrupt = 1, dlIpmInterrupt = 2 };

// dlInterrupt is the callback: it asks HiGHS to stop while the flag that
// the Go side raises on cancellation is up. It writes the field either
// way: HiGHS keeps it from one run to the next, so a solve after a
// cancelled one would otherwise stop at its first check.
static void dlInterrupt(int type, const char* msg, const void* out, dlInterruptIn* in, void* flag) {
	if (in != NULL && flag != NULL) {
		in->user_interrupt = __atomic_load_n((int*)flag, __ATOMIC_SEQ_CST) != 0;
	}
}

static void dlSetFlag(int* flag, int v) { __atomic_store_n(flag, v, __ATOMIC_SEQ_CST); }

// dlWatch installs dlInterrupt with flag and starts the two interrupt
// callbacks; it returns the first failing HiGHS status, or 0.
static HighsInt dlWatch(void* h, int* flag) {
	HighsInt st = Highs_setCallback(h, dlInterrupt, flag);
	if (st == 0) st = Highs_startCallback(h, dlSimplexInterrupt);
	if (st == 0) st = Highs_startCallback(h, dlIpmInterrupt);
	return st;
}

// dlSettings are the options of one solve (see applyOptions).
// presolve is 0 for "choose", 1 for "on" and 2 for "off".
typedef struct {
	int output, ipm, strategy, presolve, scale, iterLimit;
	double primalTol, dualTol, timeLimit;
} dlSettings;

static const char* dlPresolve[] = {"choose", "on", "off"};

// dlApply sets every option of s in one cgo call; it returns the first
// failing HiGHS status, or 0.
static HighsInt dlApply(void* h, const dlSettings* s) {
	HighsInt st = Highs_setBoolOptionValue(h, "output_flag", s->output);
	if (st == 0) st = Highs_setStringOptionValue(h, "solver", s->ipm ? "ipm" : "simplex");
	if (st == 0) st = Highs_setStringOptionValue(h, "run_crossover", "on");
	if (st == 0) st = Highs_setIntOptionValue(h, "simplex_strategy", s->strategy);
	if (st == 0) st = Highs_setStringOptionValue(h, "presolve", dlPresolve[s->presolve]);
	if (st == 0) st = Highs_setIntOptionValue(h, "simplex_scale_strategy", s->scale);
	if (st == 0) st = Highs_setDoubleOptionValue(h, "primal_feasibility_tolerance", s->primalTol);
	if (st == 0) st = Highs_setDoubleOptionValue(h, "dual_feasibility_tolerance", s->dualTol);
	if (st == 0) st = Highs_setDoubleOptionValue(h, "time_limit", s->timeLimit);
	if (st == 0) st = Highs_setIntOptionValue(h, "simplex_iteration_limit", s->iterLimit);
	if (st == 0) st = Highs_setIntOptionValue(h, "ipm_iteration_limit", s->iterLimit);
	return st;
}

// dlIterations sums the simplex, IPM and crossover iterations of the last
// run.
static HighsInt dlIterations(const void* h) {
	HighsInt total = 0, v;
	if (Highs_getIntInfoValue(h, "simplex_iteration_count", &v) == 0 && v > 0) total += v;
	if (Highs_getIntInfoValue(h, "ipm_iteration_count", &v) == 0 && v > 0) total += v;
	if (Highs_getIntInfoValue(h, "crossover_iteration_count", &v) == 0 && v > 0) total += v;
	return total;
}

static void dlFlushStdio(void) { fflush(NULL); }
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	// The static HiGHS library and its link flags.
	_ "github.com/bartolsthoorn/gohighs/highs"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// kHighsMatrixFormatRowwise and kHighsObjSense*.
const (
	formatRowwise = 2
	senseMinimize = 1
	senseMaximize = -1
)

// Available reports whether the HiGHS backend is compiled in. It is true
// in this build.
func Available() bool { return true }

// Version returns the version of the linked HiGHS library, "1.12.0".
func Version() string { return C.GoString(C.Highs_version()) }

// handles are what Close and the cleanup free.
type handles struct {
	h    unsafe.Pointer // Highs*
	flag *C.int         // the interrupt flag, C memory
}

func (hs handles) free() {
	C.Highs_destroy(hs.h)
	C.free(unsafe.Pointer(hs.flag))
}

// Problem is one HiGHS instance holding one model. It implements
// solver.Solver, solver.Incremental and solver.Restarter. A Problem is not
// safe for concurrent use; separate Problems may be used from separate
// goroutines.
//
// Call Close when done: it frees HiGHS's memory at once. A Problem that
// becomes unreachable without Close is freed by a runtime cleanup, as a
// safety net only.
type Problem struct {
	hs      handles // h nil after Close
	cleanup runtime.Cleanup

	loaded, solved bool
	rows, cols     int
	offset         float64 // the model's ObjOffset
	primalTol      float64 // the primal feasibility tolerance of the last solve
	// The bounds of the loaded model (kept for the basis mapping).
	colLo, colUp, rowLo, rowUp []float64
	pendingErr                 error // bad bound passed to Set*Bounds

	// HiGHS's default tolerances, used when Options leave them unset.
	defPrimalTol, defDualTol float64
	defScale                 int
}

// Compile-time check that Problem satisfies the solver interfaces.
var _ solver.Restarter = (*Problem)(nil)

// New creates an empty, silent HiGHS instance.
func New() (*Problem, error) {
	h := C.Highs_create()
	if h == nil {
		return nil, fail("Highs_create failed")
	}
	hs := handles{h: h, flag: (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))}
	if hs.flag == nil {
		C.Highs_destroy(h)
		return nil, fail("no memory for the interrupt flag")
	}
	if n := C.Highs_getSizeofHighsInt(h); n != C.HighsInt(unsafe.Sizeof(C.int(0))) {
		hs.free()
		return nil, fail("the linked HiGHS has %d-byte integers; this binding declares int", int(n))
	}
	p := &Problem{hs: hs}
	p.cleanup = runtime.AddCleanup(p, handles.free, hs)
	if err := p.init(); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// init silences the instance, reads the default tolerances and installs
// the interrupt callback.
func (p *Problem) init() error {
	h := p.hs.h
	if st := C.Highs_setBoolOptionValue(h, cstr("output_flag\x00"), 0); st != 0 {
		return fail("setting output_flag: HiGHS status %d", int(st))
	}
	var pt, dt C.double
	var sc C.HighsInt
	if C.Highs_getDoubleOptionValue(h, cstr("primal_feasibility_tolerance\x00"), &pt) != 0 ||
		C.Highs_getDoubleOptionValue(h, cstr("dual_feasibility_tolerance\x00"), &dt) != 0 ||
		C.Highs_getIntOptionValue(h, cstr("simplex_scale_strategy\x00"), &sc) != 0 {
		return fail("reading HiGHS's default options")
	}
	p.defPrimalTol, p.defDualTol, p.defScale = float64(pt), float64(dt), int(sc)
	if st := C.dlWatch(h, p.hs.flag); st != 0 {
		return fail("installing the interrupt callback: HiGHS status %d", int(st))
	}
	return nil
}

// cstr passes a NUL-terminated Go string constant to C without copying;
// HiGHS only reads option and info names during the call.
func cstr(s string) *C.char { return (*C.char)(unsafe.Pointer(unsafe.StringData(s))) }

// Close frees the HiGHS instance. It is idempotent and always returns nil;
// the Problem cannot be used afterwards.
func (p *Problem) Close() error {
	if p.hs.h == nil {
		return nil
	}
	p.cleanup.Stop()
	p.hs.free()
	p.hs = handles{}
	p.loaded, p.solved = false, false
	return nil
}

// Name returns "highs".
func (p *Problem) Name() string { return name }

// fail builds the StatusError for a failure that is not HiGHS's verdict.
func fail(format string, args ...any) *solver.StatusError {
	return &solver.StatusError{Solver: name, Status: solver.Failed, Detail: fmt.Sprintf(format, args...)}
}

// errClosed is returned by methods called after Close.
func errClosed() error { return fail("Problem closed (or not made by New)") }

// highsInts copies src into a new slice of C ints.
func highsInts(src []int) []C.HighsInt {
	out := make([]C.HighsInt, max(len(src), 1))
	for i, v := range src {
		out[i] = C.HighsInt(v)
	}
	return out
}

// doubles returns a pointer to src's first element, or to a dummy for an
// empty slice (HiGHS wants valid pointers). Go memory without Go pointers
// may be passed to C for the duration of a call.
func doubles(src []float64) *C.double {
	if len(src) == 0 {
		src = []float64{0}
	}
	return (*C.double)(unsafe.Pointer(&src[0]))
}

// Load replaces the loaded model by m (Highs_passLp, row-wise, with the
// model's objective offset). The model's data are copied; m may be
// changed afterwards. An invalid model gives a *solver.StatusError with
// Status Failed.
func (p *Problem) Load(m *lp.Model) error {
	if p.hs.h == nil {
		return errClosed()
	}
	defer runtime.KeepAlive(p)
	if err := m.Validate(); err != nil {
		return fail("invalid model: %v", err)
	}
	n, r, nnz := m.NumVars(), m.NumRows(), m.NumNonzeros()
	if n > math.MaxInt32 || r > math.MaxInt32 || nnz > math.MaxInt32 {
		return fail("model too large for HiGHS: %d columns, %d rows, %d nonzeros", n, r, nnz)
	}
	var starts []int
	if r > 0 {
		starts = m.RowStart[:r]
	}
	start, index := highsInts(starts), highsInts(m.RowIndex)
	sense := C.HighsInt(senseMinimize)
	if m.Sense == lp.Maximize {
		sense = senseMaximize
	}
	st := C.Highs_passLp(p.hs.h, C.HighsInt(n), C.HighsInt(r), C.HighsInt(nnz), formatRowwise, sense,
		C.double(m.ObjOffset), doubles(m.Obj), doubles(m.ColLower), doubles(m.ColUpper),
		doubles(m.RowLower), doubles(m.RowUpper), &start[0], &index[0], doubles(m.RowValue))
	if st < 0 {
		p.loaded = false
		return fail("Highs_passLp refused the model (HiGHS status %d)", int(st))
	}
	p.loaded, p.solved = true, false
	p.rows, p.cols = r, n
	p.offset = m.ObjOffset
	p.colLo = append(p.colLo[:0], m.ColLower...)
	p.colUp = append(p.colUp[:0], m.ColUpper...)
	p.rowLo = append(p.rowLo[:0], m.RowLower...)
	p.rowUp = append(p.rowUp[:0], m.RowUpper...)
	p.pendingErr = nil
	return nil
}

// Solve loads m and solves it from scratch with the algorithm and presolve
// setting of opt. A non-optimal outcome returns the partial Solution and a
// *solver.StatusError.
func (p *Problem) Solve(m *lp.Model, opt solver.Options) (*solver.Solution, error) {
	if err := p.Load(m); err != nil {
		return nil, err
	}
	return p.SolveLoaded(opt)
}

// SolveLoaded solves the loaded model from scratch (its basis cleared,
// presolve as opt says), like Solve without the Load; bound changes made
// with SetColBounds and SetRowBounds are kept.
func (p *Problem) SolveLoaded(opt solver.Options) (*solver.Solution, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(p)
	C.Highs_clearSolver(p.hs.h)
	return p.run(opt, opt.Algorithm, opt.Presolve)
}

// Resolve re-solves the loaded model from the current basis (warm start)
// with the dual simplex, or the primal when opt.Algorithm is Primal;
// barrier cannot be warm-started, so it means dual here, and presolve is
// off. Without a previous solve or SetBasis it starts from the slack
// basis.
func (p *Problem) Resolve(opt solver.Options) (*solver.Solution, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(p)
	alg := opt.Algorithm
	if alg == solver.Barrier {
		alg = solver.Dual
	}
	return p.run(opt, alg, solver.PresolveOff)
}

// run applies the options and runs HiGHS, watching opt.Context.
func (p *Problem) run(opt solver.Options, alg solver.Algorithm, pre solver.Presolve) (*solver.Solution, error) {
	if err := p.applyOptions(opt, alg, pre); err != nil {
		return nil, err
	}
	if err := ctxErr(opt); err != nil {
		return nil, err
	}
	// HiGHS's clock runs on from one Highs_run to the next, and the time
	// limit counts against it: zeroed, the limit counts per call.
	C.Highs_zeroAllClocks(p.hs.h)
	stop := p.watch(opt)
	if beforeRun != nil {
		beforeRun()
	}
	C.Highs_run(p.hs.h)
	if stop() {
		return nil, &solver.StatusError{Solver: name, Status: solver.Failed, Detail: "solve stopped", Cause: opt.Context.Err()}
	}
	p.solved = true
	label := alg.String()
	if alg == solver.Barrier {
		label = "ipm+crossover"
	}
	return p.result(label)
}

// applyOptions sets every option of a solve; settings opt leaves unset
// get HiGHS's defaults back, so nothing leaks from one solve into the
// next.
func (p *Problem) applyOptions(opt solver.Options, alg solver.Algorithm, pre solver.Presolve) error {
	s := C.dlSettings{
		strategy:  1, // dual simplex (serial)
		scale:     C.int(p.defScale),
		iterLimit: math.MaxInt32,
		primalTol: C.double(tolerance(opt.PrimalTolerance, p.defPrimalTol)),
		dualTol:   C.double(tolerance(opt.DualTolerance, p.defDualTol)),
		timeLimit: C.double(math.Inf(1)),
	}
	if opt.LogLevel > 0 {
		s.output = 1
	}
	switch alg {
	case solver.Dual:
	case solver.Primal:
		s.strategy = 4
	case solver.Barrier:
		s.ipm = 1
	default:
		return fail("unknown algorithm %d", int(alg))
	}
	switch pre {
	case solver.PresolveAuto:
	case solver.PresolveOn:
		s.presolve = 1
	case solver.PresolveOff:
		s.presolve = 2
	default:
		return fail("unknown presolve setting %d", int(pre))
	}
	if opt.Scaling > 4 {
		return fail("scaling mode %d out of range 0..4", opt.Scaling)
	}
	if opt.ScalingSet && opt.Scaling == 0 {
		s.scale = 0
	}
	if opt.MaxIterations > 0 && opt.MaxIterations < math.MaxInt32 {
		s.iterLimit = C.int(opt.MaxIterations)
	}
	if opt.MaxSeconds > 0 {
		s.timeLimit = C.double(opt.MaxSeconds)
	}
	if st := C.dlApply(p.hs.h, &s); st != 0 {
		return fail("HiGHS refused an option (status %d)", int(st))
	}
	p.primalTol = float64(s.primalTol)
	return nil
}

// result reads the solution and status out of HiGHS after a run.
func (p *Problem) result(alg string) (*solver.Solution, error) {
	h := p.hs.h
	sol := &solver.Solution{
		X:            make([]float64, p.cols),
		ReducedCosts: make([]float64, p.cols),
		RowActivity:  make([]float64, p.rows),
		Duals:        make([]float64, p.rows),
		Iterations:   int(C.dlIterations(h)),
		Algorithm:    alg,
	}
	if p.cols > 0 || p.rows > 0 {
		var dummy [4]float64
		ptr := func(v []float64, k int) *C.double {
			if len(v) == 0 {
				return (*C.double)(unsafe.Pointer(&dummy[k]))
			}
			return (*C.double)(unsafe.Pointer(&v[0]))
		}
		C.Highs_getSolution(h, ptr(sol.X, 0), ptr(sol.ReducedCosts, 1), ptr(sol.RowActivity, 2), ptr(sol.Duals, 3))
	}
	clean(sol.X)
	clean(sol.ReducedCosts)
	clean(sol.RowActivity)
	clean(sol.Duals)
	st, detail := classify(int(C.Highs_getModelStatus(h)))
	sol.Objective = float64(C.Highs_getObjectiveValue(h))
	if p.cols == 0 {
		st, detail = p.noColumns()
		sol.Objective = p.offset
	}
	sol.Status = st
	if st != solver.Optimal {
		return sol, &solver.StatusError{Solver: name, Status: st, Detail: detail}
	}
	return sol, nil
}

// noColumns is the outcome of a model without columns, which HiGHS calls
// empty and optimal with objective 0 whatever its rows and offset: every
// row's activity is 0, so it is optimal (objective the offset) when every
// row admits 0 within the primal tolerance, and infeasible otherwise.
func (p *Problem) noColumns() (solver.Status, string) {
	for i := range p.rowLo {
		if p.rowLo[i] > p.primalTol || p.rowUp[i] < -p.primalTol {
			return solver.Infeasible, fmt.Sprintf("no columns, and row %d needs an activity in [%g, %g]", i, p.rowLo[i], p.rowUp[i])
		}
	}
	return solver.Optimal, ""
}

// SetColBounds sets the bounds of column j of the loaded model to [lo, up]
// (±Inf for none; HiGHS takes magnitudes of 1e20 and more as infinite). It
// panics if j is out of range. A NaN bound is reported by the next solve.
// After Close it does nothing.
func (p *Problem) SetColBounds(j int, lo, up float64) {
	if p.hs.h == nil {
		return
	}
	defer runtime.KeepAlive(p)
	if !p.boundsOK("SetColBounds", "column", j, p.cols, lo, up) {
		return
	}
	C.Highs_changeColBounds(p.hs.h, C.HighsInt(j), C.double(lo), C.double(up))
	p.colLo[j], p.colUp[j] = lo, up
}

// SetRowBounds sets the bounds of row i of the loaded model to [lo, up]
// (±Inf for none). It panics if i is out of range. A NaN bound is
// reported by the next solve. After Close it does nothing.
func (p *Problem) SetRowBounds(i int, lo, up float64) {
	if p.hs.h == nil {
		return
	}
	defer runtime.KeepAlive(p)
	if !p.boundsOK("SetRowBounds", "row", i, p.rows, lo, up) {
		return
	}
	C.Highs_changeRowBounds(p.hs.h, C.HighsInt(i), C.double(lo), C.double(up))
	p.rowLo[i], p.rowUp[i] = lo, up
}

// boundsOK checks a bound change of SetColBounds or SetRowBounds (call)
// on index k of n columns or rows (what): it panics out of range and, for
// a NaN bound, records the error the next solve reports and returns false.
func (p *Problem) boundsOK(call, what string, k, n int, lo, up float64) bool {
	if !p.loaded || k < 0 || k >= n {
		panic(fmt.Sprintf("highs: %s: %s %d out of range [0,%d)", call, what, k, n))
	}
	if math.IsNaN(lo) || math.IsNaN(up) {
		if p.pendingErr == nil {
			p.pendingErr = fail("%s %d given bounds [%g, %g]", what, k, lo, up)
		}
		return false
	}
	return true
}

// Basis returns the statuses of the loaded model's columns and rows after
// a solve (Highs_getBasis), and false before any or when HiGHS holds no
// valid basis (an interior-point solve stopped before crossover).
func (p *Problem) Basis() (solver.Basis, bool) {
	if p.hs.h == nil || !p.loaded || !p.solved {
		return solver.Basis{}, false
	}
	defer runtime.KeepAlive(p)
	cs := make([]C.HighsInt, max(p.cols, 1))
	rs := make([]C.HighsInt, max(p.rows, 1))
	if C.Highs_getBasis(p.hs.h, &cs[0], &rs[0]) != 0 {
		return solver.Basis{}, false
	}
	b := solver.Basis{Cols: make([]solver.BasisStatus, p.cols), Rows: make([]solver.BasisStatus, p.rows)}
	for j := range b.Cols {
		b.Cols[j] = fromHighsBasis(int(cs[j]), p.colLo[j], p.colUp[j])
	}
	for i := range b.Rows {
		b.Rows[i] = fromHighsBasis(int(rs[i]), p.rowLo[i], p.rowUp[i])
	}
	return b, true
}

// SetBasis makes b (one status per column and per row of the loaded
// model) the starting basis of the next Resolve (Highs_setBasis). HiGHS
// accepts only a basis with one basic entry per row, so a basis with more
// or fewer is repaired first (repairBasis); HiGHS's factorisation replaces
// what is left singular by slacks.
func (p *Problem) SetBasis(b solver.Basis) error {
	if p.hs.h == nil {
		return errClosed()
	}
	if !p.loaded {
		return fail("no model loaded")
	}
	if len(b.Cols) != p.cols || len(b.Rows) != p.rows {
		return fail("basis of %d columns and %d rows for a model of %d and %d", len(b.Cols), len(b.Rows), p.cols, p.rows)
	}
	defer runtime.KeepAlive(p)
	cols := make([]int32, max(p.cols, 1))
	rows := make([]int32, max(p.rows, 1))
	for j, s := range b.Cols {
		if s < solver.Free || s > solver.Fixed {
			return fail("column %d: basis status %d out of range", j, s)
		}
		cols[j] = int32(toHighsBasis(s, p.colLo[j], p.colUp[j]))
	}
	for i, s := range b.Rows {
		if s < solver.Free || s > solver.Fixed {
			return fail("row %d: basis status %d out of range", i, s)
		}
		rows[i] = int32(toHighsBasis(s, p.rowLo[i], p.rowUp[i]))
	}
	repairBasis(cols[:p.cols], rows[:p.rows], p.colLo, p.colUp)
	if st := C.Highs_setBasis(p.hs.h, (*C.HighsInt)(unsafe.Pointer(&cols[0])), (*C.HighsInt)(unsafe.Pointer(&rows[0]))); st < 0 {
		return fail("Highs_setBasis refused the basis (HiGHS status %d)", int(st))
	}
	return nil
}

// ready checks that a model is loaded and no bad bound is pending.
func (p *Problem) ready() error {
	if p.hs.h == nil {
		return errClosed()
	}
	if !p.loaded {
		return fail("no model loaded")
	}
	if err := p.pendingErr; err != nil {
		p.pendingErr = nil
		return err
	}
	return nil
}

func ctxErr(opt solver.Options) error {
	if opt.Context == nil || opt.Context.Err() == nil {
		return nil
	}
	return &solver.StatusError{Solver: name, Status: solver.Failed, Detail: "solve not started", Cause: opt.Context.Err()}
}

// watch stops the running solve when opt.Context is cancelled: a callback
// on the context raises the flag that HiGHS's simplex and interior-point
// interrupt callbacks read (dlInterrupt). The returned function ends the
// watch, lowers the flag and reports whether the context fired.
func (p *Problem) watch(opt solver.Options) func() bool {
	if opt.Context == nil || opt.Context.Done() == nil {
		return func() bool { return false }
	}
	flag := p.hs.flag
	fired := make(chan struct{})
	stop := context.AfterFunc(opt.Context, func() {
		C.dlSetFlag(flag, 1)
		close(fired)
	})
	return func() bool {
		if stop() {
			return false // the callback never ran
		}
		<-fired
		C.dlSetFlag(flag, 0)
		return true
	}
}

// flushCStdio flushes the C library's stdio buffers (for the silence
// test).
func flushCStdio() { C.dlFlushStdio() }

// beforeRun, when set (by tests), runs right before Highs_run, with the
// context's watch installed.
var beforeRun func()

// Test hooks: raise or lower the interrupt flag as a cancelled context
// does, and read HiGHS's run clock (seconds in Highs_run since the clock
// was last zeroed).
func (p *Problem) setInterrupt(on bool) {
	v := 0
	if on {
		v = 1
	}
	C.dlSetFlag(p.hs.flag, C.int(v))
}
func (p *Problem) runTime() float64 { return float64(C.Highs_getRunTime(p.hs.h)) }
