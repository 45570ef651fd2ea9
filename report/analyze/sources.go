package analyze

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/report"
)

// The findings' runs and rows, for people: where each finding's runs
// were read, and the rows of the published tables that hold them.

// boundedSources is sourcesText naming at most max files, then "and N
// more files".
func boundedSources(srcs []report.Source, max int) string {
	var files []string
	for _, s := range srcs {
		if !slices.Contains(files, s.File) {
			files = append(files, s.File)
		}
	}
	if len(files) <= max {
		return sourcesText(srcs)
	}
	var kept []report.Source
	for _, s := range srcs {
		if slices.Contains(files[:max], s.File) {
			kept = append(kept, s)
		}
	}
	return fmt.Sprintf("%s; and %d more files", sourcesText(kept), len(files)-max)
}

// sourcesText joins sources as file:line,line,…; files apart by "; ",
// runs of consecutive lines as a range.
func sourcesText(srcs []report.Source) string {
	var files []string
	lines := map[string][]int{}
	for _, s := range srcs {
		if _, ok := lines[s.File]; !ok {
			files = append(files, s.File)
		}
		if s.Line > 0 {
			lines[s.File] = append(lines[s.File], s.Line)
		}
	}
	var out []string
	for _, f := range files {
		ls := slices.Compact(slices.Sorted(slices.Values(lines[f])))
		if len(ls) == 0 {
			out = append(out, f)
			continue
		}
		var parts []string
		for i := 0; i < len(ls); {
			j := i
			for j+1 < len(ls) && ls[j+1] == ls[j]+1 {
				j++
			}
			if j > i {
				parts = append(parts, fmt.Sprintf("%d-%d", ls[i], ls[j]))
			} else {
				parts = append(parts, strconv.Itoa(ls[i]))
			}
			i = j + 1
		}
		out = append(out, f+":"+strings.Join(parts, ","))
	}
	return strings.Join(out, "; ")
}

// rowsIndex finds the rows of the published tables behind a set of runs.
type rowsIndex map[string][]tableRow

type tableRow struct {
	section, table string
	row            int
}

func rowIndex(res *Result) rowsIndex {
	idx := rowsIndex{}
	files := res.TableFiles()
	for _, sec := range res.Sections {
		for _, t := range sec.Tables {
			for ri, srcs := range t.RowSources {
				for _, s := range srcs {
					k := s.String()
					tr := tableRow{sec.ID, files[t], ri + 1}
					if l := idx[k]; len(l) == 0 || l[len(l)-1] != tr {
						idx[k] = append(idx[k], tr)
					}
				}
			}
		}
	}
	return idx
}

// behind names the tables of section (of any section when it is empty)
// and their rows that hold any of srcs: "cpu-per-request-one-250rps: rows 1, 3".
func (idx rowsIndex) behind(section string, srcs []report.Source) string {
	var tables []string
	rows := map[string][]int{}
	for _, s := range srcs {
		for _, tr := range idx[s.String()] {
			if section != "" && tr.section != section {
				continue
			}
			if _, ok := rows[tr.table]; !ok {
				tables = append(tables, tr.table)
			}
			if !slices.Contains(rows[tr.table], tr.row) {
				rows[tr.table] = append(rows[tr.table], tr.row)
			}
		}
	}
	var out []string
	for _, t := range tables {
		rs := slices.Sorted(slices.Values(rows[t]))
		word := "rows"
		if len(rs) == 1 {
			word = "row"
		}
		var nums []string
		for _, r := range rs {
			nums = append(nums, strconv.Itoa(r))
		}
		out = append(out, fmt.Sprintf("%s: %s %s", t, word, strings.Join(nums, ", ")))
	}
	return strings.Join(out, "; ")
}
