package main

import "testing"

// Issue 27 item 2: optimize --over n with a raised guard ran for hours
// (the star below needs n >= 9,912 before its stopping rule can fire); it
// is refused at once, naming the flags that would help, and a limit that
// is not a positive number is bad usage.
func TestProbeOptimizeLPSeconds(t *testing.T) {
	star := []string{"optimize", "--over", "n", "--m", "10", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--D", "1e4", "--V", "1e6"}
	refused(t, "dlsched: the search over n = 10..9911 may need about 7.31e+06 s of LP solving, more than --max-lp-seconds 3600: raise it, or lower --n-max, or use larger buffers (--D)",
		append(star, "--n-max", "1000000000")...)
	refused(t, "more than --max-lp-seconds 1: raise it", append(star, "--max-lp-seconds", "1")...)
	refused(t, "invalid --max-lp-seconds 0: want a number of seconds > 0 (at most 1e7)", append(star, "--max-lp-seconds", "0")...)
	refused(t, "invalid --max-lp-seconds with --over D: it applies to --over n and n,D",
		"optimize", "--over", "D", "--m", "2", "--S", "1e-3", "--C", "1e-6", "--A", "1e-3", "--V", "1e3", "--D-min", "10", "--D-max", "100", "--max-lp-seconds", "5")
}
