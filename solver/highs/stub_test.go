//go:build !cgo || !highs || !(linux || darwin) || !(amd64 || arm64)

package highs

import (
	"errors"
	"testing"

	"github.com/dlsched/dlsched/lp"
	"github.com/dlsched/dlsched/solver"
)

func TestStubUnavailable(t *testing.T) {
	if Available() || Version() != "" {
		t.Fatal("the stub reports HiGHS available")
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
