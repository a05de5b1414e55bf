package main

import (
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// Limits on what a simulation or a model may cost, checked by the
// libraries against estimates made from the inputs before anything in
// proportion to them is allocated. The defaults keep a run within about
// two minutes and 2 GB on a small machine; the flags raise them.
const (
	// defaultMaxMemoryMB is the memory a model run may be estimated to need.
	defaultMaxMemoryMB = 1024
	// defaultMaxEvents is the number of simulation events (messages,
	// computations, scheduler steps) a run may be estimated to take.
	defaultMaxEvents = "5e7"
)

// limitFlags are the flags of every simulating command: the memory and
// work a run may be estimated to need, and --quiet for the progress bar.
func limitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "max-memory", Value: strconv.Itoa(defaultMaxMemoryMB), Usage: "refuse a run estimated to need more MB (checked before anything is built)"},
		&cli.StringFlag{Name: "max-events", Value: defaultMaxEvents, Usage: "refuse a run estimated to take more simulation events (about a million a second)"},
		quietFlag(),
	}
}

// quietFlag turns the progress bar off.
func quietFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Usage: "no progress bar on stderr"}
}

// limits reads --max-memory (MB, returned in bytes) and --max-events.
func limits(c *cli.Context) (maxBytes int64, maxEvents int64, err error) {
	mb, err := parseInteger("max-memory", c.String("max-memory"))
	if err != nil {
		return 0, 0, err
	}
	if mb < 16 || mb > 1<<20 {
		return 0, 0, usagef("invalid --max-memory %s: want a number of MB from 16 to %d", c.String("max-memory"), 1<<20)
	}
	ev, err := parseInteger("max-events", c.String("max-events"))
	if err != nil {
		return 0, 0, err
	}
	if ev < 1 {
		return 0, 0, usagef("invalid --max-events %s: want a positive integer", c.String("max-events"))
	}
	return int64(mb) << 20, int64(ev), nil
}

// progress returns a function that reports done of total units on a
// progress bar on stderr, or nil when --quiet is set, stderr is not a
// terminal or the run is expected to be short (total below small).
// The bar is cleared when it finishes.
func progress(c *cli.Context, total, small int, desc, unit string) func(done int) {
	if total < small || barsOff(c.Bool("quiet")) {
		return nil
	}
	bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(unit), progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))
	drawn.Lock()
	drawn.bars = append(drawn.bars, bar)
	drawn.Unlock()
	return func(done int) {
		drawn.Lock()
		defer drawn.Unlock()
		if !drawn.cleared {
			bar.Set(done)
		}
	}
}

// barsOff reports whether progress bars stay off: --quiet (quiet), or
// stderr is not a terminal.
func barsOff(quiet bool) bool {
	return quiet || !term.IsTerminal(int(os.Stderr.Fd()))
}

// drawn holds the progress bars progress has made; after clearBars
// (cleared) they are not drawn again. Its lock orders a bar's updates
// against clearBars, which the signal handler may call while the work
// still runs.
var drawn struct {
	sync.Mutex
	bars    []*progressbar.ProgressBar
	cleared bool
}

// clearBars erases the progress bars left unfinished (a run stopped by an
// error or a signal), so that the line printed next starts a line of its
// own instead of trailing the bar, and keeps them from being drawn again.
func clearBars() {
	drawn.Lock()
	defer drawn.Unlock()
	drawn.cleared = true
	for _, b := range drawn.bars {
		if !b.IsFinished() {
			_ = b.Clear()
		}
	}
}
