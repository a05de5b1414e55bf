package plotting

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strconv"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// outlined is an SVG canvas that draws text as the outlines of its glyphs
// instead of <text> elements naming a font family. The layout is measured
// with gonum/plot's embedded Liberation Serif; an SVG that only names the
// family is drawn with whatever font the viewer substitutes, and on a
// machine without Liberation Serif wider glyphs clipped legends and
// titles (issue 27). Outlines look the same everywhere. Each glyph is
// drawn in font units under a scale, so that every occurrence of a glyph
// has the same path, which shareGlyphs then defines once.
type outlined struct {
	*vgsvg.Canvas
	buf   sfnt.Buffer
	paths map[glyphKey]vg.Path
	// texts lists the strings drawn, in order and once each: the SVG
	// keeps them in a <desc> element, so that its text can still be
	// searched and read by a screen reader.
	texts []string
	seen  map[string]bool
}

type glyphKey struct {
	face *sfnt.Font
	idx  sfnt.GlyphIndex
}

func newOutlined(c *vgsvg.Canvas) *outlined {
	return &outlined{Canvas: c, paths: map[glyphKey]vg.Path{}, seen: map[string]bool{}}
}

// FillString implements vg.Canvas: the glyphs of str from pt on, advanced
// and kerned as font.Face.Width measures them.
func (c *outlined) FillString(f font.Face, pt vg.Point, str string) {
	if !c.seen[str] {
		c.seen[str] = true
		c.texts = append(c.texts, str)
	}
	fnt := f.Face
	upem := fnt.UnitsPerEm()
	ppem := fixed.Int26_6(upem) // sizes in font units, as Face.Width takes them
	scale := f.Font.Size.Points() / float64(upem)
	x := 0.0 // in font units
	var prev sfnt.GlyphIndex
	for i, r := range str {
		idx, err := fnt.GlyphIndex(&c.buf, r)
		if err != nil {
			panic(fmt.Errorf("plotting: glyph of %q: %w", r, err))
		}
		if i > 0 {
			if k, err := fnt.Kern(&c.buf, prev, idx, ppem, 0); err == nil {
				x += float64(k)
			}
		}
		if p := c.outline(fnt, idx); len(p) > 0 {
			c.Push()
			c.Translate(vg.Point{X: pt.X + vg.Length(x*scale), Y: pt.Y})
			c.Scale(scale, scale)
			c.Fill(p)
			c.Pop()
		}
		adv, err := fnt.GlyphAdvance(&c.buf, idx, ppem, 0)
		if err != nil {
			panic(fmt.Errorf("plotting: advance of %q: %w", r, err))
		}
		x += float64(adv)
		prev = idx
	}
}

// outline returns the path of a glyph in font units, y up.
func (c *outlined) outline(fnt *sfnt.Font, idx sfnt.GlyphIndex) vg.Path {
	key := glyphKey{fnt, idx}
	if p, ok := c.paths[key]; ok {
		return p
	}
	segs, err := fnt.LoadGlyph(&c.buf, idx, fixed.Int26_6(fnt.UnitsPerEm())<<6, nil)
	if err != nil {
		panic(fmt.Errorf("plotting: outline of glyph %d: %w", idx, err))
	}
	pt := func(a fixed.Point26_6) vg.Point {
		return vg.Point{X: vg.Length(float64(a.X) / 64), Y: vg.Length(-float64(a.Y) / 64)}
	}
	var p vg.Path
	for i, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if i > 0 {
				p.Close()
			}
			p.Move(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			p.Line(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			p.QuadTo(pt(s.Args[0]), pt(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			p.CubeTo(pt(s.Args[0]), pt(s.Args[1]), pt(s.Args[2]))
		}
	}
	if len(p) > 0 {
		p.Close()
	}
	c.paths[key] = p
	return p
}

// pathElem matches a path element as vgsvg writes it.
var pathElem = regexp.MustCompile(`<path d="([^"]*)" ([^>]*)/>`)

// shareGlyphs rewrites an SVG document so that a path drawn more than
// once (a glyph's outline) is defined once in <defs> and drawn by <use>,
// and adds the texts drawn as a <desc> element.
func shareGlyphs(doc []byte, texts []string) []byte {
	count := map[string]int{}
	for _, m := range pathElem.FindAllSubmatch(doc, -1) {
		count[string(m[1])]++
	}
	ids := map[string]string{}
	var defs bytes.Buffer
	for _, m := range pathElem.FindAllSubmatch(doc, -1) {
		d := string(m[1])
		if _, ok := ids[d]; ok || count[d] < 2 {
			continue
		}
		ids[d] = "g" + strconv.Itoa(len(ids))
		fmt.Fprintf(&defs, "\t<path id=%q d=%q/>\n", ids[d], d)
	}
	out := pathElem.ReplaceAllFunc(doc, func(el []byte) []byte {
		m := pathElem.FindSubmatch(el)
		if id, ok := ids[string(m[1])]; ok {
			return []byte(`<use xlink:href="#` + id + `" ` + string(m[2]) + `/>`)
		}
		return el
	})
	// The description and definitions go right after the opening
	// <svg ...> element.
	var head bytes.Buffer
	if len(texts) > 0 {
		head.WriteString("\n<desc>")
		for i, t := range texts {
			if i > 0 {
				head.WriteString("\n")
			}
			head.WriteString(html.EscapeString(t))
		}
		head.WriteString("</desc>")
	}
	if defs.Len() > 0 {
		head.WriteString("\n<defs>\n" + defs.String() + "</defs>")
	}
	at := bytes.Index(out, []byte("<svg"))
	end := bytes.IndexByte(out[at:], '>') + at + 1
	return append(out[:end:end], append(head.Bytes(), out[end:]...)...)
}
