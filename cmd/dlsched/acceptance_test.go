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
