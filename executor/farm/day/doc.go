// Package day models the transputer processor farms of Day, "Farming Out:
// A Study" (PhD thesis, University of Kent, 1996, chapter 4): a farmer
// hands jobs to a line or a full ternary tree of workers through a
// harness, results return to a harvester (line) or to the farmer (tree),
// and the supply/demand model says when the farm is compute bound:
// supply B/(m + s) jobs per second through a link against demand w/j —
// with c = (m + s)/B the larger of the job and the result message, the
// farmer's links (one on a line, three on a tree, whose links carry the
// results back) and the farmer's CPU per job (FarmSupply).
//
// Predict evaluates the model (Sections 4.5, 4.9.3–4.9.4, 4.11.2, 4.12.1,
// Table 1, Table 4). Run evaluates it and simulates the farm on the
// executor kernel, with the harness's buffering expressed in slots
// (Harness: J shared job slots, P committed job slots per child link, R
// collector slots, Q inbound result slots per link), synchronous occam
// transfers (a transfer reserves its slot at the receiver when it starts
// and frees the sender's slot when it ends), links whose two directions
// slow each other down, the farmer's links as sacrificial buffers, and the
// thesis's workload of 100 job lengths per worker; the simulation can be
// recorded as a trace (platform.RunOptions.Trace, package trace).
// Granularity cuts a fixed amount of work into equal jobs (Section 4.10),
// the farming counterpart of dividing a load in equal chunks;
// FromPlatform builds a farm from a platform.Platform. Estimate gives a
// run's cost from its inputs, and runs beyond the options' limits are
// refused (*platform.LimitError); bad input is a *platform.FieldError
// naming the field in the package's words. Reports write themselves as
// versioned JSON (Format, StudyFormat). docs/day.md records the decisions
// and what is fitted.
package day
