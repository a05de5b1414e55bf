//go:build !cgo || nocbc

package cbc

import (
	"context"

	"github.com/dlsched/dlsched/lp"
)

// Available reports whether Cbc is compiled in (false in this build).
func Available() bool { return false }

// Version returns "" in this build.
func Version() string { return "" }

// Solve returns ErrUnavailable in this build.
func Solve(ctx context.Context, m *lp.Model, integer []int, opt Options) (*Result, error) {
	return nil, ErrUnavailable
}
