package leakcheck

import (
	"testing"
	"time"
)

func TestCheckPassesWhenGoroutinesEnd(t *testing.T) {
	Check(t, func() {
		done := make(chan struct{})
		go func() { time.Sleep(10 * time.Millisecond); close(done) }()
		<-done
	})
}

func TestCheckFailsOnLeak(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	ft := &fakeT{TB: t}
	func() {
		defer func() { recover() }()
		// Three leaked goroutines: an unrelated goroutine ending meanwhile
		// cannot hide them.
		Check(ft, func() {
			for i := 0; i < 3; i++ {
				go func() { <-stop }()
			}
		})
	}()
	if !ft.failed {
		t.Fatal("a goroutine blocked forever was not reported")
	}
}

type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
