package main

import (
	"fmt"
	"os"

	"github.com/dlsched/dlsched/executor/replay"
	"github.com/dlsched/dlsched/schedule"
	"github.com/urfave/cli/v2"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "replay a schedule (JSON from solve) on the executor and report violations",
		UsageText: "dlsched verify SCHEDULE.json",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("verify takes one argument, the schedule JSON file")
			}
			f, err := os.Open(c.Args().First())
			if err != nil {
				return usage(err)
			}
			defer f.Close()
			s, err := schedule.ReadJSON(f)
			if err != nil {
				return usagef("%s: %v", c.Args().First(), err)
			}
			v, err := replay.VerifyInput(s, replay.Options{Context: c.Context})
			if err != nil {
				if c.Context.Err() != nil {
					return err
				}
				// The schedule could not be replayed at all: malformed
				// or too large, which is bad input.
				return usagef("%s: %v", c.Args().First(), err)
			}
			if v.OK {
				fmt.Printf("ok: %d chunks on %d processors, makespan %.12g (stated Cmax %.12g, earliest %.12g), %d events\n",
					len(s.Chunks), v.Processors, v.Makespan, s.Cmax, v.EarliestMakespan, v.Events)
				return nil
			}
			fmt.Printf("FAILED: %d violation(s)\n", len(v.Violations))
			for _, x := range v.Violations {
				fmt.Printf("%s at %.12g: %s\n", x.Kind, x.Time, x.Message)
			}
			return cli.Exit("", 1)
		},
	}
}
