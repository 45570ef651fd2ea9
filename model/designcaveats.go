package model

import "slices"

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
