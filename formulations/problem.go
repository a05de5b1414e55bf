package formulations

import "github.com/dlsched/dlsched/problem"

// Problem is the parameter type of every formulation: package problem's
// type, validated there (problem.New, Problem.Validate).
type Problem = problem.Problem

// FieldError is package problem's error naming an invalid parameter.
type FieldError = problem.FieldError
