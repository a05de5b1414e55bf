package layout

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the house rule's longest function, from `func` to its
// closing brace.
const maxFuncLines = 80

// longAllowed lists the functions over maxFuncLines that may stay so, with
// their length. Issue 29 started it with six simulators and readers of the
// farm and dataflow models; all six were split into named steps, and the
// list is empty. It can only shrink: an entry whose function is gone or
// within the rule fails the test until it is removed, one that grew fails
// too, and an entry outside the rewritten places is refused.
var longAllowed = map[string]int{}

// rewritten are the places longAllowed may name (directories, or files of
// the command).
var rewritten = []string{"executor/farm/", "executor/dataflow/", "compare/",
	"cmd/dlsched/farm", "cmd/dlsched/dataflow", "cmd/dlsched/compare", "cmd/dlsched/verify", "cmd/dlsched/plot"}

// aliasAllowed lists the type aliases of non-test code that may stay: none
// (pfarm.Spec, the last, is gone).
var aliasAllowed = map[string]bool{}

// decl is one top-level declaration found in the sources.
type decl struct {
	where string // file:line
	key   string // file:name, the allow-lists' key
	lines int
}

// scan parses every non-test Go file of the module (no testdata, no hidden
// directories) and returns its functions over maxFuncLines and its type
// aliases, and how many functions it saw.
func scan(t *testing.T) (long, aliases []decl, funcs int) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, dc := range f.Decls {
			switch x := dc.(type) {
			case *ast.FuncDecl:
				funcs++
				start, end := fset.Position(x.Pos()), fset.Position(x.End())
				if n := end.Line - start.Line + 1; n > maxFuncLines {
					long = append(long, decl{fmt.Sprintf("%s:%d", rel, start.Line), rel + ":" + x.Name.Name, n})
				}
			case *ast.GenDecl:
				for _, sp := range x.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok && ts.Assign.IsValid() {
						aliases = append(aliases, decl{fmt.Sprintf("%s:%d", rel, fset.Position(ts.Pos()).Line), rel + ":" + ts.Name.Name, 0})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return long, aliases, funcs
}

// TestFunctionLength: no function of non-test code is longer than 80
// lines from `func` to its closing brace (the house rule), but those of
// longAllowed, each at most as long as listed. Each offender is reported
// with file:line and its length.
func TestFunctionLength(t *testing.T) {
	long, _, funcs := scan(t)
	if funcs < 1000 {
		t.Fatalf("only %d functions found: the scan is broken", funcs)
	}
	seen := map[string]bool{}
	for _, d := range long {
		max, ok := longAllowed[d.key]
		seen[d.key] = true
		switch {
		case !ok:
			t.Errorf("%s: %s is %d lines, more than %d: split it into named steps", d.where, d.key[strings.Index(d.key, ":")+1:], d.lines, maxFuncLines)
		case d.lines > max:
			t.Errorf("%s: %s grew to %d lines (allowed %d while it is rewritten; the rule is %d)", d.where, d.key, d.lines, max, maxFuncLines)
		}
	}
	keys := make([]string, 0, len(longAllowed))
	for k := range longAllowed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !seen[k] {
			t.Errorf("longAllowed lists %s, which is gone or within %d lines: remove it from the list", k, maxFuncLines)
		}
		inside := false
		for _, r := range rewritten {
			inside = inside || strings.HasPrefix(k, r)
		}
		if !inside {
			t.Errorf("longAllowed lists %s, outside the packages being rewritten: split it instead", k)
		}
	}
}

// TestNoTypeAliases: no type has two names (issue 29: nine aliases gave
// formulations.Problem and problem.Problem, and others, to one type). A
// `type X = pkg.Y` in non-test code is refused, but aliasAllowed's.
func TestNoTypeAliases(t *testing.T) {
	_, aliases, _ := scan(t)
	seen := map[string]bool{}
	for _, d := range aliases {
		seen[d.key] = true
		if !aliasAllowed[d.key] {
			t.Errorf("%s: type alias %s: give the type one name and use it", d.where, d.key[strings.Index(d.key, ":")+1:])
		}
	}
	for k := range aliasAllowed {
		if !seen[k] {
			t.Errorf("aliasAllowed lists %s, which is gone: remove it from the list", k)
		}
	}
}
