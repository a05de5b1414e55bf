//go:build !cgo || !highs || !(linux || darwin) || !(amd64 || arm64)

// Command highs measures HiGHS against Clp and Cbc; this build has no
// HiGHS (see the doc comment of main.go, built with -tags highs).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "highs: built without HiGHS: build with -tags highs (and cgo, on linux or darwin, amd64 or arm64)")
	os.Exit(1)
}
