// Package plotting draws line charts of named series (x, y points) with
// gonum.org/v1/plot, to SVG or PNG: the curves of `dlsched optimize` and the
// figures of `dlsched plot`, the models' charts (NeppScan, DayGranularity,
// DataflowStudy), and the Gantt chart of a schedule (WriteGantt, plain
// SVG with gonum/plot's ticks and colour maps). It is the one package
// besides the command that imports gonum/plot.
package plotting
