package problem

import "github.com/dlsched/dlsched/schedule"

// Proc holds the S, C and A of one processor of a heterogeneous star
// (package schedule's type).
type Proc = schedule.Proc
