// Package topology describes the interconnections dlsched schedules over:
// the star, the ordinary (k-ary) tree and the binomial tree of Drozdowski &
// Wolniewicz (2004), with their layer sizes, the number of computing
// processors, the layer activation orders NLF and LLF, and the explicit
// node-by-node structure (parent, layer, children per port) that the
// executor needs to replay a schedule on every physical processor.
package topology
