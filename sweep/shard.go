package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dlsched/dlsched/problem"
)

// Shard selects the points of one of Count shards: point Index i belongs
// to shard k (1-based) when i mod Count == k−1. The zero value selects
// every point.
type Shard struct {
	Index, Count int
}

// All reports whether the shard selects every point.
func (s Shard) All() bool { return s.Count <= 1 }

// Contains reports whether the point with grid index i belongs to s.
func (s Shard) Contains(i int) bool {
	if s.All() {
		return true
	}
	return i%s.Count == s.Index-1
}

// String returns "i/N", or "" for the whole grid.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ShardError is a bad shard specification; Source names where it came
// from: the option "shard" (ParseShard's input), "shards" (ShardFromEnv's
// count) or an environment variable ("SLURM_ARRAY_TASK_ID", ...). Want may
// refer to the options as {shard} and {shards} (see Format).
type ShardError struct {
	Source, Value, Want string
}

// Error implements error: "invalid shard 3/2: want i/N with 1 <= i <= N".
func (e *ShardError) Error() string { return e.Format(func(f string) string { return f }) }

// Format renders the error with the options named by name (the command
// line passes its flag syntax); environment variables keep their names.
func (e *ShardError) Format(name func(field string) string) string {
	src := e.Source
	if src == SourceShard || src == SourceShards {
		src = name(src)
	}
	return fmt.Sprintf("invalid %s %s: want %s", src, e.Value, problem.Expand(e.Want, name))
}

// The option names a shard can come from besides environment variables:
// ParseShard's input and ShardFromEnv's shards argument.
const (
	SourceShard  = "shard"
	SourceShards = "shards"
)

// ParseShard parses "i/N" with 1 ≤ i ≤ N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, &ShardError{SourceShard, s, "i/N with 1 <= i <= N, e.g. 2/8"}
	}
	return Shard{Index: i, Count: n}, nil
}

// ShardFromEnv derives the shard from the environment of a cluster job
// when no --shard is given:
//
//   - Slurm job arrays: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and
//     SLURM_ARRAY_TASK_MIN (the first ID, 0 or 1 or any other; 0 when
//     unset), with SLURM_ARRAY_TASK_STEP for arrays like 0-15:4. The shard
//     is (ID−MIN)/STEP + 1 of COUNT. Arrays with gaps (--array=1,3,8) are
//     refused: use --shard.
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (0-based) with the
//     shard count from shards (a --shards flag) or DLSCHED_SHARDS.
//
// It returns the zero Shard and source "" when none of these is set (the
// source is otherwise the variable or SourceShards), and a *ShardError
// naming the variable when one is malformed.
func ShardFromEnv(getenv func(string) string, shards int) (sh Shard, source string, err error) {
	atoi := func(name string, min int) (int, error) {
		v := strings.TrimSpace(getenv(name))
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			return 0, &ShardError{name, strconv.Quote(v), fmt.Sprintf("an integer >= %d", min)}
		}
		return n, nil
	}
	if getenv("SLURM_ARRAY_TASK_ID") != "" {
		id, err := atoi("SLURM_ARRAY_TASK_ID", 0)
		if err != nil {
			return Shard{}, "", err
		}
		if getenv("SLURM_ARRAY_TASK_COUNT") == "" {
			return Shard{}, "", &ShardError{"SLURM_ARRAY_TASK_COUNT", `""`, "the number of array tasks (set by Slurm for job arrays); or pass {shard} i/N"}
		}
		count, err := atoi("SLURM_ARRAY_TASK_COUNT", 1)
		if err != nil {
			return Shard{}, "", err
		}
		lo, step := 0, 1
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = atoi("SLURM_ARRAY_TASK_MIN", 0); err != nil {
				return Shard{}, "", err
			}
		}
		if getenv("SLURM_ARRAY_TASK_STEP") != "" {
			if step, err = atoi("SLURM_ARRAY_TASK_STEP", 1); err != nil {
				return Shard{}, "", err
			}
		}
		if getenv("SLURM_ARRAY_TASK_MAX") != "" {
			hi, err := atoi("SLURM_ARRAY_TASK_MAX", 0)
			if err != nil {
				return Shard{}, "", err
			}
			if (hi-lo)/step+1 != count {
				return Shard{}, "", &ShardError{"SLURM_ARRAY_TASK_COUNT", strconv.Itoa(count),
					fmt.Sprintf("%d tasks for a contiguous array %d-%d:%d (arrays with gaps cannot be mapped to shards; pass {shard} i/N)", (hi-lo)/step+1, lo, hi, step)}
			}
		}
		k := id - lo
		if k < 0 || k%step != 0 || k/step >= count {
			return Shard{}, "", &ShardError{"SLURM_ARRAY_TASK_ID", strconv.Itoa(id),
				fmt.Sprintf("an ID of the array %d..%d step %d with %d tasks (pass {shard} i/N for arrays with gaps)", lo, lo+(count-1)*step, step, count)}
		}
		return Shard{Index: k/step + 1, Count: count}, "SLURM_ARRAY_TASK_ID", nil
	}
	if getenv("JOB_COMPLETION_INDEX") != "" {
		idx, err := atoi("JOB_COMPLETION_INDEX", 0)
		if err != nil {
			return Shard{}, "", err
		}
		src := SourceShards
		if shards <= 0 {
			if getenv("DLSCHED_SHARDS") == "" {
				return Shard{}, "", &ShardError{"DLSCHED_SHARDS", `""`, "the shard count when JOB_COMPLETION_INDEX is set (set it to the Job's completions, or pass {shards} N)"}
			}
			if shards, err = atoi("DLSCHED_SHARDS", 1); err != nil {
				return Shard{}, "", err
			}
			src = "DLSCHED_SHARDS"
		}
		ref := src
		if src == SourceShards {
			ref = "{" + SourceShards + "}"
		}
		if idx >= shards {
			return Shard{}, "", &ShardError{"JOB_COMPLETION_INDEX", strconv.Itoa(idx), fmt.Sprintf("an index below the shard count %d (from %s)", shards, ref)}
		}
		return Shard{Index: idx + 1, Count: shards}, "JOB_COMPLETION_INDEX", nil
	}
	return Shard{}, "", nil
}
