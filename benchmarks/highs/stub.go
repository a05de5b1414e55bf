//go:build !cgo || nohighs || !(linux || darwin) || !(amd64 || arm64)

// Command highs measures HiGHS against Clp and Cbc; this build has no
// HiGHS (see the doc comment of main.go in a cgo build).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "highs: built without HiGHS (needs cgo, no nohighs tag, linux or darwin on amd64 or arm64)")
	os.Exit(1)
}
