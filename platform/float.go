package platform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 whose JSON form writes +Inf, -Inf and NaN as the
// strings "inf", "-inf" and "nan" (JSON has no infinity) and reads them
// back, as schedule.Float does for schedules. Package platform does not
// import schedule, which draws Gantt charts with gonum/plot: the models
// built on a Platform must not depend on a plotting library.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-inf"`), nil
	case math.IsNaN(v):
		return []byte(`"nan"`), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

// UnmarshalJSON implements json.Unmarshaler: a number, or one of the
// strings "inf", "+inf", "Inf", "Infinity", "-inf", "nan" or a number in
// quotes; null leaves the value alone.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || b[0] != '"' {
		var v float64
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*f = Float(v)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s {
	case "inf", "+inf", "Inf", "Infinity", "+Infinity":
		*f = Float(math.Inf(1))
	case "-inf", "-Infinity":
		*f = Float(math.Inf(-1))
	case "nan", "NaN":
		*f = Float(math.NaN())
	default:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("platform: bad number %q", s)
		}
		*f = Float(v)
	}
	return nil
}
