// Package scheduletest holds schedules timed by hand — a one-stage star,
// ordinary tree and binomial tree, each with its arithmetic in the comment
// — that the tests of schedule, its readers and writers, and plotting's
// Gantt chart share. Only tests import it.
package scheduletest
