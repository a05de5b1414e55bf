// Package plotting draws line charts of named series (x, y points) with
// gonum.org/v1/plot, to SVG or PNG: the curves of `dlsched optimize` and the
// figures of `dlsched plot`.
package plotting
