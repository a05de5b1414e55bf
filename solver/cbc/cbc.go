//go:build cgo && !nocbc

package cbc

/*
#cgo pkg-config: cbc
#include <stdlib.h>
#include "Cbc_C_Interface.h"
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"github.com/dlsched/dlsched/lp"
)

// coinInf is COIN_DBL_MAX, Cbc's infinity.
const coinInf = math.MaxFloat64

// Available reports whether Cbc is compiled in (true in this build).
func Available() bool { return true }

// Version returns the version of the linked Cbc library, e.g. "2.10.8".
func Version() string { return C.GoString(C.Cbc_getVersion()) }

func toCoin(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return coinInf
	case math.IsInf(v, -1):
		return -coinInf
	}
	return v
}

// Solve solves m with the columns listed in integer restricted to integer
// values. The search is silent and single-threaded (deterministic). Cbc's
// C interface offers no way to stop a running search from outside (a time
// limit changed during the search is not read again), so ctx is honoured
// at the start and through its deadline, which becomes the search's time
// limit (with Options.Seconds, whichever is sooner); a search that stops
// after ctx is done returns ctx's error with the partial Result. Callers
// keep each search small (the exact pattern search has a size limit) and
// check ctx between searches.
func Solve(ctx context.Context, m *lp.Model, integer []int, opt Options) (*Result, error) {
	if err := check(m, integer, opt); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	model := C.Cbc_newModel()
	if model == nil {
		return nil, fmt.Errorf("cbc: Cbc_newModel failed")
	}
	defer C.Cbc_deleteModel(model)
	free := load(model, m, integer)
	defer free()
	configure(model, ctx, opt)
	C.Cbc_solve(model)
	runtime.KeepAlive(m)
	res := result(model, m)
	if err := ctx.Err(); err != nil && res.Status != Optimal {
		return res, err
	}
	return res, nil
}

// check refuses a model Solve cannot pass to Cbc: invalid, an integer
// column out of range, sizes beyond C's int, negative or NaN limits.
func check(m *lp.Model, integer []int, opt Options) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("cbc: invalid model: %w", err)
	}
	n, r := m.NumVars(), m.NumRows()
	for _, j := range integer {
		if j < 0 || j >= n {
			return fmt.Errorf("cbc: integer column %d out of range [0,%d)", j, n)
		}
	}
	if n > math.MaxInt32 || r > math.MaxInt32 || len(m.RowValue) > math.MaxInt32 {
		return fmt.Errorf("cbc: model too large: %d columns, %d rows", n, r)
	}
	if opt.Seconds < 0 || opt.MaxNodes < 0 || opt.Gap < 0 || math.IsNaN(opt.Seconds+opt.Gap) {
		return fmt.Errorf("cbc: negative or NaN limit in %+v", opt)
	}
	return nil
}

// load copies m into Cbc's model, its sense and its integer columns, and
// returns the function that frees the C arrays (kept until the search
// ends).
func load(model unsafe.Pointer, m *lp.Model, integer []int) func() {
	csc := m.CSC()
	start, index, value := cBig(csc.Start), cInts(csc.Index), cDoubles(csc.Value)
	colLo, colUp, obj := cDoubles(m.ColLower), cDoubles(m.ColUpper), cDoubles(m.Obj)
	rowLo, rowUp := cDoubles(m.RowLower), cDoubles(m.RowUpper)
	C.Cbc_loadProblem(model, C.int(m.NumVars()), C.int(m.NumRows()), start, index, value,
		colLo, colUp, obj, rowLo, rowUp)
	sense := 1.0
	if m.Sense == lp.Maximize {
		sense = -1
	}
	C.Cbc_setObjSense(model, C.double(sense))
	for _, j := range integer {
		C.Cbc_setInteger(model, C.int(j))
	}
	return func() {
		for _, p := range []unsafe.Pointer{unsafe.Pointer(start), unsafe.Pointer(index), unsafe.Pointer(value),
			unsafe.Pointer(colLo), unsafe.Pointer(colUp), unsafe.Pointer(obj), unsafe.Pointer(rowLo), unsafe.Pointer(rowUp)} {
			C.free(p)
		}
	}
}

// configure sets the search's parameters: silent, single-threaded, the
// gap, the tolerances, and the node and time limits (ctx's deadline when
// sooner than opt.Seconds).
func configure(model unsafe.Pointer, ctx context.Context, opt Options) {
	gap := opt.Gap
	if gap == 0 {
		gap = DefaultGap
	}
	setParam(model, "log", "0")
	setParam(model, "slog", "0")
	setParam(model, "threads", "0")
	setParam(model, "ratioGap", strconv.FormatFloat(gap, 'g', -1, 64))
	setParam(model, "allowableGap", "0")
	// An integer column within this of an integer counts as integral; Cbc's
	// default (1e-6) lets a binary of 1e-6 switch on a big-M bound by that
	// share, enough to move an optimum by a millionth.
	setParam(model, "integerTolerance", "1e-9")
	// A node is pruned when its bound is within the cutoff increment of
	// the incumbent; Cbc's default (1e-5, absolute) made it call a pattern
	// MILP optimal 2e-6 (relative) above its true optimum. The relative
	// gap above is the stopping rule.
	setParam(model, "increment", "1e-12")
	if opt.MaxNodes > 0 {
		C.Cbc_setMaximumNodes(model, C.int(opt.MaxNodes))
	}
	secs := opt.Seconds
	if dl, ok := ctx.Deadline(); ok {
		left := math.Max(time.Until(dl).Seconds(), 1e-3)
		if secs == 0 || left < secs {
			secs = left
		}
	}
	if secs > 0 {
		C.Cbc_setMaximumSeconds(model, C.double(secs))
	}
	C.Cbc_setLogLevel(model, 0)
}

// result reads the search's outcome: status, nodes, bound and the best
// solution found.
func result(model unsafe.Pointer, m *lp.Model) *Result {
	res := &Result{Nodes: int(C.Cbc_getNodeCount(model))}
	res.Bound = float64(C.Cbc_getBestPossibleObjValue(model)) + m.ObjOffset
	switch {
	case C.Cbc_isProvenOptimal(model) != 0:
		res.Status = Optimal
	case C.Cbc_isProvenInfeasible(model) != 0:
		res.Status = Infeasible
	case C.Cbc_isContinuousUnbounded(model) != 0:
		res.Status = Unbounded
	case C.Cbc_isAbandoned(model) != 0:
		res.Status = Failed
	default:
		res.Status = Stopped
	}
	if p := C.Cbc_getColSolution(model); p != nil && res.Status != Infeasible && res.Status != Unbounded {
		x := unsafe.Slice((*float64)(unsafe.Pointer(p)), m.NumVars())
		res.X = append([]float64(nil), x...)
		res.Objective = m.ObjectiveValue(res.X)
		res.HasSolution = res.Status == Optimal || C.Cbc_numberSavedSolutions(model) > 0
	}
	if res.Status == Optimal && math.Abs(res.Bound) > 1e300 {
		res.Bound = res.Objective
	}
	return res
}

func setParam(model unsafe.Pointer, name, value string) {
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	C.Cbc_setParameter(model, cn, cv)
}

func cDoubles(src []float64) *C.double {
	p := (*C.double)(C.malloc(C.size_t(max(len(src), 1)) * C.size_t(unsafe.Sizeof(C.double(0)))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.double(toCoin(v))
	}
	return p
}

func cInts(src []int) *C.int {
	p := (*C.int)(C.malloc(C.size_t(max(len(src), 1)) * C.size_t(unsafe.Sizeof(C.int(0)))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.int(v)
	}
	return p
}

func cBig(src []int) *C.CoinBigIndex {
	p := (*C.CoinBigIndex)(C.malloc(C.size_t(max(len(src), 1)) * C.size_t(unsafe.Sizeof(C.CoinBigIndex(0)))))
	dst := unsafe.Slice(p, max(len(src), 1))
	for i, v := range src {
		dst[i] = C.CoinBigIndex(v)
	}
	return p
}
