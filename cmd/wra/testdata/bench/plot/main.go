// Command plot draws the results of scaling.sh: the CPU time (user +
// system) of wra analyze at each corpus size, one bar per phase, the
// repeated runs as the bar's spread.
//
//	go run ./cmd/wra/testdata/bench/plot RESULTS.csv OUT.svg
package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"

	"github.com/wra-bench/wra/report"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: plot RESULTS.csv OUT.svg")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	if len(rows) < 2 {
		return fmt.Errorf("%s: no results", args[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var groups []report.BarGroup
	index := map[[2]string]int{}
	for n, r := range rows[1:] {
		user, err1 := strconv.ParseFloat(r[col["user_s"]], 64)
		sys, err2 := strconv.ParseFloat(r[col["sys_s"]], 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s:%d: user_s and sys_s must be numbers", args[0], n+2)
		}
		key := [2]string{r[col["factor"]] + "x (" + r[col["files"]] + " files)", r[col["phase"]]}
		i, ok := index[key]
		if !ok {
			i = len(groups)
			index[key] = i
			groups = append(groups, report.BarGroup{Label: key[0], Series: key[1]})
		}
		groups[i].Values = append(groups[i].Values, user+sys)
	}
	b, err := report.SVG(&report.BarChart{
		Title:  "wra analyze: CPU time against corpus size",
		XLabel: "corpus (copies of data/)",
		YLabel: "CPU time, user + system (s)",
		Groups: groups,
	})
	if err != nil {
		return err
	}
	return os.WriteFile(args[1], b, 0o644)
}
