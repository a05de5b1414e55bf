// Package race tells tests whether the race detector is on (Enabled), so
// that a test which only checks numbers of a long simulation can leave the
// race pass (make test's `go test -race -short`) to the plain pass, where
// it runs in full: under the detector such simulations run 10 to 20 times
// slower and find nothing the kernel's own tests do not.
package race
