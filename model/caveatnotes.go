package model

import (
	"cmp"
	"slices"
	"strings"
)

// CaveatNotes gathers the caveats of the groups behind the rows (or
// cells) of one table, as group_caveats words them, and footnotes each
// once, naming the rows it is beside: "go-pgx; node-pg: one run: …".
// It is how every table of wra prints a group's caveats: wra analyze's
// sections, wra table and the layouts of a manifest.
type CaveatNotes struct {
	// Of are the caveats by group (group_caveats' rows).
	Of map[string][]Caveat
	// Noun, where set, names the rows as one list: "finding 2",
	// "findings 1, 3".
	Noun string
	// Every names all the rows, "every row" where unset.
	Every string

	order []string            // caveat texts, first seen first
	rows  map[string][]string // caveat text: the rows it is beside
	all   []string            // every row added
}

// NewCaveatNotes gathers the caveats of of, by group.
func NewCaveatNotes(of map[string][]Caveat) *CaveatNotes {
	return &CaveatNotes{Of: of, rows: map[string][]string{}}
}

// Add notes the caveats of the groups ids under the row name row; only
// those of the given kinds where kinds are given.
func (c *CaveatNotes) Add(row string, ids []string, kinds ...string) {
	if c.rows == nil {
		c.rows = map[string][]string{}
	}
	if !slices.Contains(c.all, row) {
		c.all = append(c.all, row)
	}
	for _, id := range ids {
		for _, cv := range c.Of[id] {
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

// Lines are the footnotes, one per caveat in the order first added, each
// after the rows it is beside: "every row: …" where a caveat is beside
// every row of a table of two or more.
func (c *CaveatNotes) Lines() []string {
	var out []string
	for _, text := range c.order {
		rows := strings.Join(c.rows[text], "; ")
		switch {
		case len(c.all) > 1 && len(c.rows[text]) == len(c.all):
			rows = cmp.Or(c.Every, "every row")
		case c.Noun != "" && len(c.rows[text]) == 1:
			rows = c.Noun + " " + rows
		case c.Noun != "":
			rows = c.Noun + "s " + strings.Join(c.rows[text], ", ")
		}
		out = append(out, rows+": "+text)
	}
	return out
}

// Has reports whether a caveat of kind is among those added.
func (c *CaveatNotes) Has(kind string) bool {
	for _, text := range c.order {
		for _, cvs := range c.Of {
			for _, cv := range cvs {
				if cv.Text == text && cv.Kind == kind {
					return true
				}
			}
		}
	}
	return false
}

// DesignCaveats are the caveats of the groups of a store under one rule
// (group_caveats), and the groups of its runs by where each was read
// (RunGroupRefs): what a table needs to print, beside the figures of
// some runs, the caveats of their groups.
type DesignCaveats struct {
	Of     map[string][]Caveat
	Groups map[Source][]string
}

// NewDesignCaveats indexes the groups of refs by file and line.
func NewDesignCaveats(of map[string][]Caveat, refs []RunGroupRef) DesignCaveats {
	d := DesignCaveats{Of: of, Groups: map[Source][]string{}}
	for _, r := range refs {
		src := Source{File: r.Source, Line: r.Line}
		d.Groups[src] = append(d.Groups[src], r.GroupID)
	}
	return d
}

// GroupsAt appends to ids the groups of the runs read at srcs, each
// once.
func (d DesignCaveats) GroupsAt(ids []string, srcs ...Source) []string {
	for _, src := range srcs {
		for _, id := range d.Groups[src] {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}
