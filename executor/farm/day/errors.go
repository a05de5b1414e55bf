package day

import "github.com/dlsched/dlsched/platform"

// pkg names the package in its errors: bad input is a *platform.FieldError
// and a run beyond a limit a *platform.LimitError, both with Pkg "day" and
// the inputs named in the package's words ("Config.Workers",
// "Study.JobTimes", "Limits.MaxEvents").
const pkg = "day"

// bad returns a *platform.FieldError of this package.
func bad(field string, value any, want string) error {
	return platform.Bad(pkg, field, value, want)
}
