package store

import (
	"context"
	"strings"
)

// Servers selects runs by their server (runs.server). Every grouping of
// the store holds servers apart: a group of run_groups, a harness record
// paired with a report (run_pairs) and a ladder run of ladder_steps each
// belong to one server, so the rows of a server's runs are the same
// whether the other servers are read or not. A reader that takes a
// *Servers adds its condition to the rows of its view, and DuckDB pushes
// it below the views' windows and joins into the scans of runs: a
// command that reads two stacks of forty computes the groups of those two.
// A nil *Servers selects every run.
type Servers struct {
	// Names are the servers selected.
	Names []string
	// Unnamed selects the runs without a server too.
	Unnamed bool
}

// where is the condition that col, a server column, is one of f's: TRUE
// for a nil f.
func (f *Servers) where(col string) string {
	if f == nil {
		return "TRUE"
	}
	var or []string
	if len(f.Names) > 0 {
		lits := make([]string, len(f.Names))
		for i, n := range f.Names {
			lits[i] = sqlString(n)
		}
		or = append(or, col+" IN ("+strings.Join(lits, ", ")+")")
	}
	if f.Unnamed {
		or = append(or, col+" IS NULL")
	}
	if len(or) == 0 {
		return "FALSE"
	}
	return "(" + strings.Join(or, " OR ") + ")"
}

// serversOf returns the servers of the runs r (an alias of runs) for
// which cond, with its arguments, is true.
func (s *Store) serversOf(ctx context.Context, cond string, args []any) (*Servers, error) {
	f := &Servers{}
	err := s.eachNamed(ctx, `SELECT DISTINCT r.server FROM runs r WHERE `+cond+` ORDER BY 1`, args, func(row namedRow) error {
		if row.get("server") == nil {
			f.Unnamed = true
		} else {
			f.Names = append(f.Names, row.text("server"))
		}
		return nil
	})
	return f, err
}
