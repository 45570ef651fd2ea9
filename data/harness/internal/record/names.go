package record

import (
	"fmt"
	"sort"
)

// The corpus layout: every file the harness writes, relative to the corpus
// root. Each run's files are under its trial's folder t<N> of its series;
// wra.toml's entries (manifest.go) describe exactly these names.

func trialFolder(series string, trial int) string { return fmt.Sprintf("%s/t%d", series, trial) }

func wrk2Name(trial int, server string, e Endpoint, rate, conns int) string {
	return fmt.Sprintf("%s/%s/%s-r%d-c%d.txt", trialFolder("wrk2", trial), server, e.Test, rate, conns)
}

func abName(trial int, server string, e Endpoint, conns int) string {
	return fmt.Sprintf("%s/ab/%s/%s-c%d.txt", trialFolder("tools", trial), server, e.Test, conns)
}

func bombardierName(trial int, server string, e Endpoint, conns int) string {
	return fmt.Sprintf("%s/bombardier/%s/%s-c%d.txt", trialFolder("tools", trial), server, e.Test, conns)
}

func k6ConstantName(trial int, server string, e Endpoint, rate int) string {
	return fmt.Sprintf("%s/k6/%s/%s-r%d.txt", trialFolder("tools", trial), server, e.Test, rate)
}

func waitingName(trial int, server string, conc int) string {
	return fmt.Sprintf("%s/%s/c%d.txt", trialFolder("waiting", trial), server, conc)
}

func ladderPointsName(trial int, server string, e Endpoint) string {
	return fmt.Sprintf("%s/%s/%s.ndjson.gz", trialFolder("ladder", trial), server, e.Test)
}

func ladderSummaryName(trial int, server string, e Endpoint) string {
	return fmt.Sprintf("%s/%s/%s.summary.json", trialFolder("ladder", trial), server, e.Test)
}

// calibrationName is a calibration file: calibration/<pair>-before.csv
// and -after.csv, which wra pairs by the word before/after.
func calibrationName(pair, phase string) string {
	return fmt.Sprintf("calibration/%s-%s.csv", pair, phase)
}

// trialPair names the calibration pair around a trial: trial-3.
func trialPair(trial int) string { return fmt.Sprintf("trial-%d", trial) }

const (
	recordsName  = "records/fixed-rate.csv"
	memoryName   = "memory/waiting.csv"
	scheduleName = "trials.csv"
)

// Series kinds, the first word of a cell's name.
const (
	kindFixed   = "fixed-rate"
	kindTools   = "tools"
	kindWaiting = "waiting"
	kindLadder  = "ladder"
)

// files are the data files a cell writes in a trial, its report first.
func (c Cell) files(p Plan, trial int) []string {
	switch c.Kind {
	case kindFixed:
		return []string{wrk2Name(trial, c.Server, c.Endpoint, c.Rate, p.Fixed.Connections)}
	case kindTools:
		switch c.Tool {
		case toolAB:
			return []string{abName(trial, c.Server, c.Endpoint, p.Tools.Connections)}
		case toolBombardier:
			return []string{bombardierName(trial, c.Server, c.Endpoint, p.Tools.Connections)}
		}
		return []string{k6ConstantName(trial, c.Server, c.Endpoint, c.Rate)}
	case kindWaiting:
		return []string{waitingName(trial, c.Server, c.Concurrency)}
	}
	return []string{ladderPointsName(trial, c.Server, c.Endpoint), ladderSummaryName(trial, c.Server, c.Endpoint)}
}

// PlannedFiles lists every data file a recording of p writes (not
// README.md, wra.toml and trials.csv), sorted.
func PlannedFiles(p Plan) []string {
	out := []string{recordsName, memoryName, calibrationName(noisePair, "before"), calibrationName(noisePair, "after")}
	cells := p.Cells()
	for trial := 1; trial <= p.Trials; trial++ {
		for _, c := range cells {
			out = append(out, c.files(p, trial)...)
		}
		out = append(out, calibrationName(trialPair(trial), "before"), calibrationName(trialPair(trial), "after"))
	}
	sort.Strings(out)
	return out
}
