package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dlsched/dlsched/sweep"
)

// Run a small grid in-process: a star of 4 processors at three loads,
// each with the fewest stages its buffers allow. The rows land in a JSON
// Lines file (a journal: a second Run resumes from it); read them back,
// in grid order. (One installment on m identical processors ends when all
// do: α_{i+1}(C+A) + S = α_i·A; with V = 100 that gives α_1 = 26.537 and
// Cmax = S + (C+A)·α_1 = 0.02756, as printed.)
func ExampleRun() {
	sp, err := sweep.Parse("example.toml", `
[problem]
topology = "star"
m = 4
S = 1e-3
C = 1e-6
A = 1e-3
D = 100
V = [100, 200, 400]
stages = "min"
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, _ := os.MkdirTemp("", "sweep-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "results.jsonl")
	sum, err := sweep.Run(context.Background(), sp, path, sweep.Options{Workers: 1, Run: sp.Run, NoTimings: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	f, _ := os.Open(path)
	defer f.Close()
	rows, _, err := sweep.ReadRows(path, f)
	if err != nil {
		fmt.Println(err)
		return
	}
	sweep.SortRows(rows)
	fmt.Println("solved", sum.Solved, "of", sum.Total)
	for _, r := range rows {
		fmt.Printf("V=%g  n_min=%d  status %s  Cmax %.5f\n", r.Problem.V, r.NMin, r.Status, float64(*r.Cmax))
	}
	// Output:
	// solved 3 of 3
	// V=100  n_min=1  status optimal  Cmax 0.02756
	// V=200  n_min=1  status optimal  Cmax 0.05263
	// V=400  n_min=1  status optimal  Cmax 0.10440
}
