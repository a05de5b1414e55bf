package main

import (
	"math"
	"strings"
	"testing"
)

// FuzzNumberFlags: the readers of numeric flag values never panic, accept
// only finite numbers (and +Inf where inf is allowed), and refuse the rest
// with one line naming the flag.
func FuzzNumberFlags(f *testing.F) {
	for _, s := range []string{"1", "1e-3", " 2.5 ", "inf", "Infinity", "-inf", "NaN", "nan", "", "1e309", "-1e309",
		"0x1p-3", "1_000", "٣", "1e", "--5", "10\n20", "+inf", "9223372036854775808", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, allowInf := range []bool{false, true} {
			v, err := parseNumber("V", s, allowInf)
			if err != nil {
				if msg := err.Error(); !strings.Contains(msg, "--V") || strings.Contains(oneLine(msg), "\n") {
					t.Fatalf("%q: error %q does not name --V", s, msg)
				}
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, -1) || (math.IsInf(v, 1) && !allowInf) {
				t.Fatalf("%q (allowInf %v) accepted as %g", s, allowInf, v)
			}
		}
		if _, err := parseInteger("m", s); err != nil && !strings.Contains(err.Error(), "--m") {
			t.Fatalf("%q: integer error %q does not name --m", s, err)
		}
	})
}
