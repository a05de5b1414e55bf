package nepp

import "github.com/dlsched/dlsched/platform"

// FromPlatform builds the Config of NEPP farming p's load as tasks jobs of
// x = V/tasks load units each with algorithm alg and queue size queue (md
// and ft; sd ignores it). NEPP's host sends every job itself and talks to
// every node directly ("the host sends that node the next job", Section
// 3.1.2), so the platform must be a star: a chain or a tree is refused
// with a *platform.FieldError on Platform.Topology.
//
// The translation: worker i is node i; a job costs A_i·x to compute
// (Work = A·x at speed A/A_i, A_i the worker's own A, PerWorkerA on a
// star) and S + C·x to send (Setup = S, PerByte = C, JobBytes = x: the
// platform's load units stand for NEPP's bytes); its result is
// ResultPerUnit·x units (ResultBytes), sent at the same cost per unit.
// The platform's slowdowns and crashes carry over node for node (a
// slowdown's factor is of the nominal speed in both). The buffer D is not
// in NEPP's model and is ignored; the work is constant, the host's w_h 0.
func FromPlatform(p *platform.Platform, alg Algorithm, tasks, queue int) (Config, error) {
	if err := p.Validate(); err != nil {
		return Config{}, err
	}
	if p.Kind != platform.Star {
		return Config{}, platform.Bad(pkg, FieldTopology, string(p.Kind), "star: NEPP's host talks to every node directly")
	}
	if tasks < 1 || tasks > MaxJobs {
		return Config{}, bad(FieldJobs, tasks, "1..%d tasks", MaxJobs)
	}
	x := p.V / float64(tasks)
	cfg := Config{Algorithm: alg, Queue: queue, Jobs: tasks, Work: p.A * x, Setup: p.S, PerByte: p.C,
		JobBytes: x, ResultBytes: p.ResultPerUnit * x}
	for i := 1; i <= p.M; i++ {
		cfg.Speeds = append(cfg.Speeds, p.A/p.WorkerA(i))
	}
	for _, s := range p.Slows {
		cfg.Slows = append(cfg.Slows, Slow{Node: s.Worker, At: s.At, Factor: s.Factor})
	}
	for _, c := range p.Crashes {
		cfg.Crashes = append(cfg.Crashes, Crash{Node: c.Worker, At: c.At})
	}
	if err := cfg.Validate(); err != nil { // the queue
		return Config{}, err
	}
	return cfg, nil
}
