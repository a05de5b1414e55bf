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
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("cbc: invalid model: %w", err)
	}
	n, r := m.NumVars(), m.NumRows()
	for _, j := range integer {
		if j < 0 || j >= n {
			return nil, fmt.Errorf("cbc: integer column %d out of range [0,%d)", j, n)
		}
	}
	if n > math.MaxInt32 || r > math.MaxInt32 || len(m.RowValue) > math.MaxInt32 {
		return nil, fmt.Errorf("cbc: model too large: %d columns, %d rows", n, r)
	}
	if opt.Seconds < 0 || opt.MaxNodes < 0 || opt.Gap < 0 || math.IsNaN(opt.Seconds+opt.Gap) {
		return nil, fmt.Errorf("cbc: negative or NaN limit in %+v", opt)
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

	csc := m.CSC()
	start := cBig(csc.Start)
	defer C.free(unsafe.Pointer(start))
	index := cInts(csc.Index)
	defer C.free(unsafe.Pointer(index))
	value := cDoubles(csc.Value)
	defer C.free(unsafe.Pointer(value))
	colLo, colUp, obj := cDoubles(m.ColLower), cDoubles(m.ColUpper), cDoubles(m.Obj)
	defer C.free(unsafe.Pointer(colLo))
	defer C.free(unsafe.Pointer(colUp))
	defer C.free(unsafe.Pointer(obj))
	rowLo, rowUp := cDoubles(m.RowLower), cDoubles(m.RowUpper)
	defer C.free(unsafe.Pointer(rowLo))
	defer C.free(unsafe.Pointer(rowUp))
	C.Cbc_loadProblem(model, C.int(n), C.int(r), start, index, value,
		colLo, colUp, obj, rowLo, rowUp)
	sense := 1.0
	if m.Sense == lp.Maximize {
		sense = -1
	}
	C.Cbc_setObjSense(model, C.double(sense))
	for _, j := range integer {
		C.Cbc_setInteger(model, C.int(j))
	}
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

	C.Cbc_solve(model)
	runtime.KeepAlive(m)

	res := &Result{Nodes: int(C.Cbc_getNodeCount(model))}
	off := m.ObjOffset
	res.Bound = float64(C.Cbc_getBestPossibleObjValue(model)) + off
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
		x := unsafe.Slice((*float64)(unsafe.Pointer(p)), n)
		res.X = append([]float64(nil), x...)
		res.Objective = m.ObjectiveValue(res.X)
		res.HasSolution = res.Status == Optimal || C.Cbc_numberSavedSolutions(model) > 0
	}
	if res.Status == Optimal && math.Abs(res.Bound) > 1e300 {
		res.Bound = res.Objective
	}
	if err := ctx.Err(); err != nil && res.Status != Optimal {
		return res, err
	}
	return res, nil
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
