package main

// The inputs of wra cost: the price book, the combinations of flags, the
// stack given on the command line, and the flag behind a bad input.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model/store"
)

// costFlags maps the model's input names to the flags that set them.
var costFlags = map[cost.Field]string{
	cost.FieldRPS:         "--rps",
	cost.FieldUtilisation: "--util",
	cost.FieldWait:        "--wait",
	cost.FieldLatency:     "--latency",
	cost.FieldBudget:      "--budget",
	cost.FieldCPU:         "--cpu-ms",
	cost.FieldDBCPU:       "--db-cpu-ms",
	cost.FieldMemory:      "--mem-gib",
	cost.FieldMemoryBase:  "--mem-base-gib",
	cost.FieldMemorySlope: "--mem-slope-gib-per-1000",
	cost.FieldDBMemory:    "--db-mem-gib",
}

// book is the presets plus the --prices file.
func (o *costOptions) book() (*cost.Book, error) {
	b := cost.NewBook()
	if o.prices == "" {
		return b, nil
	}
	data, err := os.ReadFile(o.prices)
	if err != nil {
		return nil, fmt.Errorf("--prices: %w", err)
	}
	prices, err := cost.ParseBook(o.prices, data)
	if err != nil {
		return nil, err
	}
	for _, p := range prices {
		if err := b.Add(p); err != nil {
			return nil, fmt.Errorf("%s: %v", o.prices, err)
		}
	}
	return b, nil
}

func (o *costOptions) checkCombinations() error {
	switch {
	case o.changed("budget") && o.sweep != "":
		return usagef("give --budget or --sweep, not both")
	case o.plot != "" && o.sweep == "":
		return usagef("--plot draws a sweep: give --sweep rps=A..B as well")
	case o.plot != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(o.plot))):
		return usagef("--plot %q: the file name must end in .svg or .png", o.plot)
	case o.changed("mem-gib") && (o.changed("mem-slope-gib-per-1000") || o.changed("mem-base-gib")):
		return usagef("give --mem-gib (fixed) or --mem-slope-gib-per-1000 with --mem-base-gib, not both")
	case o.changed("mem-base-gib") && !o.changed("mem-slope-gib-per-1000"):
		return usagef("--mem-base-gib needs --mem-slope-gib-per-1000 (for a fixed memory give --mem-gib)")
	}
	for _, name := range []string{"db-cpu-ms", "mem-gib", "mem-slope-gib-per-1000", "mem-base-gib"} {
		if o.changed(name) && !o.changed("cpu-ms") {
			return usagef("--%s needs --cpu-ms: numbers from the command line replace the store's, and the stack's CPU per request is one of them", name)
		}
	}
	return nil
}

// fromCommandLine reports whether the stack is given by flags rather than
// read from the store.
func (o *costOptions) fromCommandLine() bool { return o.changed("cpu-ms") }

func (o *costOptions) commandLineStack() (cost.Stack, []string, error) {
	s := cost.Stack{
		Server:           o.server,
		Database:         o.database,
		Test:             o.test,
		CPUPerRequestS:   o.cpuMS / 1000,
		DBCPUPerRequestS: o.dbCPUMS / 1000,
		DBMemoryGiB:      o.dbMemGiB,
	}
	if s.Server == "" {
		s.Server = "stack"
	}
	if s.Database == "" && (o.changed("db-cpu-ms") || o.changed("db-mem-gib")) {
		s.Database = "database"
	}
	var notes []string
	switch {
	case o.changed("mem-gib"):
		s.Memory = cost.FixedMemory(o.memGiB)
	case o.changed("mem-slope-gib-per-1000"):
		s.Memory = cost.LinearMemory(o.memBase, o.memSlope)
	default:
		notes = append(notes, "No memory given (--mem-gib or --mem-slope-gib-per-1000): the stack's memory is priced at 0 GiB.")
	}
	if err := s.Validate(); err != nil {
		var nc *cost.NoCPUDataError
		if errors.As(err, &nc) {
			return s, nil, usagef("--cpu-ms must be > 0: the stack's CPU milliseconds per request")
		}
		return s, nil, inputError(err)
	}
	return s, notes, nil
}

// inputError turns a model error into one naming the flag where a flag
// set the input.
func inputError(err error) error {
	var ie *cost.InputError
	if errors.As(err, &ie) {
		if f, ok := costFlags[ie.Field]; ok {
			return usagef("%s: %v", f, err)
		}
	}
	return err
}

// putPrices records the price book in the store's prices table (wra
// ingest and wra analyze record the presets: wra cost only reads).
func putPrices(ctx context.Context, st *store.Store, b *cost.Book) error {
	var rows []store.PriceRow
	for _, p := range b.Prices() {
		rows = append(rows, store.PriceRow{
			Provider:    p.Provider,
			Region:      p.Region,
			Arch:        p.Arch,
			VCPUHourUSD: p.VCPUHourUSD,
			GiBHourUSD:  p.GiBHourUSD(),
			AsOf:        p.AsOf,
			SourceURL:   p.SourceURL,
		})
	}
	return st.PutPrices(ctx, rows)
}
