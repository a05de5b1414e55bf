// Package leakcheck lets tests assert that no goroutine outlives a piece of
// work: the simulation kernel promises that no process goroutine outlives
// Sim.Run, and every model built on it inherits that promise.
package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Check runs f and fails the test if goroutines started during f are still
// running two seconds after it returned.
func Check(t testing.TB, f func()) {
	t.Helper()
	before := runtime.NumGoroutine()
	f()
	deadline := time.Now().Add(2 * time.Second)
	for {
		after := runtime.NumGoroutine()
		if after <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			n := runtime.Stack(buf, true)
			t.Fatalf("goroutine leak: %d before, %d after\n%s", before, after, buf[:n])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
