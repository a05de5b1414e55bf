// Package closedform holds the closed forms of Drozdowski & Wolniewicz,
// "Performance limits of divisible load processing in systems with
// limited communication buffers" (JPDC 64, 2004), each written once: the
// unlimited-buffer star in which every processor finishes together
// (StarEqualFinish), the one-layer trees (TreeOneLayer, TreeOneLayerStages,
// TreeOneLayerFull), the D* heuristics of Section 5 (DStarHeuristic,
// DStarFor), the LB strategy of Section 4.2 (LBStrategy, LBLine) and the
// trivial bound of a tree whose computing layers are a subset
// (SubsetBound). They need no LP: optimize reports them beside its
// searches, sweep writes LBLine as its lb_layer column, the pattern search
// (solve/pattern) rules candidates out with SubsetBound, and the LP tests
// check the LPs against them.
//
// The LB strategy takes n at least the n_min of buffer D: a chunk larger
// than the buffer is no schedule of the physical model.
package closedform
