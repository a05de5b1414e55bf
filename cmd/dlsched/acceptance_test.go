package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fontFamily matches a font-family of an SVG, as an attribute or in a
// style.
var fontFamily = regexp.MustCompile(`font-family(?:="([^"]*)"|:([^;"]*))`)

// Issue 27 item 6: an SVG that names only "Liberation Serif" is drawn with
// another font on a machine without it, and wider glyphs clip its legends
// and titles. dlsched's plots draw text as outlines; a picture in docs/
// that keeps <text> must end its font list with a generic family, after a
// metric-compatible one (Liberation Serif has Times New Roman's metrics).
func TestDocsSVGFonts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.svg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SVG in docs/: %v", err)
	}
	generic := map[string]bool{"serif": true, "sans-serif": true, "monospace": true}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fontFamily.FindAllStringSubmatch(string(b), -1) {
			list := strings.Split(m[1]+m[2], ",")
			last := strings.Trim(strings.TrimSpace(list[len(list)-1]), `'"`)
			if !generic[last] {
				t.Errorf("%s: font-family %q ends without a generic family (serif, sans-serif or monospace)", filepath.Base(f), m[1]+m[2])
				break
			}
		}
	}
}

// `dlsched help farm pfarm` is the help of farm pfarm, as `dlsched farm
// help pfarm` is; an unknown topic is an unknown command, exit 2 and one
// line (urfave/cli's help command answered "No help topic", exit 3, and
// showed farm's help for `help farm pfarm`).
func TestHelpTopics(t *testing.T) {
	for _, tc := range []struct {
		args []string
		name string
	}{
		{[]string{"help", "farm", "pfarm"}, "dlsched farm pfarm"},
		{[]string{"farm", "help", "nepp"}, "dlsched farm nepp"},
		{[]string{"h", "dataflow"}, "dlsched dataflow"},
		{[]string{"help", "solve"}, "dlsched solve"},
	} {
		out, errOut, code := dlsched(t, tc.args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "NAME:\n   "+tc.name+" - ") {
			t.Errorf("%v: exit %d, stderr %q, stdout starts %q; want the help of %s", tc.args, code, errOut, head(out), tc.name)
		}
	}
	refused(t, `unknown command "bogus"`, "help", "bogus")
	refused(t, `unknown farm command "bogus"`, "help", "farm", "bogus")
	refused(t, `unknown farm command "bogus"`, "farm", "help", "bogus")
}
