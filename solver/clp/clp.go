//go:build cgo && !noclp

package clp

/*
#cgo pkg-config: clp
#include <stdio.h>
#include <stdlib.h>
#include "Clp_C_Interface.h"

// clpFlushStdio flushes C's stdio buffers so that anything Clp printed
// reaches file descriptors 1 and 2 (used by the silence test).
static void clpFlushStdio(void) { fflush(NULL); }
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

// ClpSolve::SolveType values (ClpSolve.hpp).
const (
	solveTypeDual    = 0 // useDual
	solveTypePrimal  = 1 // usePrimal
	solveTypeBarrier = 3 // useBarrier (with crossover)
)

// ClpSolve::PresolveType values (ClpSolve.hpp).
const (
	presolveTypeOn  = 0 // presolveOn
	presolveTypeOff = 1 // presolveOff
)

// maxInt32 is Clp's default (and "no") iteration limit.
const maxInt32 = math.MaxInt32

// liveModels counts Clp_Simplex objects not yet deleted (for tests).
var liveModels atomic.Int64

// Available reports whether the Clp backend is compiled in. It is true in
// this build (cgo enabled, no noclp tag).
func Available() bool { return true }

// Version returns the version of the linked Clp library, e.g. "1.17.6".
func Version() string { return C.GoString(C.Clp_Version()) }

// Problem is one Clp model (a Clp_Simplex). It implements solver.Solver and
// solver.Incremental. A Problem is not safe for concurrent use; separate
// Problems may be used from separate goroutines.
//
// Call Close when done: it frees Clp's memory at once. A Problem that
// becomes unreachable without Close is freed by a runtime cleanup, but only
// as a safety net, at a time of the garbage collector's choosing.
type Problem struct {
	model   unsafe.Pointer // Clp_Simplex* (void* in the C API); nil after Close
	cleanup runtime.Cleanup

	loaded     bool
	rows, cols int
	offset     float64 // lp.Model.ObjOffset, added to Clp's objective
	colDirty   bool    // column bounds written since the last solve
	rowDirty   bool    // row bounds written since the last solve
	pendingErr error   // bad bound passed to SetColBounds/SetRowBounds

	// Clp's defaults, restored when Options leave a setting unset.
	defPrimalTol, defDualTol float64
	defScaling               int
}

// Compile-time check that Problem satisfies the solver interfaces.
var _ solver.Restarter = (*Problem)(nil)

// New creates an empty, silent (log level 0) Clp model.
func New() (*Problem, error) {
	m := C.Clp_newModel()
	if m == nil {
		return nil, fmt.Errorf("clp: Clp_newModel failed: %w", solver.ErrFailed)
	}
	liveModels.Add(1)
	C.Clp_setLogLevel(m, 0)
	p := &Problem{
		model:        m,
		defPrimalTol: float64(C.Clp_primalTolerance(m)),
		defDualTol:   float64(C.Clp_dualTolerance(m)),
		defScaling:   int(C.Clp_scalingFlag(m)),
	}
	p.cleanup = runtime.AddCleanup(p, deleteModel, m)
	return p, nil
}

// deleteModel frees a Clp_Simplex; it is Close's work and the cleanup's.
func deleteModel(m unsafe.Pointer) {
	C.Clp_deleteModel(m)
	liveModels.Add(-1)
}

// Close frees the Clp model. It is idempotent and always returns nil; the
// Problem cannot be used afterwards.
func (p *Problem) Close() error {
	if p.model == nil {
		return nil
	}
	p.cleanup.Stop()
	deleteModel(p.model)
	p.model = nil
	p.loaded = false
	return nil
}

// Name returns "clp".
func (p *Problem) Name() string { return name }

// fail builds the StatusError for a failure that is not Clp's verdict.
func fail(format string, args ...any) *solver.StatusError {
	return &solver.StatusError{Solver: name, Status: solver.Failed, Detail: fmt.Sprintf(format, args...)}
}

// errClosed is returned by methods called after Close.
func errClosed() error { return fail("Problem closed (or not made by New)") }

// cArena holds C.malloc'ed buffers that are freed together.
type cArena struct{ ptrs []unsafe.Pointer }

func (a *cArena) alloc(n int, size uintptr) unsafe.Pointer {
	if n < 1 {
		n = 1 // malloc(0) may return NULL; Clp wants valid pointers
	}
	p := C.malloc(C.size_t(n) * C.size_t(size))
	a.ptrs = append(a.ptrs, p)
	return p
}

// doubles copies src into C memory, mapping ±Inf to ±COIN_DBL_MAX.
func (a *cArena) doubles(src []float64) *C.double {
	p := (*C.double)(a.alloc(len(src), unsafe.Sizeof(C.double(0))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.double(toClp(v))
	}
	return p
}

// ints copies src into C memory as C ints.
func (a *cArena) ints(src []int) *C.int {
	p := (*C.int)(a.alloc(len(src), unsafe.Sizeof(C.int(0))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.int(v)
	}
	return p
}

// bigIndices copies src into C memory as CoinBigIndex.
func (a *cArena) bigIndices(src []int) *C.CoinBigIndex {
	p := (*C.CoinBigIndex)(a.alloc(len(src), unsafe.Sizeof(C.CoinBigIndex(0))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.CoinBigIndex(v)
	}
	return p
}

func (a *cArena) free() {
	for _, p := range a.ptrs {
		C.free(p)
	}
	a.ptrs = nil
}

// Load replaces the loaded model by m (Clp_loadProblem from m.CSC()). The
// model's data are copied; m may be changed afterwards. An invalid model
// gives a *solver.StatusError with Status Failed and leaves the previously
// loaded model in place.
func (p *Problem) Load(m *lp.Model) error {
	if p.model == nil {
		return errClosed()
	}
	defer runtime.KeepAlive(p)
	if err := m.Validate(); err != nil {
		return fail("invalid model: %v", err)
	}
	csc := m.CSC()
	n, r, nnz := m.NumVars(), m.NumRows(), len(csc.Value)
	if n > maxInt32 || r > maxInt32 || int64(nnz) > int64(math.MaxInt32) {
		return fail("model too large for Clp: %d columns, %d rows, %d nonzeros", n, r, nnz)
	}
	var a cArena
	defer a.free()
	start := a.bigIndices(csc.Start)
	index := a.ints(csc.Index)
	value := a.doubles(csc.Value)
	colLo := a.doubles(m.ColLower)
	colUp := a.doubles(m.ColUpper)
	obj := a.doubles(m.Obj)
	rowLo := a.doubles(m.RowLower)
	rowUp := a.doubles(m.RowUpper)
	// A fresh Clp_Simplex for every model: Clp keeps state from earlier
	// solves (factorisation and pivoting choices, perturbation) that made
	// the same model solve differently after another one. Same model, same
	// solution, whatever was solved before.
	fresh := C.Clp_newModel()
	if fresh == nil {
		return fail("Clp_newModel failed")
	}
	liveModels.Add(1)
	C.Clp_setLogLevel(fresh, 0)
	p.cleanup.Stop()
	deleteModel(p.model)
	p.model = fresh
	p.cleanup = runtime.AddCleanup(p, deleteModel, fresh)
	C.Clp_loadProblem(p.model, C.int(n), C.int(r), start, index, value, colLo, colUp, obj, rowLo, rowUp)
	dir := 1.0
	if m.Sense == lp.Maximize {
		dir = -1
	}
	C.Clp_setOptimizationDirection(p.model, C.double(dir))
	p.loaded = true
	p.rows, p.cols = r, n
	p.offset = m.ObjOffset
	p.colDirty, p.rowDirty, p.pendingErr = false, false, nil
	return nil
}

// Solve loads m and solves it from scratch (Clp_initialSolveWithOptions)
// with the algorithm and presolve setting of opt. A non-optimal outcome
// returns the partial Solution and a *solver.StatusError.
func (p *Problem) Solve(m *lp.Model, opt solver.Options) (*solver.Solution, error) {
	if err := p.Load(m); err != nil {
		return nil, err
	}
	return p.solveInitial(opt)
}

// SolveLoaded solves the loaded model from scratch, like Solve without the
// Load; bound changes made with SetColBounds and SetRowBounds are kept.
func (p *Problem) SolveLoaded(opt solver.Options) (*solver.Solution, error) {
	return p.solveInitial(opt)
}

func (p *Problem) solveInitial(opt solver.Options) (*solver.Solution, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(p)
	var method int
	switch opt.Algorithm {
	case solver.Dual:
		method = solveTypeDual
	case solver.Primal:
		method = solveTypePrimal
	case solver.Barrier:
		method = solveTypeBarrier
	default:
		return nil, fail("unknown algorithm %d", int(opt.Algorithm))
	}
	var presolve int
	switch opt.Presolve {
	case solver.PresolveAuto, solver.PresolveOn:
		presolve = presolveTypeOn
	case solver.PresolveOff:
		presolve = presolveTypeOff
	default:
		return nil, fail("unknown presolve setting %d", int(opt.Presolve))
	}
	if err := p.applyOptions(opt); err != nil {
		return nil, err
	}
	p.syncBounds()
	so := C.ClpSolve_new()
	defer C.ClpSolve_delete(so)
	C.ClpSolve_setSolveType(so, C.int(method), -1)
	C.ClpSolve_setPresolveType(so, C.int(presolve), -1)
	// Switch Clp's own SIGINT handler off: it would swallow Ctrl-C and let
	// the solve go on; cancellation comes through opt.Context instead.
	C.ClpSolve_setSpecialOption(so, 2, 1, -1)
	C.Clp_setNumberIterations(p.model, 0)
	p.setTimeLimit(opt)
	if err := ctxErr(opt); err != nil {
		return nil, err
	}
	stop := p.watch(opt)
	C.Clp_initialSolveWithOptions(p.model, so)
	if stop() {
		return nil, &solver.StatusError{Solver: name, Status: solver.Failed, Detail: "solve stopped", Cause: opt.Context.Err()}
	}
	iters := int(C.Clp_numberIterations(p.model))
	alg := opt.Algorithm.String()
	if opt.Algorithm == solver.Barrier {
		alg = "barrier+crossover"
		if C.Clp_status(p.model) == 0 {
			// Clp 1.17's barrier with crossover can call an unbounded LP
			// optimal (with x around 1e19). A primal simplex pass from
			// the crossover basis confirms a true optimum in 0
			// iterations, and otherwise finds out what is wrong.
			C.Clp_primal(p.model, 0)
			iters += int(C.Clp_numberIterations(p.model))
		}
	}
	return p.result(alg, opt, iters)
}

// SetColBounds sets the bounds of column j of the loaded model to [lo, up]
// (±Inf for none). It panics if j is out of range. A NaN bound is reported
// by the next Resolve (or SolveLoaded). After Close it does nothing.
func (p *Problem) SetColBounds(j int, lo, up float64) {
	if p.model == nil {
		return
	}
	defer runtime.KeepAlive(p)
	if !p.boundsOK("SetColBounds", "column", j, p.cols, lo, up) {
		return
	}
	// Write Clp's own bound arrays; syncBounds tells Clp about it.
	unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_columnLower(p.model))), p.cols)[j] = toClp(lo)
	unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_columnUpper(p.model))), p.cols)[j] = toClp(up)
	p.colDirty = true
}

// SetRowBounds sets the bounds of row i of the loaded model to [lo, up]
// (±Inf for none). It panics if i is out of range. A NaN bound is reported
// by the next Resolve (or SolveLoaded). After Close it does nothing.
func (p *Problem) SetRowBounds(i int, lo, up float64) {
	if p.model == nil {
		return
	}
	defer runtime.KeepAlive(p)
	if !p.boundsOK("SetRowBounds", "row", i, p.rows, lo, up) {
		return
	}
	unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_rowLower(p.model))), p.rows)[i] = toClp(lo)
	unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_rowUpper(p.model))), p.rows)[i] = toClp(up)
	p.rowDirty = true
}

// boundsOK checks a bound change of SetColBounds or SetRowBounds (call)
// on index k of n columns or rows (what): it panics out of range and, for
// a NaN bound, records the error the next solve reports and returns false.
func (p *Problem) boundsOK(call, what string, k, n int, lo, up float64) bool {
	if !p.loaded || k < 0 || k >= n {
		panic(fmt.Sprintf("clp: %s: %s %d out of range [0,%d)", call, what, k, n))
	}
	if math.IsNaN(lo) || math.IsNaN(up) {
		if p.pendingErr == nil {
			p.pendingErr = fail("%s %d given bounds [%g, %g]", what, k, lo, up)
		}
		return false
	}
	return true
}

// syncBounds hands bound arrays written in place back to Clp through
// Clp_chg*, which resets Clp's record of what changed so that the next
// solve rebuilds its working copies (scaled bounds) from them. The basis
// is kept.
func (p *Problem) syncBounds() {
	if p.colDirty {
		C.Clp_chgColumnLower(p.model, C.Clp_columnLower(p.model))
		C.Clp_chgColumnUpper(p.model, C.Clp_columnUpper(p.model))
		p.colDirty = false
	}
	if p.rowDirty {
		C.Clp_chgRowLower(p.model, C.Clp_rowLower(p.model))
		C.Clp_chgRowUpper(p.model, C.Clp_rowUpper(p.model))
		p.rowDirty = false
	}
}

// Resolve re-solves the loaded model from the current basis (warm start)
// after bound changes: Clp_dual, or Clp_primal when opt.Algorithm is
// Primal. Barrier cannot be warm-started, so it means dual here; presolve
// is not applied. Without a previous solve it starts from the slack basis.
func (p *Problem) Resolve(opt solver.Options) (*solver.Solution, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(p)
	if opt.Algorithm < solver.Dual || opt.Algorithm > solver.Barrier {
		return nil, fail("unknown algorithm %d", int(opt.Algorithm))
	}
	if err := p.applyOptions(opt); err != nil {
		return nil, err
	}
	p.syncBounds()
	C.Clp_setNumberIterations(p.model, 0)
	p.setTimeLimit(opt)
	alg := "dual warm-start"
	if opt.Algorithm == solver.Primal {
		alg = "primal warm-start"
		C.Clp_primal(p.model, 0)
	} else {
		C.Clp_dual(p.model, 0)
	}
	return p.result(alg, opt, int(C.Clp_numberIterations(p.model)))
}

// Basis returns the statuses of the loaded model's columns and rows
// after a solve (Clp_statusArray), and false before any.
func (p *Problem) Basis() (solver.Basis, bool) {
	if p.model == nil || !p.loaded || C.Clp_statusExists(p.model) == 0 {
		return solver.Basis{}, false
	}
	defer runtime.KeepAlive(p)
	st := unsafe.Slice((*byte)(unsafe.Pointer(C.Clp_statusArray(p.model))), p.cols+p.rows)
	b := solver.Basis{Cols: make([]solver.BasisStatus, p.cols), Rows: make([]solver.BasisStatus, p.rows)}
	for j := range b.Cols {
		b.Cols[j] = solver.BasisStatus(st[j] & 7)
	}
	for i := range b.Rows {
		b.Rows[i] = solver.BasisStatus(st[p.cols+i] & 7)
	}
	return b, true
}

// SetBasis makes b the starting basis of the next Resolve
// (Clp_copyinStatus). Clp's factorisation repairs a basis with too many or
// too few basic entries (slacks replace what is missing or singular).
func (p *Problem) SetBasis(b solver.Basis) error {
	if p.model == nil {
		return errClosed()
	}
	if !p.loaded {
		return fail("no model loaded")
	}
	if len(b.Cols) != p.cols || len(b.Rows) != p.rows {
		return fail("basis of %d columns and %d rows for a model of %d and %d", len(b.Cols), len(b.Rows), p.cols, p.rows)
	}
	defer runtime.KeepAlive(p)
	var a cArena
	defer a.free()
	buf := unsafe.Slice((*byte)(a.alloc(max(p.cols+p.rows, 1), 1)), max(p.cols+p.rows, 1))
	for j, s := range b.Cols {
		if s < solver.Free || s > solver.Fixed {
			return fail("column %d: basis status %d out of range", j, s)
		}
		buf[j] = byte(s)
	}
	for i, s := range b.Rows {
		if s < solver.Free || s > solver.Fixed {
			return fail("row %d: basis status %d out of range", i, s)
		}
		buf[p.cols+i] = byte(s)
	}
	C.Clp_copyinStatus(p.model, (*C.uchar)(unsafe.Pointer(&buf[0])))
	return nil
}

// ready checks that a model is loaded and no bad bound is pending.
func (p *Problem) ready() error {
	if p.model == nil {
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

// applyOptions sets everything in opt except the time limit, restoring
// Clp's defaults for settings opt leaves unset.
func (p *Problem) applyOptions(opt solver.Options) error {
	scaling := p.defScaling
	if opt.Scaling > 0 || (opt.ScalingSet && opt.Scaling == 0) {
		if opt.Scaling > 4 {
			return fail("scaling mode %d out of range 0..4", opt.Scaling)
		}
		scaling = opt.Scaling
	}
	m := p.model
	C.Clp_setLogLevel(m, C.int(max(opt.LogLevel, 0)))
	C.Clp_scaling(m, C.int(scaling))
	ptol, dtol := p.defPrimalTol, p.defDualTol
	if opt.PrimalTolerance > 0 {
		ptol = opt.PrimalTolerance
	}
	if opt.DualTolerance > 0 {
		dtol = opt.DualTolerance
	}
	C.Clp_setPrimalTolerance(m, C.double(ptol))
	C.Clp_setDualTolerance(m, C.double(dtol))
	iters := maxInt32
	if opt.MaxIterations > 0 && opt.MaxIterations < maxInt32 {
		iters = opt.MaxIterations
	}
	C.Clp_setMaximumIterations(m, C.int(iters))
	return nil
}

// setTimeLimit sets Clp's time limit right before a solve: Clp counts it
// from the call (against process CPU time). A negative value switches the
// limit off.
func (p *Problem) setTimeLimit(opt solver.Options) {
	secs := -1.0
	if opt.MaxSeconds > 0 {
		secs = opt.MaxSeconds
	}
	C.Clp_setMaximumSeconds(p.model, C.double(secs))
}

// result reads the solution and status out of Clp after a solve that took
// iters iterations.
func (p *Problem) result(alg string, opt solver.Options, iters int) (*solver.Solution, error) {
	m := p.model
	o := outcome{
		status:     int(C.Clp_status(m)),
		secondary:  int(C.Clp_secondaryStatus(m)),
		iterations: iters,
		maxIter:    opt.MaxIterations,
		maxSeconds: opt.MaxSeconds,
	}
	st, detail := classify(o)
	sol := &solver.Solution{
		Status:      st,
		Objective:   float64(C.Clp_objectiveValue(m)) + p.offset,
		X:           copyOut(C.Clp_getColSolution(m), p.cols),
		RowActivity: copyOut(C.Clp_getRowActivity(m), p.rows),
		Duals:       copyOut(C.Clp_getRowPrice(m), p.rows),
		// Clp's reduced costs are d = c − Aᵀy with c the model's own
		// objective, for either sense (see the package doc).
		ReducedCosts: copyOut(C.Clp_getReducedCost(m), p.cols),
		Iterations:   o.iterations,
		Algorithm:    alg,
	}
	if st != solver.Optimal {
		return sol, &solver.StatusError{Solver: name, Status: st, Detail: detail}
	}
	return sol, nil
}

// copyOut copies n doubles from Clp into a new Go slice, mapping
// ±COIN_DBL_MAX to ±Inf. A NULL array gives nil.
func copyOut(src *C.double, n int) []float64 {
	if src == nil {
		return nil
	}
	out := make([]float64, n)
	for i, v := range unsafe.Slice((*float64)(unsafe.Pointer(src)), n) {
		out[i] = fromClp(v)
	}
	return out
}

// flushCStdio flushes the C library's stdio buffers.
func flushCStdio() { C.clpFlushStdio() }

// Accessors of Clp settings, for tests.
func (p *Problem) primalTolerance() float64 { return float64(C.Clp_primalTolerance(p.model)) }
func (p *Problem) dualTolerance() float64   { return float64(C.Clp_dualTolerance(p.model)) }
func (p *Problem) scalingFlag() int         { return int(C.Clp_scalingFlag(p.model)) }
func (p *Problem) logLevel() int            { return int(C.Clp_logLevel(p.model)) }

func ctxErr(opt solver.Options) error {
	if opt.Context == nil || opt.Context.Err() == nil {
		return nil
	}
	return &solver.StatusError{Solver: name, Status: solver.Failed, Detail: "solve not started", Cause: opt.Context.Err()}
}

// watch stops the running solve when opt.Context is cancelled, the way
// Clp's own signal handler does: by setting the iteration limit to 0,
// which the simplex and barrier loops test at every iteration. The
// returned function ends the watch and reports whether it fired. It
// registers a callback on the context (context.AfterFunc) rather than
// starting a goroutine: a goroutine per solve woke an OS thread two or
// three times per LP (Fig. 10's sweep of tiny LPs on one worker: 8% less
// CPU time without it).
func (p *Problem) watch(opt solver.Options) func() bool {
	if opt.Context == nil || opt.Context.Done() == nil {
		return func() bool { return false }
	}
	model := p.model
	fired := make(chan struct{})
	stop := context.AfterFunc(opt.Context, func() {
		C.Clp_setMaximumIterations(model, 0)
		close(fired)
	})
	return func() bool {
		if stop() {
			return false // the callback never ran
		}
		<-fired // it ran or is running: let it finish before the model goes
		return true
	}
}
