package analyze

import (
	"cmp"
	"slices"
	"strings"

	"github.com/wra-bench/wra/model"
)

// caveatNotes gathers the caveats of the groups behind the rows of one
// table (the store's group_caveats, in its words) and footnotes each
// once, naming the rows it belongs to: "go-pgx, node-pg: one run: …".
type caveatNotes struct {
	of    map[string][]model.Caveat // the analysis's caveats by group
	order []string                  // caveat texts, first seen first
	rows  map[string][]string       // caveat text: the rows it is beside
	all   []string                  // every row added
	// noun, where set, names the rows as one list: "finding 2",
	// "findings 1, 3"
	noun string
	// every names all the rows, "every row" where unset
	every string
}

func (a *analysis) newCaveats() *caveatNotes {
	return &caveatNotes{of: a.caveats, rows: map[string][]string{}}
}

// add notes the caveats of the groups ids under the row name row; only
// those of the given kinds where kinds are given.
func (c *caveatNotes) add(row string, ids []string, kinds ...string) {
	if !slices.Contains(c.all, row) {
		c.all = append(c.all, row)
	}
	for _, id := range ids {
		for _, cv := range c.of[id] {
			if len(kinds) > 0 && !slices.Contains(kinds, cv.Kind) {
				continue
			}
			if _, ok := c.rows[cv.Text]; !ok {
				c.order = append(c.order, cv.Text)
			}
			if !slices.Contains(c.rows[cv.Text], row) {
				c.rows[cv.Text] = append(c.rows[cv.Text], row)
			}
		}
	}
}

// to adds the footnotes to n, after its own: "every row: …" where a
// caveat is beside every row of a table of two or more.
func (c *caveatNotes) to(n *notes) {
	for _, text := range c.order {
		rows := strings.Join(c.rows[text], "; ")
		switch {
		case len(c.all) > 1 && len(c.rows[text]) == len(c.all):
			rows = cmp.Or(c.every, "every row")
		case c.noun != "" && len(c.rows[text]) == 1:
			rows = c.noun + " " + rows
		case c.noun != "":
			rows = c.noun + "s " + strings.Join(c.rows[text], ", ")
		}
		n.add(rows + ": " + text)
	}
}

// rowName names a row of a table after its group's server, database and
// variant, those that are set, by the names the manifest gives their
// values ([labels.<key>] names), as the tables show them.
func (a *analysis) rowName(server, database, variant string) string {
	return rowName(a.disp.Name("server", server), a.disp.Name("database", database), variant)
}

// serverName names a server in a footnote by its display name.
func (a *analysis) serverName(s string) string { return serverName(a.disp.Name("server", s)) }

// rowName names a row after the names of its server, database and
// variant, those that are set.
func rowName(server, database, variant string) string {
	name := serverName(server)
	if database != "" {
		name += " (" + database
		if variant != "" {
			name += ", " + variant
		}
		name += ")"
	} else if variant != "" {
		name += " (" + variant + ")"
	}
	return name
}

// has reports whether a caveat of one of the kinds given is among
// those added.
func (c *caveatNotes) has(kind string) bool {
	for _, text := range c.order {
		for _, cvs := range c.of {
			for _, cv := range cvs {
				if cv.Text == text && cv.Kind == kind {
					return true
				}
			}
		}
	}
	return false
}
