package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/sweep"
)

// TestSameFieldEveryEntryPoint is the acceptance test of issue 11's one
// parameter type and one validator: the same bad value given as a
// command-line flag (solve), in a sweep spec (TOML) and in a schedule's
// JSON (verify) is refused by package problem, and all three name the same
// field — the CLI as its flag (--S), the spec and the JSON in the library's
// words (a *problem.FieldError with that Field inside the error).
//
// The JSON has no NaN or infinite numbers for plain number fields (the
// decoder refuses 1e999 for V and names problem.V itself); NaN and -inf
// are therefore given to D, whose JSON form is a number or a string.
func TestSameFieldEveryEntryPoint(t *testing.T) {
	dir := t.TempDir()
	star := map[string]string{"topology": "star", "m": "3", "S": "0", "C": "1", "A": "1", "D": "1.5", "V": "3", "stages": "2"}
	tree := map[string]string{"topology": "tree", "p": "2", "h": "2", "buffers": "1", "S": "0", "C": "1", "A": "1", "D": "inf", "V": "3", "stages": "1"}
	for _, c := range []struct {
		name, field, value string
		base               map[string]string
	}{
		{"NaN", "D", "nan", star},
		{"Inf where not allowed", "V", "inf", star},
		{"Inf S", "S", "inf", star},
		{"negative", "A", "-1", star},
		{"zero", "C", "0", star},
		{"zero V", "V", "0", star},
		{"m=0", "m", "0", star},
		{"h=0", "h", "0", tree},
		{"D=-inf", "D", "-inf", star},
		{"stages=0", "stages", "0", star},
		{"unknown topology", "topology", "ring", star},
	} {
		t.Run(c.name, func(t *testing.T) {
			vals := map[string]string{}
			for k, v := range c.base {
				vals[k] = v
			}
			vals[c.field] = c.value
			// Command line.
			args := []string{"solve", "--no-verify"}
			for _, k := range sortedKeys(vals) {
				if k == "topology" && c.field == "topology" {
					continue // --topology ring first, below: flags of the star would be refused first
				}
				args = append(args, "--"+k, vals[k])
			}
			if c.field == "topology" {
				args = []string{"solve", "--topology", "ring"}
			}
			_, stderr, code := dlsched(t, args...)
			if code != 2 || !strings.Contains(stderr, "invalid --"+c.field+" ") {
				t.Errorf("CLI: exit %d, stderr %q; want exit 2 naming --%s", code, stderr, c.field)
			}
			// Sweep spec.
			_, err := sweep.Parse("spec.toml", specOf(vals))
			if !namesField(err, c.field) {
				t.Errorf("sweep spec: %v; want a FieldError on %s", err, c.field)
			}
			// Schedule JSON, read as verify reads it.
			path := filepath.Join(dir, c.name+".json")
			if err := os.WriteFile(path, []byte(jsonOf(vals)), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := schedule.ReadJSON(strings.NewReader(jsonOf(vals)))
			if err == nil {
				_, err = problem.FromSchedule(s)
			}
			jsonField := namesField(err, c.field) || (c.value == "inf" && strings.Contains(fmt.Sprint(err), "problem."+c.field+" of type float64"))
			if !jsonField {
				t.Errorf("schedule JSON: %v; want a FieldError on %s", err, c.field)
			}
			_, stderr, code = dlsched(t, "verify", path)
			if code != 2 || !(strings.Contains(stderr, "invalid "+c.field+" ") || strings.Contains(stderr, "problem."+c.field+" ")) {
				t.Errorf("verify: exit %d, stderr %q; want exit 2 naming %s", code, stderr, c.field)
			}
		})
	}
}

// namesField reports whether err holds a *problem.FieldError on field.
func namesField(err error, field string) bool {
	var fe *problem.FieldError
	return errors.As(err, &fe) && fe.Field == field
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// specOf writes the values as a one-point [problem] table.
func specOf(vals map[string]string) string {
	var b strings.Builder
	b.WriteString("[problem]\n")
	for _, k := range sortedKeys(vals) {
		v := vals[k]
		if k == "topology" {
			v = fmt.Sprintf("%q", v)
		}
		fmt.Fprintf(&b, "%s = [%s]\n", k, v)
	}
	return b.String()
}

// jsonOf writes the values as the problem of a schedule without chunks.
func jsonOf(vals map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(vals) {
		v := vals[k]
		switch {
		case k == "topology" || k == "D":
			v = fmt.Sprintf("%q", v)
		case v == "inf":
			v = "1e999"
		}
		parts = append(parts, fmt.Sprintf("%q:%s", k, v))
	}
	return `{"status":"optimal","problem":{` + strings.Join(parts, ",") + `},"chunks":[]}`
}
