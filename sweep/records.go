package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/dlsched/dlsched/schedule"
	"github.com/dlsched/dlsched/schema"
	"github.com/dlsched/dlsched/table"
)

// rowIdentity are the input columns of a results row.
var rowIdentity = []string{"label", "topology", "order", "buffers", "m", "p", "h", "S", "C", "A", "D", "V", "stages_policy",
	"procs", "result_ratio", "return", "deadline"}

// RowRecords turns results rows into table records with the CSVHeader columns
// plus "D/V".
func RowRecords(rows []Row) table.Records {
	out := table.Records{Identity: rowIdentity, Columns: append(append([]string{}, CSVHeader...), "D/V")}
	for i := range rows {
		rec := table.Record{}
		for k, cell := range rowCells(&rows[i]) {
			rec[CSVHeader[k]] = cell
		}
		rec["D/V"] = table.FormatFloat(float64(rows[i].Problem.D) / rows[i].Problem.V)
		out.Rows = append(out.Rows, rec)
	}
	return out
}

// LoadRecords reads a results file (JSON lines; a torn last line is
// ignored) or a schedule written by `dlsched solve --format json` (one
// object with "chunks"), and returns its records. A document is read by
// its declared format: dlsched.schedule/1 or dlsched.sweep-row/1 lines;
// another kind or major version is refused with a *schema.FormatError,
// and a document without a format (written before formats were declared)
// is read as version 1.
func LoadRecords(path string) (table.Records, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return table.Records{}, err
	}
	trim := bytes.TrimSpace(b)
	if bytes.HasPrefix(trim, []byte("{")) {
		var probe struct {
			Format *string         `json:"format"`
			Chunks json.RawMessage `json:"chunks"`
			Key    string          `json:"key"`
		}
		if dec := json.NewDecoder(bytes.NewReader(trim)); dec.Decode(&probe) == nil && isSchedule(probe.Format, probe.Chunks != nil && probe.Key == "") {
			if err := schema.Check(trim, schema.Schedule); err != nil {
				return table.Records{}, fmt.Errorf("%s: %w", path, err)
			}
			s, err := schedule.ReadJSON(bytes.NewReader(trim))
			if err != nil {
				return table.Records{}, fmt.Errorf("%s: %w", path, err)
			}
			return table.ScheduleRecords(s), nil
		}
		if k, _, _ := schema.Parse(deref(probe.Format)); probe.Format != nil && k != "sweep-row" {
			// One document of another kind (parseRows names the line
			// of a row of another major version).
			return table.Records{}, fmt.Errorf("%s: %w", path, schema.CheckFormat(*probe.Format, schema.SweepRow))
		}
	}
	rows, _, _, err := parseRows(path, b)
	if err != nil {
		return table.Records{}, err
	}
	return RowRecords(rows), nil
}

// isSchedule tells a schedule from results rows: by its declared format
// when it has one (a schedule of any major version, which ReadJSON then
// refuses), else by its chunks.
func isSchedule(format *string, chunks bool) bool {
	if format == nil {
		return chunks
	}
	kind, _, err := schema.Parse(*format)
	return err == nil && kind == "schedule"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
