package schedule

import (
	"bytes"
	"encoding/json"
)

// Field names a time or load a schedule may state or leave out. A schedule
// read by ReadJSON states exactly the fields present in its input, so that
// a stated zero is told apart from an absent field (the replay checks
// stated fields and derives the others). In a schedule built in code a
// field is stated when it is not zero (hops: when there are any), unless
// KeepStated copied the presence of another.
type Field uint16

// The optional fields.
const (
	FieldStart Field = 1 << iota
	FieldArrival
	FieldComputeStart
	FieldComputeEnd
	FieldHops
	FieldHopLoad
	FieldHopEnd
	FieldCmax
	// FieldProblemStages is the "stages" of the schedule's problem.
	FieldProblemStages
	// known marks a presence record (set by UnmarshalJSON, KeepStated).
	known
)

// Has reports whether the chunk states field f (FieldStart, FieldArrival,
// FieldComputeStart, FieldComputeEnd or FieldHops).
func (c *Chunk) Has(f Field) bool {
	if c.stated&known != 0 {
		return c.stated&f != 0
	}
	switch f {
	case FieldStart:
		return c.Start != 0
	case FieldArrival:
		return c.Arrival != 0
	case FieldComputeStart:
		return c.ComputeStart != 0
	case FieldComputeEnd:
		return c.ComputeEnd != 0
	case FieldHops:
		return len(c.Hops) > 0
	}
	return false
}

// Has reports whether the hop states field f (FieldHopLoad or FieldHopEnd).
func (h *Hop) Has(f Field) bool {
	if h.stated&known != 0 {
		return h.stated&f != 0
	}
	switch f {
	case FieldHopLoad:
		return h.Load != 0
	case FieldHopEnd:
		return h.End != 0
	}
	return false
}

// Has reports whether the schedule states field f (FieldCmax or
// FieldProblemStages).
func (s *Schedule) Has(f Field) bool {
	if s.stated&known != 0 {
		return s.stated&f != 0
	}
	switch f {
	case FieldCmax:
		return s.Cmax != 0
	case FieldProblemStages:
		return s.Problem.Stages != 0
	}
	return false
}

// strict decodes b into v, refusing unknown fields, and returns the keys
// present in b.
func strict(b []byte, v any) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return nil, err
	}
	return keys, nil
}

func present(keys map[string]json.RawMessage, name string, f Field) Field {
	if v, ok := keys[name]; !ok || string(v) == "null" {
		return 0
	}
	return f
}

// UnmarshalJSON implements json.Unmarshaler: unknown fields are errors,
// and absent times are recorded as unstated.
func (c *Chunk) UnmarshalJSON(b []byte) error {
	type plain Chunk
	var x plain
	keys, err := strict(b, &x)
	if err != nil {
		return err
	}
	*c = Chunk(x)
	c.stated = known | present(keys, "start", FieldStart) | present(keys, "arrival", FieldArrival) |
		present(keys, "compute_start", FieldComputeStart) | present(keys, "compute_end", FieldComputeEnd)
	if len(c.Hops) > 0 {
		c.stated |= FieldHops
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: unknown fields are errors,
// and an absent load or end is recorded as unstated.
func (h *Hop) UnmarshalJSON(b []byte) error {
	type plain Hop
	var x plain
	keys, err := strict(b, &x)
	if err != nil {
		return err
	}
	*h = Hop(x)
	h.stated = known | present(keys, "load", FieldHopLoad) | present(keys, "end", FieldHopEnd)
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: unknown fields are errors,
// and an absent cmax is recorded as unstated. The document's "format" is
// read past (ReadJSON checks it before decoding).
func (s *Schedule) UnmarshalJSON(b []byte) error {
	type plain Schedule
	var x struct {
		Format string `json:"format"`
		plain
	}
	keys, err := strict(b, &x)
	if err != nil {
		return err
	}
	*s = Schedule(x.plain)
	s.stated = known | present(keys, "cmax", FieldCmax)
	var pk map[string]json.RawMessage
	if json.Unmarshal(keys["problem"], &pk) == nil {
		s.stated |= present(pk, "stages", FieldProblemStages)
	}
	return nil
}

// KeepStated copies which fields from states onto c (for a chunk derived
// from another, such as one whose hops a replay filled in).
func (c *Chunk) KeepStated(from *Chunk) {
	c.stated = known
	for _, f := range []Field{FieldStart, FieldArrival, FieldComputeStart, FieldComputeEnd} {
		if from.Has(f) {
			c.stated |= f
		}
	}
	if len(c.Hops) > 0 {
		c.stated |= FieldHops
	}
}

// KeepStated copies which fields from states onto s.
func (s *Schedule) KeepStated(from *Schedule) {
	s.stated = known
	for _, f := range []Field{FieldCmax, FieldProblemStages} {
		if from.Has(f) {
			s.stated |= f
		}
	}
}

// FromJSON reports whether the chunk was read from JSON (and so records
// which fields it states) rather than built in code.
func (c *Chunk) FromJSON() bool { return c.stated&known != 0 }
