package table

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"strings"
)

// FormatFloat writes a number as the shortest decimal that reads back
// exactly ("100", "1e-06"), and +Inf as "inf": the number format of keys,
// CSV cells and records.
func FormatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// FormatInt writes an integer, or "" for 0 (a count that does not apply).
func FormatInt(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// ParseNumber reads a cell as a number: decimals, inf and -inf (any
// case), true (1) and false (0).
func ParseNumber(s string) (float64, bool) {
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// Canon writes numbers canonically (FormatFloat) so that identities match across
// spellings.
func Canon(s string) string {
	if f, ok := ParseNumber(s); ok {
		return FormatFloat(f)
	}
	return s
}

// WriteCSV writes a header and n rows of cells (cells(i) for row i) as
// CSV.
func WriteCSV(w io.Writer, header []string, n int, cells func(i int) []string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := cw.Write(cells(i)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
