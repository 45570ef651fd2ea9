package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/wra-bench/wra/ingest"
	"github.com/wra-bench/wra/report/analyze"
	"github.com/wra-bench/wra/stats"
)

// findingFlags are the thresholds of the findings' rules: --find-NAME
// over the [findings] table of the folders' wra.toml over the defaults.
type findingFlags struct {
	flags *pflag.FlagSet
	vals  []float64
}

func flagName(setting string) string { return "find-" + strings.ReplaceAll(setting, "_", "-") }

func (ff *findingFlags) AddFlags(cmd *cobra.Command) {
	ff.flags = cmd.Flags()
	def := stats.DefaultFindingRules()
	settings := stats.FindingSettings()
	ff.vals = make([]float64, len(settings))
	for i, s := range settings {
		ff.flags.Float64Var(&ff.vals[i], flagName(s.Name), s.Get(def), "findings: "+s.Doc+" (wra.toml [findings] "+s.Name+")")
	}
}

// rules resolves the thresholds: the defaults, then the [findings] of each
// folder's wra.toml in the order given, then the flags set.
func (ff *findingFlags) rules(paths []string) (stats.FindingRules, error) {
	r := stats.DefaultFindingRules()
	mans, dirs, err := folderManifests(paths)
	if err != nil {
		return r, err
	}
	for i, m := range mans {
		p := dirs[i]
		for _, name := range slices.Sorted(maps.Keys(m.Findings)) {
			if err := r.Set(name, m.Findings[name]); err != nil {
				return r, fmt.Errorf("%s [findings]: %w", filepath.Join(p, ingest.ManifestName), err)
			}
		}
	}
	for i, s := range stats.FindingSettings() {
		if ff.flags.Changed(flagName(s.Name)) {
			if err := r.Set(s.Name, ff.vals[i]); err != nil {
				return r, usagef("--%s: %v", flagName(s.Name), err)
			}
		}
	}
	return r, nil
}

type findingsOptions struct {
	rule  stats.LadderRule
	drift float64
	find  findingFlags
}

func newFindingsCmd(e *env, g *globals) *cobra.Command {
	o := &findingsOptions{}
	cmd := &cobra.Command{
		Use:   "findings [FOLDER]",
		Short: "Print what the store's records show: the Findings of wra analyze",
		Long: `Print the Findings section of wra analyze from the store, read-only:
one sentence per finding with its numbers, the rule that fired, the rows
of the published tables behind it and the runs (file:line).

Rules: idle cost (CPU per request falls as the fixed rate rises), split at
equal load (servers fall into groups of CPU per request), outlier tail (a
p99 far above the other servers'), unstable and bent memory slopes, broken
counters (negative CPU, more 2xx than requests, a rate far above the
requested one), errors in one server only, shared limit (level
throughputs, different CPU per request), calibration drift, and a ladder
whose first step failed. A rule fires only with enough passes and an
effect beyond their noise. FOLDER's wra.toml may set the thresholds in a
[findings] table; --find-* flags override it.`,
		Example: `  wra findings
  wra findings --format markdown data/
  wra findings --find-alpha 0.01 --find-min-passes 5`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFindings(cmd.Context(), e, g, o, args)
		},
	}
	f := cmd.Flags()
	addLadderRuleFlags(f, &o.rule)
	addDriftFlag(f, &o.drift, analyze.DefaultOptions().DriftTolerance)
	o.find.AddFlags(cmd)
	return cmd
}

func runFindings(ctx context.Context, e *env, g *globals, o *findingsOptions, args []string) error {
	format, err := g.outputFormat(e)
	if err != nil {
		return err
	}
	opts := analyze.DefaultOptions()
	opts.LadderRule, opts.DriftTolerance = o.rule, o.drift
	if opts.Findings, err = o.find.rules(args); err != nil {
		return err
	}
	st, err := g.openStore(ctx, true)
	if err != nil {
		return err
	}
	defer st.Close()
	sec, err := analyze.Findings(ctx, st, opts)
	if err != nil {
		return err
	}
	// One table; its footnotes go to stderr in CSV and JSON.
	return writeTable(e, g, format, sec.Tables[0])
}
