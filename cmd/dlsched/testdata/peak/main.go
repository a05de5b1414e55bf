// Command peak runs a command and prints its peak resident memory in KB
// (ru_maxrss). The memory test measures dlsched through it: Linux starts a
// child's ru_maxrss at its parent's high-water mark when the parent
// vforks it (Go's os/exec does), so measured from the large test process
// a small run reads as the test process's peak; from this small program
// it reads as its own.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peak command [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "%v: %v\n%s", os.Args[1:], err, out)
		os.Exit(1)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "no rusage on this platform")
		os.Exit(3)
	}
	fmt.Println(ru.Maxrss)
}
