package main

import "github.com/urfave/cli/v2"

// farmCommand groups the processor-farm models: each model adds its
// subcommand to the list below (one file per model: farm_<model>.go).
func farmCommand() *cli.Command {
	return &cli.Command{
		Name:  "farm",
		Usage: "simulate a processor farm beside the paper's analytic model",
		Subcommands: []*cli.Command{
			pfarmCommand(), // paper 000
			neppCommand(),  // paper 001
			dayCommand(),   // paper 002
		},
	}
}
