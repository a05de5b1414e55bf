package main

import (
	"context"
	"fmt"
	"time"

	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/dlsched/dlsched/internal/atomicfile"
)

// lastSignal records the signal that cancelled the run (0: none).
var lastSignal atomic.Int32

// signalContext returns a context cancelled by SIGINT or SIGTERM; the
// commands pass it to every long computation (solves, sweeps,
// simulations), which stop within a second.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			if s == syscall.SIGTERM {
				lastSignal.Store(143)
			} else {
				lastSignal.Store(130)
			}
			signal.Stop(ch) // a second signal kills at once
			cancel()
			// The computations stop within a second (Clp at its next
			// iteration, the simulations within 256 events); a phase that
			// cannot be interrupted (Clp's crash heuristics) must not hold
			// the user: exit after a grace period, leaving no partial file.
			select {
			case <-time.After(900 * time.Millisecond):
				atomicfile.RemovePending()
				clearBars()
				fmt.Fprintln(os.Stderr, "dlsched: interrupted")
				os.Exit(int(lastSignal.Load()))
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// signalName names the signal behind exit status code (caughtSignal).
func signalName(code int) string {
	if code == 143 {
		return "SIGTERM"
	}
	return "SIGINT"
}

// caughtSignal returns the exit status for the signal that cancelled ctx
// (130 for SIGINT, 143 for SIGTERM), or 0.
func caughtSignal(ctx context.Context) int {
	if ctx.Err() == nil {
		return 0
	}
	return int(lastSignal.Load())
}
