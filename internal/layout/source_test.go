package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the module's directory, from internal/layout.
const root = "../.."

// goFiles parses the non-test Go files under dir (relative to root),
// skipping testdata and hidden directories.
func goFiles(t *testing.T, dir string) map[string]*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != filepath.Join(root, dir) && (n == "testdata" || strings.HasPrefix(n, ".")) {
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
		out[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// flagSyntax is a command-line flag in a string: --name, --%s, --{field}.
var flagSyntax = regexp.MustCompile(`--[A-Za-z%{]`)

// TestNoFlagSyntaxInLibraryErrors: no error string outside cmd/ names a
// command-line flag (issue 11). Library errors name fields in the
// library's words (problem.FieldError, table.QueryError, ...) and only the
// command line renders them as flags. The strings checked are every string
// literal in a call of fmt.Errorf or errors.New, in a composite literal of
// a type whose name ends in Error, and in the body of a method named Error
// or Format.
func TestNoFlagSyntaxInLibraryErrors(t *testing.T) {
	files := goFiles(t, ".")
	checked := 0
	for path, f := range files {
		if strings.HasPrefix(path, "cmd/") {
			continue
		}
		check := func(n ast.Node, where string) {
			ast.Inspect(n, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				checked++
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					s = lit.Value
				}
				if flagSyntax.MatchString(s) {
					t.Errorf("%s: %s has flag syntax: %s", path, where, lit.Value)
				}
				return true
			})
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Recv != nil && (x.Name.Name == "Error" || x.Name.Name == "Format") && x.Body != nil {
					check(x.Body, "method "+x.Name.Name)
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && ((id.Name == "fmt" && sel.Sel.Name == "Errorf") || (id.Name == "errors" && sel.Sel.Name == "New")) {
						check(x, id.Name+"."+sel.Sel.Name)
					}
				}
			case *ast.CompositeLit:
				if name := typeName(x.Type); strings.HasSuffix(name, "Error") {
					check(x, name+" literal")
				}
			}
			return true
		})
	}
	if checked < 100 {
		t.Fatalf("only %d error strings checked: the scan is broken", checked)
	}
}

// typeName is the name of a composite literal's type (pkg.T → T).
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// TestThinCLI: the command is thin (issue 11): it talks to problem, solve,
// optimize, sweep, table, executor/replay, plotting, schedule and the
// farm, dataflow and compare packages, and imports none of lp,
// formulations, solver (or its backends), topology or the executor kernel
// directly; no function in it is longer than 60 lines.
func TestThinCLI(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, "cmd", "dlsched", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command sources: %v", err)
	}
	banned := []string{"lp", "formulations", "solver", "topology"}
	funcs := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			rel, ours := strings.CutPrefix(p, mod+"/")
			if !ours {
				continue
			}
			if rel == "executor" {
				t.Errorf("%s imports the executor kernel", name)
			}
			for _, b := range banned {
				if rel == b || strings.HasPrefix(rel, b+"/") {
					t.Errorf("%s imports %s", name, rel)
				}
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			funcs++
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 60 {
				t.Errorf("%s: %s is %d lines, more than 60", name, fd.Name.Name, n)
			}
		}
	}
	if funcs < 50 {
		t.Fatalf("only %d functions found: the scan is broken", funcs)
	}
}
