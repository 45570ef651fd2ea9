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

// series is one series of a recording, recorded between two calibrations
// of its own: a pass of the fixed-rate runs, the tools, a pass of the
// waiting series or a ladder run. A series that drifts is recorded again,
// and that is one pass, not all of them; and the corpus has a calibration
// pair per pass.
type series struct {
	Name  string // {series} of calibration/{series}-{phase}.csv
	Kind  string // fixed-rate, tools, waiting or ladder
	Pass  int    // the pass or ladder run (1, 2, ...); 0 for the tools
	Files []string
}

// Series kinds, in recording order.
const (
	kindFixed   = "fixed-rate"
	kindTools   = "tools"
	kindWaiting = "waiting"
	kindLadder  = "ladder"
)

// planSeries lists the series of a recording of p in recording order,
// each with the data files it writes.
func planSeries(p Plan) []series {
	var out []series
	for pass := 1; pass <= p.Fixed.Passes; pass++ {
		s := series{Name: fmt.Sprintf("%s-p%d", kindFixed, pass), Kind: kindFixed, Pass: pass}
		for _, sv := range p.Servers {
			for _, t := range p.Fixed.Tests {
				for _, rate := range t.Rates {
					s.Files = append(s.Files, wrk2Name(sv, t.Endpoint, rate, p.Fixed.Connections, pass))
				}
			}
		}
		out = append(out, s)
	}
	tools := series{Name: kindTools, Kind: kindTools}
	for _, sv := range p.Servers {
		for _, e := range p.Tools.Endpoints {
			tools.Files = append(tools.Files, abName(sv, e, p.Tools.Connections),
				bombardierName(sv, e, p.Tools.Connections), k6ConstantName(sv, e, p.Tools.K6Rate))
		}
	}
	out = append(out, tools)
	for pass := 1; pass <= p.Waiting.Passes; pass++ {
		s := series{Name: fmt.Sprintf("%s-p%d", kindWaiting, pass), Kind: kindWaiting, Pass: pass}
		for _, sv := range p.Servers {
			for _, c := range p.Waiting.Concurrencies {
				s.Files = append(s.Files, waitingName(sv, c, pass))
			}
		}
		out = append(out, s)
	}
	for run := 1; run <= p.Ladder.Runs; run++ {
		s := series{Name: fmt.Sprintf("%s-p%d", kindLadder, run), Kind: kindLadder, Pass: run}
		for _, sv := range p.Servers {
			s.Files = append(s.Files, ladderPointsName(sv, p.Ladder.Endpoint, run), ladderSummaryName(sv, p.Ladder.Endpoint, run))
		}
		out = append(out, s)
	}
	return out
}

// PlannedFiles lists every data file a recording of p writes (not
// README.md and wra.toml), sorted.
func PlannedFiles(p Plan) []string {
	out := []string{recordsName, memoryName, calibrationName(noiseSeries, "before"), calibrationName(noiseSeries, "after")}
	for _, s := range planSeries(p) {
		out = append(out, s.Files...)
		out = append(out, calibrationName(s.Name, "before"), calibrationName(s.Name, "after"))
	}
	sort.Strings(out)
	return out
}
