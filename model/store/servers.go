package store

import (
	"context"
	"strings"

	"github.com/wra-bench/wra/model"
)

// Servers selects runs by their server (model.Servers).
type Servers = model.Servers

// serversWhere is the condition that col, a server column, is one of
// f's: TRUE for a nil f.
func serversWhere(f *Servers, col string) string {
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
