// Package cbc solves mixed-integer linear programs with COIN-OR Cbc
// through its C interface (Cbc_C_Interface.h), the branch-and-cut
// companion of the Clp binding in solver/clp. It serves the exact search
// over message patterns (one binary per message: a message exists or not,
// and its startup is paid only if it exists), where the LP alone cannot
// decide which messages to keep.
//
// The model is an lp.Model plus the list of integer columns. Cbc's own
// SIGINT handler is switched off, so Ctrl-C reaches the program; a
// cancelled context stops the search at Cbc's next check (see Solve).
//
// The package needs cgo and Cbc's development files (Debian:
// coinor-libcbc-dev, pkg-config cbc). Built with the tag nocbc, or
// without cgo, Available reports false and Solve returns ErrUnavailable.
package cbc
