// Package platform describes what every model of dlsched runs on: a master
// that holds the load and the workers it reaches over links, each worker a
// node with a compute cost per unit of load and a buffer, each link a
// startup and a cost per unit, the topology that connects them, the size
// of the results per unit of load, and the perturbations of the real
// machine (a worker slowed from a time on, a worker crashed at a time).
//
// The divisible-load problem (package problem) and the farm models
// (executor/farm/pfarm, nepp, day) are built from one Platform with their
// own extra parameters (task sizes, queues, a harness); compare passes the
// same Platform to every strategy. Units are the user's: S in seconds, C
// and A in seconds per load unit, D in load units (Inf: unlimited).
//
// The package also holds the input errors every model returns: FieldError
// (an input with an invalid value, named in the library's words) and
// LimitError (a run estimated to exceed a memory or work limit, refused
// before anything in proportion to it is allocated). A command line
// renders both with its own flag names (Format).
package platform
