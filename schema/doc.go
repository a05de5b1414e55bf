// Package schema holds the contract of every JSON document dlsched writes:
// each carries "format": "dlsched.<kind>/<major>", and a JSON Schema (draft
// 2020-12) per kind, embedded here (Files), describes every field with its
// unit and meaning. docs/formats.md says what may change within a major
// version (new fields) and what may not.
//
// This package has no dependencies: readers (verify, plot, a resumed
// sweep, merge) use Check to refuse a document of another kind or an
// unknown major version with a *FormatError, and read a document without
// a format as the current version. Package
// schema/validate compiles the schemas and validates documents (tests).
package schema
