// Package validate compiles dlsched's JSON Schemas (package schema) with
// github.com/santhosh-tekuri/jsonschema/v6 and validates documents against
// the schema their "format" names. The tests of every package that writes
// JSON use it; the dlsched binary does not.
package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dlsched/dlsched/schema"
)

// base is the URL under which the schemas refer to each other.
const base = "https://dlsched.github.io/schema/"

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	loadErr  error
)

func load() {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	names, err := fs.Glob(schema.Files, "*.schema.json")
	if err != nil {
		loadErr = err
		return
	}
	for _, n := range names {
		b, _ := schema.Files.ReadFile(n)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			loadErr = fmt.Errorf("validate: %s: %w", n, err)
			return
		}
		if err := c.AddResource(base+n, doc); err != nil {
			loadErr = fmt.Errorf("validate: %s: %w", n, err)
			return
		}
	}
	compiled = map[string]*jsonschema.Schema{}
	for _, n := range names {
		s, err := c.Compile(base + n)
		if err != nil {
			loadErr = fmt.Errorf("validate: %s: %w", n, err)
			return
		}
		compiled[n] = s
	}
}

// Schemas returns the names of the compiled schemas, or the error that
// stopped their compilation.
func Schemas() ([]string, error) {
	once.Do(load)
	var out []string
	for n := range compiled {
		out = append(out, n)
	}
	return out, loadErr
}

// Document validates one JSON document against the schema of the format
// it declares (its "format" field), which must be want when want is not
// empty.
func Document(doc []byte, want string) error {
	once.Do(load)
	if loadErr != nil {
		return loadErr
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if head.Format == "" {
		return fmt.Errorf("validate: the document declares no format")
	}
	if want != "" && head.Format != want {
		return fmt.Errorf("validate: format %q, want %q", head.Format, want)
	}
	name, err := schema.Name(head.Format)
	if err != nil {
		return err
	}
	s, ok := compiled[name]
	if !ok {
		return fmt.Errorf("validate: no schema %s for format %q", name, head.Format)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if err := s.Validate(v); err != nil {
		return fmt.Errorf("validate: %s: %v", head.Format, err)
	}
	return nil
}

// Lines validates every line of a JSON Lines document (a sweep's rows).
func Lines(doc []byte, want string) error {
	for i, line := range bytes.Split(bytes.TrimRight(doc, "\n"), []byte("\n")) {
		if err := Document(line, want); err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	return nil
}
