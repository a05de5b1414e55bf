package sweep

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/dlsched/dlsched/problem"
	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/solve"
	"github.com/dlsched/dlsched/table"
	"github.com/dlsched/dlsched/topology"
)

// StagePolicy says how a point chooses its number of stages n.
type StagePolicy int

const (
	// StagesMin uses n = n_min, the fewest stages that can carry V.
	StagesMin StagePolicy = iota
	// StagesFixed uses the given n (a point with n < n_min is a row with
	// status "invalid").
	StagesFixed
	// StagesOpt lets the optimizer choose the best n.
	StagesOpt
)

// Stages is one value of the stages axis: a policy and, for StagesFixed,
// the number of stages.
type Stages struct {
	Policy StagePolicy
	N      int
}

// String returns "min", "opt" or the number.
func (s Stages) String() string {
	switch s.Policy {
	case StagesMin:
		return "min"
	case StagesOpt:
		return "opt"
	}
	return strconv.Itoa(s.N)
}

// Grid is one Cartesian product of parameter values: one [problem] table
// (or one entry of a [[problem]] array) of a spec, parsed and checked.
// Axes that do not apply to a topology are not iterated for it: a star
// takes m (not order, buffers, p, h), an ordinary tree order, buffers, p
// and h, a binomial tree order, p and h (its nodes have one buffer).
type Grid struct {
	// Label, if set, names the grid; it becomes the rows' label and is
	// part of their keys.
	Label    string
	Topology []topology.Kind
	Order    []topology.Order
	Buffers  []int
	M, P, H  []int
	S, C, A  []float64
	// D may hold +Inf (unlimited buffers).
	D, V   []float64
	Stages []Stages
	// Procs, if set, makes the grid's star heterogeneous: these
	// per-processor S, C and A (m is their number; S, C and A are then no
	// axes). Its worker order is searched as `dlsched solve` searches it
	// (run.worker_order).
	Procs []schedule.Proc
	// ResultRatio and Return are the axes of result collection (stars;
	// default [0] and [fifo]): β and the order of the results.
	ResultRatio []float64
	Return      []problem.ReturnOrder
	// Deadline, if set, replaces V: each point asks for the largest load
	// that finishes by the deadline (solve.MaxLoad).
	Deadline []float64
}

// RunConfig holds the [run] table of a spec: how the points are solved.
// Command-line flags may override it.
type RunConfig struct {
	// Verify replays every schedule on the executor (default true).
	Verify bool
	// Prune removes empty messages and re-solves (default true). The
	// paper's model keeps them (prune = false).
	Prune bool
	// Solver is the LP backend: "clp" (default), "highs", "gonum" or "auto".
	Solver string
	// Form is the LP form, "compact" (default), "paper" or "chain".
	Form string
	// NoWarm solves every point from scratch (warm = false). By default
	// the unpruned points that differ only in V and their stage count
	// are solved one after the other in increasing V and n, each from the
	// basis of the one before (solve.Sequence; see chains).
	NoWarm bool
	// NoStageGeneration solves every LP whole (stage_generation = false;
	// solve.Options.NoStageGeneration).
	NoStageGeneration bool
	// Tolerance is the certified relative gap to reach (0: the
	// engine's default).
	Tolerance float64
	// MaxStages, when positive, records points whose number of stages
	// exceeds it as rows with status "skipped" instead of solving them.
	MaxStages int
	// Pattern is "search" (the default, "" means the same: the pattern
	// search of solve.Schedule, as `dlsched solve` does) or "greedy" (only the
	// paper's prune of the full pattern). Without pruning every message
	// of the full pattern is sent and the row's pattern is "full".
	Pattern string
	// Cache shares the pattern search's results between points (Run sets
	// one per run; nil caches nothing). It changes no result.
	Cache *solve.PatternCache
	// WorkerOrder is "search", "given" or "" (search when a grid's procs
	// differ; solve.Options.WorkerOrder).
	WorkerOrder string
}

// Spec is a parsed sweep specification.
type Spec struct {
	// Name is the spec's file name (for messages).
	Name string
	// Title is an optional title for plots.
	Title string
	// Grids are expanded in order; a point already produced by an earlier
	// grid (same key) is not repeated.
	Grids []Grid
	Run   RunConfig
}

// SpecError is a problem in a spec file; Field names the offending key,
// e.g. "problem.V" or "problem[2].stages". Err, when the value broke a
// rule of package problem (the one validator of every entry point), is
// its *problem.FieldError (see Unwrap).
type SpecError struct {
	File  string
	Field string
	Msg   string
	Err   error
}

// Unwrap returns Err.
func (e *SpecError) Unwrap() error { return e.Err }

// fieldSpecError is the SpecError of a value refused by package problem.
func fieldSpecError(file, field string, x any, err error) *SpecError {
	fe := err.(*problem.FieldError)
	return &SpecError{File: file, Field: field, Msg: fmt.Sprintf("value %v: want %s", x, fe.Want), Err: fe}
}

// Error implements error: "spec fig7.toml: problem.V: range needs points >= 1".
func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString("spec")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// ParseFile reads and parses a spec file.
func ParseFile(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &SpecError{File: path, Msg: err.Error()}
	}
	return Parse(path, string(b))
}

// Read parses a spec from r; name is used in messages.
func Read(name string, r io.Reader) (*Spec, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, &SpecError{File: name, Msg: err.Error()}
	}
	return Parse(name, string(b))
}

// problemKeys are the keys of a [problem] table in canonical order.
var problemKeys = []string{"label", "topology", "order", "buffers", "m", "p", "h", "S", "C", "A", "D", "V", "stages",
	"procs", "result_ratio", "return", "deadline"}

var runKeys = []string{"verify", "prune", "solver", "form", "tolerance", "max_stages", "pattern", "stage_generation", "warm", "worker_order"}

// Parse parses the TOML text of a spec. Every problem parameter may be a
// single value, a list, or a range table {from, to, points, scale}. Errors
// are *SpecError values naming the field.
func Parse(name, text string) (*Spec, error) {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		return nil, &SpecError{File: name, Msg: "TOML: " + oneLine(err.Error())}
	}
	sp := &Spec{Name: name, Run: RunConfig{Verify: true, Prune: true, Solver: "clp", Form: "compact", Pattern: "search"}}
	for _, k := range sortedKeys(raw) {
		switch k {
		case "problem", "run", "title":
		default:
			return nil, &SpecError{File: name, Field: k, Msg: "unknown key (want [problem], [[problem]], [run] or title)"}
		}
	}
	if t, ok := raw["title"]; ok {
		s, ok := t.(string)
		if !ok {
			return nil, &SpecError{File: name, Field: "title", Msg: "want a string"}
		}
		sp.Title = s
	}
	switch pr := raw["problem"].(type) {
	case nil:
		return nil, &SpecError{File: name, Field: "problem", Msg: "missing: the spec needs a [problem] table"}
	case map[string]any:
		g, err := parseGrid(name, "problem", pr)
		if err != nil {
			return nil, err
		}
		sp.Grids = append(sp.Grids, g)
	case []map[string]any:
		if len(pr) == 0 {
			return nil, &SpecError{File: name, Field: "problem", Msg: "empty [[problem]] array"}
		}
		for i, t := range pr {
			g, err := parseGrid(name, fmt.Sprintf("problem[%d]", i+1), t)
			if err != nil {
				return nil, err
			}
			sp.Grids = append(sp.Grids, g)
		}
	default:
		return nil, &SpecError{File: name, Field: "problem", Msg: "want a [problem] table or a [[problem]] array of tables"}
	}
	if r, ok := raw["run"]; ok {
		t, ok := r.(map[string]any)
		if !ok {
			return nil, &SpecError{File: name, Field: "run", Msg: "want a [run] table"}
		}
		if err := parseRun(name, t, &sp.Run); err != nil {
			return nil, err
		}
	}
	if n := sp.Size(); n > MaxPoints {
		return nil, &SpecError{File: name, Field: "problem", Msg: fmt.Sprintf("the grids have %.4g points, more than %d (split the spec)", n, MaxPoints)}
	}
	return sp, nil
}

// MaxPoints bounds the points of a spec, checked before they are expanded
// (a point and its key take a few hundred bytes; the paper's figure set
// has 3,255).
const MaxPoints = 1_000_000

// Size returns the number of points of the spec's grids before repeats
// are dropped (an upper bound on len(Points())), without expanding them.
func (sp *Spec) Size() float64 {
	total := 0.0
	for gi := range sp.Grids {
		g := &sp.Grids[gi]
		loads := len(g.V)
		if g.Deadline != nil {
			loads = len(g.Deadline)
		}
		betas, rets := g.results()
		common := float64(len(g.S)) * float64(len(g.C)) * float64(len(g.A)) * float64(len(g.D)) * float64(loads) * float64(len(g.Stages)) *
			float64(len(betas)) * float64(len(rets))
		for _, kind := range g.Topology {
			shapes := 0.0
			switch kind {
			case topology.Star:
				shapes = float64(len(g.M))
			case topology.Tree:
				shapes = float64(len(g.Order)) * float64(len(g.Buffers)) * float64(len(g.P)) * float64(len(g.H))
			case topology.Binomial:
				shapes = float64(len(g.Order)) * float64(len(g.P)) * float64(len(g.H))
			}
			total += shapes * common
		}
	}
	return total
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// suggest returns a hint for a mistyped key.
func suggest(k string, valid []string) string {
	for _, v := range valid {
		if strings.EqualFold(k, v) {
			return fmt.Sprintf("; did you mean %s?", v)
		}
	}
	return "; want one of " + strings.Join(valid, ", ")
}

func parseRun(file string, t map[string]any, rc *RunConfig) error {
	for _, k := range sortedKeys(t) {
		field := "run." + k
		v := t[k]
		bad := func(want string) error {
			return &SpecError{File: file, Field: field, Msg: fmt.Sprintf("value %v: want %s", v, want)}
		}
		switch k {
		case "verify", "prune", "stage_generation", "warm":
			b, ok := v.(bool)
			if !ok {
				return bad("true or false")
			}
			switch k {
			case "verify":
				rc.Verify = b
			case "prune":
				rc.Prune = b
			case "warm":
				rc.NoWarm = !b
			default:
				rc.NoStageGeneration = !b
			}
		case "solver":
			s, ok := v.(string)
			if !ok || !slices.Contains(solve.SolverNames(), s) {
				return bad(`"clp", "highs", "gonum" or "auto"`)
			}
			rc.Solver = s
		case "form":
			s, ok := v.(string)
			if !ok || (s != "compact" && s != "paper" && s != "chain") {
				return bad(`"compact", "paper" or "chain"`)
			}
			rc.Form = s
		case "tolerance":
			f, ok := toFloat(v)
			if !ok || !(f > 0 && f < 1) {
				return bad("a number in (0, 1)")
			}
			rc.Tolerance = f
		case "pattern":
			s, ok := v.(string)
			if !ok || (s != "greedy" && s != "search") {
				return bad(`"greedy" or "search"`)
			}
			rc.Pattern = s
		case "worker_order":
			s, ok := v.(string)
			if !ok || (s != solve.OrderSearch && s != solve.OrderGiven) {
				return bad(`"search" or "given"`)
			}
			rc.WorkerOrder = s
		case "max_stages":
			n, ok := toInt(v)
			if !ok || n < 0 {
				return bad("an integer >= 0 (0: no limit)")
			}
			rc.MaxStages = n
		default:
			return &SpecError{File: file, Field: field, Msg: "unknown key" + suggest(k, runKeys)}
		}
	}
	return nil
}

// rangeSpec is a {from, to, points, scale} table.
type rangeSpec struct {
	from, to float64
	points   int
	log      bool
}

// parseRange reads a range table; field names it in errors.
func parseRange(file, field string, t map[string]any) (rangeSpec, error) {
	r := rangeSpec{}
	var haveFrom, haveTo, havePoints bool
	for _, k := range sortedKeys(t) {
		v := t[k]
		switch k {
		case "from", "to":
			f, ok := toFloat(v)
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				return r, &SpecError{File: file, Field: field + "." + k, Msg: fmt.Sprintf("value %v: want a finite number", v)}
			}
			if k == "from" {
				r.from, haveFrom = f, true
			} else {
				r.to, haveTo = f, true
			}
		case "points":
			n, ok := toInt(v)
			if !ok || n < 1 || n > 1_000_000 {
				return r, &SpecError{File: file, Field: field + ".points", Msg: fmt.Sprintf("value %v: want an integer from 1 to 1000000", v)}
			}
			r.points, havePoints = n, true
		case "scale":
			s, _ := v.(string)
			switch s {
			case "log":
				r.log = true
			case "lin":
			default:
				return r, &SpecError{File: file, Field: field + ".scale", Msg: fmt.Sprintf("value %v: want \"log\" or \"lin\"", v)}
			}
		default:
			return r, &SpecError{File: file, Field: field + "." + k, Msg: "unknown range key" + suggest(k, []string{"from", "to", "points", "scale"})}
		}
	}
	switch {
	case !haveFrom:
		return r, &SpecError{File: file, Field: field + ".from", Msg: "missing (a range needs from, to and points)"}
	case !haveTo:
		return r, &SpecError{File: file, Field: field + ".to", Msg: "missing (a range needs from, to and points)"}
	case !havePoints:
		return r, &SpecError{File: file, Field: field + ".points", Msg: "missing (a range needs from, to and points)"}
	}
	if r.log && (r.from <= 0 || r.to <= 0) {
		return r, &SpecError{File: file, Field: field, Msg: fmt.Sprintf("log range from %g to %g: want both > 0", r.from, r.to)}
	}
	return r, nil
}

// values returns the range's points: evenly spaced on a linear or
// logarithmic scale, the ends exact, inner points rounded to 15
// significant digits so that keys do not depend on the last bit of
// math.Pow.
func (r rangeSpec) values() []float64 {
	if r.points == 1 {
		return []float64{r.from}
	}
	out := make([]float64, r.points)
	for i := range out {
		t := float64(i) / float64(r.points-1)
		var v float64
		if r.log {
			lf, lt := math.Log10(r.from), math.Log10(r.to)
			v = math.Pow(10, lf+t*(lt-lf))
		} else {
			v = r.from + t*(r.to-r.from)
		}
		out[i] = round15(v)
	}
	out[0], out[len(out)-1] = r.from, r.to
	return out
}

func round15(v float64) float64 {
	f, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if err != nil {
		return v
	}
	return f
}

// toFloat accepts TOML integers and floats (including inf) and numeric
// strings ("1e3", "inf").
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := problem.ParseNumber("", x, true)
		return f, err == nil
	}
	return 0, false
}

// toInt accepts integers and integral floats.
func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case int64:
		if x > math.MaxInt32 || x < math.MinInt32 {
			return 0, false
		}
		return int(x), true
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > math.MaxInt32 {
			return 0, false
		}
		return int(x), true
	}
	return 0, false
}

// items turns a key's value into a list: a scalar is a list of one, an
// array is itself, a range table its points (as float64).
func items(file, field string, v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil, &SpecError{File: file, Field: field, Msg: "empty list"}
		}
		return x, nil
	case map[string]any:
		r, err := parseRange(file, field, x)
		if err != nil {
			return nil, err
		}
		vals := r.values()
		out := make([]any, len(vals))
		for i, f := range vals {
			out[i] = f
		}
		return out, nil
	}
	return []any{v}, nil
}

// floatAxis parses a list or range of floats of the problem field key,
// each checked by problem.CheckFloat.
func floatAxis(file, field, key string, v any) ([]float64, error) {
	it, err := items(file, field, v)
	if err != nil {
		return nil, err
	}
	allowInf := problem.InfAllowed(key)
	var out []float64
	seen := map[float64]bool{}
	for _, x := range it {
		f, ok := toFloat(x)
		if !ok || math.IsNaN(f) || (math.IsInf(f, 0) && !(allowInf && f > 0)) {
			want := "a finite number"
			if allowInf {
				want = `a number or inf (or "inf")`
			}
			return nil, fieldSpecError(file, field, x, &problem.FieldError{Field: key, Value: fmt.Sprint(x), Want: want})
		}
		if err := problem.CheckFloat(key, f); err != nil {
			return nil, fieldSpecError(file, field, table.FormatFloat(f), err)
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// intAxis parses a list or range of integers of the problem field key,
// each checked by problem.CheckInt; range points are rounded to the
// nearest integer and repeated values dropped.
func intAxis(file, field, key string, v any) ([]int, error) {
	_, isRange := v.(map[string]any)
	it, err := items(file, field, v)
	if err != nil {
		return nil, err
	}
	var out []int
	seen := map[int]bool{}
	for _, x := range it {
		var n int
		ok := false
		if f, isF := x.(float64); isF && isRange {
			n, ok = int(math.Round(f)), true
		} else {
			n, ok = toInt(x)
		}
		if !ok {
			// Not an integer: the want of the field's range.
			n = math.MinInt32
		}
		if err := problem.CheckInt(key, n); err != nil {
			err.(*problem.FieldError).Value = fmt.Sprint(x)
			return nil, fieldSpecError(file, field, x, err)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func stringAxis(file, field string, v any, valid ...string) ([]string, error) {
	it, err := items(file, field, v)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range it {
		s, ok := x.(string)
		s = strings.ToLower(s)
		found := false
		for _, w := range valid {
			found = found || s == w
		}
		if !ok || !found {
			return nil, &SpecError{File: file, Field: field, Msg: fmt.Sprintf("value %v: want %s", x, quoteList(valid))}
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

func quoteList(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = strconv.Quote(s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func stagesAxis(file, field string, v any) ([]Stages, error) {
	_, isRange := v.(map[string]any)
	it, err := items(file, field, v)
	if err != nil {
		return nil, err
	}
	var out []Stages
	seen := map[Stages]bool{}
	for _, x := range it {
		var st Stages
		switch y := x.(type) {
		case string:
			switch strings.ToLower(strings.TrimSpace(y)) {
			case "min":
				st = Stages{Policy: StagesMin}
			case "opt":
				st = Stages{Policy: StagesOpt}
			default:
				n, err := strconv.Atoi(strings.TrimSpace(y))
				if err != nil || n < 1 {
					return nil, &SpecError{File: file, Field: field, Msg: fmt.Sprintf("value %q: want \"min\", \"opt\" or an integer >= 1", y),
						Err: &problem.FieldError{Field: problem.FieldStages, Value: y, Want: `"min", "opt" or an integer >= 1`}}
				}
				st = Stages{Policy: StagesFixed, N: n}
			}
		default:
			var n int
			ok := false
			if f, isF := x.(float64); isF && isRange {
				n, ok = int(math.Round(f)), true
			} else {
				n, ok = toInt(x)
			}
			if !ok || n < 1 {
				return nil, &SpecError{File: file, Field: field, Msg: fmt.Sprintf("value %v: want \"min\", \"opt\" or an integer >= 1", x),
					Err: &problem.FieldError{Field: problem.FieldStages, Value: fmt.Sprint(x), Want: `"min", "opt" or an integer >= 1`}}
			}
			st = Stages{Policy: StagesFixed, N: n}
		}
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out, nil
}

// withField records, in a SpecError of a name the spec refused, the
// problem field it names (topology or order) with the problem package's
// want.
func withField(err error, key string) error {
	se, ok := err.(*SpecError)
	if !ok {
		return err
	}
	v := strings.TrimPrefix(se.Msg, "value ")
	if i := strings.Index(v, ": want "); i >= 0 {
		v = v[:i]
	}
	fe := &problem.FieldError{Field: key, Value: v, Want: `"star", "tree" or "binomial"`}
	if key == problem.FieldOrder {
		fe.Want = `"nlf" or "llf"`
	}
	se.Err = fe
	return se
}

// parseGrid parses one [problem] table. Defaults: order ["nlf"],
// buffers [1], stages ["min"]. topology, S, C, A, D, V are required, and m
// (star) or p and h (trees) for the topologies listed. A parameter that no
// listed topology uses is an error, so that a typo cannot silently be
// ignored.
func parseGrid(file, prefix string, t map[string]any) (Grid, error) {
	gp := &gridParser{file: file, prefix: prefix, t: t}
	if err := gp.keys(); err != nil {
		return gp.g, err
	}
	for _, step := range []func() error{gp.label, gp.topologies, gp.procs, gp.orders, gp.intAxes, gp.floatAxes, gp.results, gp.deadlines} {
		if err := step(); err != nil {
			return gp.g, err
		}
	}
	v, _ := gp.get("stages", "min")
	var err error
	gp.g.Stages, err = stagesAxis(file, gp.field("stages"), v)
	return gp.g, err
}

// gridParser is parseGrid's state: the table t of [problem] table prefix
// of file, the grid read so far, and the parameters its topologies use.
type gridParser struct {
	file, prefix string
	t            map[string]any
	g            Grid
	uses         map[string]bool
}

// field is the spec's name of key k: "problem.S", "problem.2.m".
func (gp *gridParser) field(k string) string { return gp.prefix + "." + k }

// keys refuses an unknown parameter, naming the nearest known one.
func (gp *gridParser) keys() error {
	for _, k := range sortedKeys(gp.t) {
		ok := false
		for _, w := range problemKeys {
			ok = ok || k == w
		}
		if !ok {
			return &SpecError{File: gp.file, Field: gp.field(k), Msg: "unknown parameter" + suggest(k, problemKeys)}
		}
	}
	return nil
}

// label reads the optional one-line label.
func (gp *gridParser) label() error {
	if v, ok := gp.t["label"]; ok {
		s, ok := v.(string)
		if !ok || strings.ContainsAny(s, "\n\"") {
			return &SpecError{File: gp.file, Field: gp.field("label"), Msg: fmt.Sprintf("value %v: want a one-line string without quotes", v)}
		}
		gp.g.Label = s
	}
	return nil
}

// topologies reads the required topology axis and refuses a parameter no
// listed topology uses.
func (gp *gridParser) topologies() error {
	tv, ok := gp.t["topology"]
	if !ok {
		return &SpecError{File: gp.file, Field: gp.field("topology"), Msg: `missing: want "star", "tree" or "binomial" (or a list of them)`}
	}
	tops, err := stringAxis(gp.file, gp.field("topology"), tv, "star", "tree", "binomial")
	if err != nil {
		return withField(err, problem.FieldTopology)
	}
	gp.uses = map[string]bool{}
	for _, s := range tops {
		k, _ := topology.ParseKind(s)
		gp.g.Topology = append(gp.g.Topology, k)
		switch k {
		case topology.Star:
			gp.uses["m"] = true
		case topology.Tree:
			gp.uses["order"], gp.uses["buffers"], gp.uses["p"], gp.uses["h"] = true, true, true, true
		case topology.Binomial:
			gp.uses["order"], gp.uses["p"], gp.uses["h"] = true, true, true
		}
	}
	for _, k := range []string{"order", "buffers", "m", "p", "h"} {
		if _, ok := gp.t[k]; ok && !gp.uses[k] {
			return &SpecError{File: gp.file, Field: gp.field(k), Msg: fmt.Sprintf("not used by topology %s (a star takes m; trees take p and h, order; ordinary trees buffers)", strings.Join(tops, ", "))}
		}
	}
	return nil
}

// get returns parameter k, or def when it is absent (nil: required).
func (gp *gridParser) get(k string, def any) (any, error) {
	if v, ok := gp.t[k]; ok {
		return v, nil
	}
	if def != nil {
		return def, nil
	}
	need := ""
	switch k {
	case "m":
		need = " (topology star needs m)"
	case "p", "h":
		need = " (trees need p and h)"
	}
	return nil, &SpecError{File: gp.file, Field: gp.field(k), Msg: "missing" + need}
}

// orders reads the order axis of trees (default nlf).
func (gp *gridParser) orders() error {
	if !gp.uses["order"] {
		return nil
	}
	v, _ := gp.get("order", "nlf")
	ords, err := stringAxis(gp.file, gp.field("order"), v, "nlf", "llf")
	if err != nil {
		return withField(err, problem.FieldOrder)
	}
	for _, s := range ords {
		o, _ := topology.ParseOrder(s)
		gp.g.Order = append(gp.g.Order, o)
	}
	return nil
}

// intAxes reads the integer axes the listed topologies take, with their
// default (nil: required) and valid range.
func (gp *gridParser) intAxes() error {
	ints := []struct {
		key string
		dst *[]int
		def any
	}{
		{problem.FieldBuffers, &gp.g.Buffers, int64(1)},
		{problem.FieldM, &gp.g.M, nil},
		{problem.FieldP, &gp.g.P, nil},
		{problem.FieldH, &gp.g.H, nil},
	}
	for _, in := range ints {
		if !gp.uses[in.key] || (in.key == problem.FieldM && gp.g.Procs != nil) {
			continue
		}
		v, err := gp.get(in.key, in.def)
		if err != nil {
			return err
		}
		if *in.dst, err = intAxis(gp.file, gp.field(in.key), in.key, v); err != nil {
			return err
		}
	}
	return nil
}

// floatAxes reads the required axes S, C, A, D and V.
func (gp *gridParser) floatAxes() error {
	floats := []struct {
		key string
		dst *[]float64
	}{
		{problem.FieldS, &gp.g.S}, {problem.FieldC, &gp.g.C}, {problem.FieldA, &gp.g.A}, {problem.FieldD, &gp.g.D}, {problem.FieldV, &gp.g.V},
	}
	for _, fl := range floats {
		var def any
		switch {
		case gp.g.Procs != nil && fl.key != problem.FieldD && fl.key != problem.FieldV:
			def = 0.0 // the processors' own (a star's S, C, A are no axes then)
			if _, ok := gp.t[fl.key]; ok {
				return &SpecError{File: gp.file, Field: gp.field(fl.key), Msg: "not used with procs (each processor has its own S, C and A)"}
			}
			*fl.dst = []float64{0}
			continue
		case fl.key == problem.FieldV && gp.t["deadline"] != nil:
			if _, ok := gp.t["V"]; ok {
				return &SpecError{File: gp.file, Field: gp.field("V"), Msg: "give V or deadline, not both (the deadline form's answer is the load)"}
			}
			*fl.dst = []float64{1} // a placeholder: the answer replaces it
			continue
		}
		v, err := gp.get(fl.key, def)
		if err != nil {
			return err
		}
		if *fl.dst, err = floatAxis(gp.file, gp.field(fl.key), fl.key, v); err != nil {
			return err
		}
	}
	return nil
}
