package record

import (
	"fmt"
	"sort"
)

// The corpus layout: every file the harness writes, relative to the corpus
// root. wra.toml's entries (manifest.go) describe exactly these names.

func wrk2Name(server string, e Endpoint, rate, conns, pass int) string {
	return fmt.Sprintf("wrk2/%s/%s-r%d-c%d-p%d.txt", server, e.Test, rate, conns, pass)
}

func abName(server string, e Endpoint, conns int) string {
	return fmt.Sprintf("tools/ab/%s/%s-c%d.txt", server, e.Test, conns)
}

func bombardierName(server string, e Endpoint, conns int) string {
	return fmt.Sprintf("tools/bombardier/%s/%s-c%d.txt", server, e.Test, conns)
}

func k6ConstantName(server string, e Endpoint, rate int) string {
	return fmt.Sprintf("tools/k6/%s/%s-r%d.txt", server, e.Test, rate)
}

func waitingName(server string, conc, pass int) string {
	return fmt.Sprintf("waiting/%s/c%d-p%d.txt", server, conc, pass)
}

func ladderPointsName(server string, e Endpoint, run int) string {
	return fmt.Sprintf("ladder/%s/%s-p%d.ndjson.gz", server, e.Test, run)
}

func ladderSummaryName(server string, e Endpoint, run int) string {
	return fmt.Sprintf("ladder/%s/%s-p%d.summary.json", server, e.Test, run)
}

func calibrationName(series, phase string) string {
	return fmt.Sprintf("calibration/%s-%s.csv", series, phase)
}

const (
	recordsName = "records/fixed-rate.csv"
	memoryName  = "memory/waiting.csv"
)

// seriesNames are the series in recording order (each between calibrations).
var seriesNames = []string{"fixed-rate", "tools", "waiting", "ladder"}

// PlannedFiles lists every data file a recording of p writes (not
// README.md and wra.toml), sorted.
func PlannedFiles(p Plan) []string {
	var out []string
	add := func(s string) { out = append(out, s) }
	for pass := 1; pass <= p.Fixed.Passes; pass++ {
		for _, s := range p.Servers {
			for _, t := range p.Fixed.Tests {
				for _, rate := range t.Rates {
					add(wrk2Name(s, t.Endpoint, rate, p.Fixed.Connections, pass))
				}
			}
		}
	}
	add(recordsName)
	for _, s := range p.Servers {
		for _, e := range p.Tools.Endpoints {
			add(abName(s, e, p.Tools.Connections))
			add(bombardierName(s, e, p.Tools.Connections))
			add(k6ConstantName(s, e, p.Tools.K6Rate))
		}
	}
	for pass := 1; pass <= p.Waiting.Passes; pass++ {
		for _, s := range p.Servers {
			for _, c := range p.Waiting.Concurrencies {
				add(waitingName(s, c, pass))
			}
		}
	}
	add(memoryName)
	for run := 1; run <= p.Ladder.Runs; run++ {
		for _, s := range p.Servers {
			add(ladderPointsName(s, p.Ladder.Endpoint, run))
			add(ladderSummaryName(s, p.Ladder.Endpoint, run))
		}
	}
	for _, s := range append([]string{noiseSeries}, seriesNames...) {
		add(calibrationName(s, "before"))
		add(calibrationName(s, "after"))
	}
	sort.Strings(out)
	return out
}
