//go:build !cgo || noclp

package clp

import (
	"errors"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

func TestStubUnavailable(t *testing.T) {
	if Available() {
		t.Fatal("Available() = true in a build without Clp")
	}
	p, err := New()
	if p != nil || !errors.Is(err, solver.ErrUnavailable) {
		t.Fatalf("New() = %v, %v; want nil and ErrUnavailable", p, err)
	}
	var q Problem
	if _, err := q.Solve(lp.New("x", lp.Minimize), solver.Options{}); !errors.Is(err, solver.ErrUnavailable) {
		t.Fatalf("Solve: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
}
