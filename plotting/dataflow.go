package plotting

import (
	"fmt"
	"strconv"

	"github.com/dlsched/dlsched/executor/dataflow"
)

// DataflowStudy draws the four findings of the dataflow machine's Section
// 4 study (`dlsched dataflow --study ... --plot`): execution time against
// bus time and against scheduler delay, speedup against PEs, and the best
// grain against PEs, for the study's first program size.
func DataflowStudy(r *dataflow.StudyReport) []Chart {
	c := r.Config
	if len(r.Rows) == 0 || len(c.Nodes) == 0 {
		return nil
	}
	v := dataflowView{r: r, n: c.Nodes[0], midGrain: c.Grains[len(c.Grains)/2], delay: c.Delays[0], bus: c.Buses[0]}
	v.note = fmt.Sprintf("random levelled program of %d fine-grain nodes, seed %d", v.n, c.Seed)
	return []Chart{v.againstBus(), v.againstDelay(), v.speedup(), v.bestGrain()}
}

// dataflowView is the slice of a study the charts show: its first program
// size, the middle grain, the lowest delay and bus time.
type dataflowView struct {
	r          *dataflow.StudyReport
	n          int
	midGrain   int
	delay, bus float64
	note       string
}

func dataflowG6(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// series gathers (x, y) of the rows of the view's program size that keep.
func (v dataflowView) series(name string, keep func(dataflow.StudyRow) bool, xy func(dataflow.StudyRow) (float64, float64)) Series {
	s := Series{Name: name}
	for _, row := range v.r.Rows {
		if row.Nodes == v.n && keep(row) {
			x, y := xy(row)
			s.X, s.Y = append(s.X, x), append(s.Y, y)
		}
	}
	return s
}

// againstBus is finding 1: time against bus time, per PE count (the
// middle grain, the lowest delay).
func (v dataflowView) againstBus() Chart {
	c := Chart{Title: "1. Execution time against bus time", Note: v.note + fmt.Sprintf(", grain %d, scheduler delay %s", v.midGrain, dataflowG6(v.delay)),
		XLabel: "bus time per transfer (time units)", YLabel: "execution time (time units)"}
	for _, p := range v.r.Config.PEs {
		c.Series = append(c.Series, v.series(fmt.Sprintf("%d PEs", p),
			func(x dataflow.StudyRow) bool { return x.Grain == v.midGrain && x.Delay == v.delay && x.PEs == p },
			func(x dataflow.StudyRow) (float64, float64) { return x.Bus, x.Makespan }))
	}
	return c
}

// againstDelay is finding 2: time against scheduler delay, per PE count.
func (v dataflowView) againstDelay() Chart {
	c := Chart{Title: "2. Execution time against scheduler delay", Note: v.note + fmt.Sprintf(", grain %d, bus time %s", v.midGrain, dataflowG6(v.bus)),
		XLabel: "scheduler delay per allocation (time units)", YLabel: "execution time (time units)", LogX: true, LogY: true}
	for _, p := range v.r.Config.PEs {
		c.Series = append(c.Series, v.series(fmt.Sprintf("%d PEs", p),
			func(x dataflow.StudyRow) bool { return x.Grain == v.midGrain && x.Bus == v.bus && x.PEs == p },
			func(x dataflow.StudyRow) (float64, float64) { return x.Delay, x.Makespan }))
	}
	return c
}

// speedup is finding 3: speedup against PEs, per grain.
func (v dataflowView) speedup() Chart {
	c := Chart{Title: "3. Speedup against PEs", Note: v.note + fmt.Sprintf(", delay %s, bus time %s", dataflowG6(v.delay), dataflowG6(v.bus)),
		XLabel: "PEs", YLabel: "speedup (time on 1 PE / time on p PEs)"}
	for _, grain := range v.r.Config.Grains {
		c.Series = append(c.Series, v.series(fmt.Sprintf("grain %d", grain),
			func(x dataflow.StudyRow) bool { return x.Grain == grain && x.Delay == v.delay && x.Bus == v.bus },
			func(x dataflow.StudyRow) (float64, float64) { return float64(x.PEs), x.Speedup }))
	}
	return c
}

// bestGrain is finding 4: the best grain against PEs, per delay,
// simulated and by the model.
func (v dataflowView) bestGrain() Chart {
	c := Chart{Title: "4. Best grain against PEs", Note: v.note + fmt.Sprintf(", bus time %s", dataflowG6(v.bus)),
		XLabel: "PEs", YLabel: "grain of the fastest graph (fine nodes per node)"}
	for _, b := range v.r.BestGrains() {
		if b.Nodes != v.n || b.Bus != v.bus {
			continue
		}
		s := Series{Name: fmt.Sprintf("delay %s, simulated", dataflowG6(b.Delay))}
		sm := Series{Name: fmt.Sprintf("delay %s, model", dataflowG6(b.Delay)), Style: Line}
		for i, p := range b.PEs {
			s.X, s.Y = append(s.X, float64(p)), append(s.Y, float64(b.Grain[i]))
			sm.X, sm.Y = append(sm.X, float64(p)), append(sm.Y, float64(b.GrainModel[i]))
		}
		c.Series = append(c.Series, s, sm)
	}
	return c
}
