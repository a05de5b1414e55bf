//go:build cgo && !noclp

package clp

import (
	"math"
	"testing"
)

var inf = math.Inf(1)

// newProblem returns a Problem closed at the end of the test.
func newProblem(t testing.TB) *Problem {
	t.Helper()
	p, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
