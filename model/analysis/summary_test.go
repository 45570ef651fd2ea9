package analysis

import (
	"strings"
	"testing"
)

func TestContestSentence(t *testing.T) {
	blocks := func(vs ...float64) map[string][]float64 {
		m := map[string][]float64{}
		for i, v := range vs {
			m[string(rune('1'+i))] = []float64{v}
		}
		return m
	}
	cpu := contest{unit: " µs", lower: true, best: "uses the least"}
	for _, tc := range []struct {
		name    string
		k       contest
		want    string
		how     string
		paired  bool
		tie, ok bool
	}{
		{
			name: "paired, a clear leader, the next and the last",
			k: withContenders(cpu,
				contender{name: "a", value: 100, blocks: blocks(100, 80, 120, 90, 110)},
				contender{name: "b", value: 120, blocks: blocks(120, 96, 144, 108, 132)},
				contender{name: "c", value: 150, blocks: blocks(150, 120, 180, 135, 165)}),
			want: "a uses the least, 100 µs; next b ×1.20 (1.20–1.20), last c ×1.50 (1.50–1.50)", how: "within 5 trials", paired: true, ok: true,
		},
		{
			name: "paired, the leader's interval with the next includes 1: a tie for the lead",
			k: withContenders(cpu,
				contender{name: "a", value: 100, blocks: blocks(100, 100, 100, 100, 100)},
				contender{name: "b", value: 101, blocks: blocks(110, 90, 105, 95, 101)},
				contender{name: "c", value: 150, blocks: blocks(150, 150, 150, 150, 150)}),
			want: "a at 100 µs ties for the lead with b ×1.01 (0.900–1.10); next c ×1.50 (1.50–1.50)", how: "within 5 trials", paired: true, ok: true,
		},
		{
			name: "unpaired, the ranges overlap: a tie",
			k: withContenders(cpu,
				contender{name: "a", value: 10, values: []float64{9, 10, 12}},
				contender{name: "b", value: 11, values: []float64{11, 11, 14}}),
			want: "a tie: a at 10.0 µs and b at 11.0 µs", tie: true, ok: true,
		},
		{
			name: "unpaired, the ranges apart: a leader, by the ratio of the medians",
			k: withContenders(contest{unit: " requests/s", best: "serves the most"},
				contender{name: "a", value: 300, values: []float64{290, 300, 310}},
				contender{name: "b", value: 100, values: []float64{90, 100, 110}}),
			want: "a serves the most, 300 requests/s; next b ×3.00", how: "from the medians", ok: true,
		},
		{
			name: "a ladder that held every step against one that held none: no ratio to 0",
			k: withContenders(contest{unit: " requests/s", best: "holds the highest rate"},
				contender{name: "a", value: 800, plus: true, values: []float64{800, 800, 800}},
				contender{name: "b", value: 0, values: []float64{0, 0, 0}}),
			want: "a holds the highest rate, 800+ requests/s; next b at 0 requests/s", how: "from the medians", ok: true,
		},
		{
			name: "one contender: nothing to compare",
			k:    withContenders(cpu, contender{name: "a", value: 1}),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, how, paired, tie, ok := tc.k.sentence()
			if got != tc.want || how != tc.how || paired != tc.paired || tie != tc.tie || ok != tc.ok {
				t.Errorf("got %q, how %q, paired %v, tie %v, ok %v\nwant %q, how %q, paired %v, tie %v, ok %v",
					got, how, paired, tie, ok, tc.want, tc.how, tc.paired, tc.tie, tc.ok)
			}
		})
	}
}

func withContenders(k contest, cs ...contender) contest {
	k.cs = cs
	return k
}

func TestParseReadme(t *testing.T) {
	c := parseReadme([]byte("# A **real** benchmark\n\nSome `code` and a [link](http://x) here,\nwrapped.\n\n    wra analyze data/\n\nSecond paragraph.\n"))
	if c.Title != "A real benchmark" || c.Paragraph != "Some code and a link here, wrapped." {
		t.Errorf("got %+v", c)
	}
	c = parseReadme([]byte("```\n# not a title\n```\n| a | b |\n- item\n\nProse only.\n"))
	if c.Title != "" || c.Paragraph != "Prose only." || !strings.HasPrefix(c.Paragraph, "Prose") {
		t.Errorf("got %+v", c)
	}
}

// A server named alike in two parts of a bullet, for two groups (its
// ladders of two tests), is two rows for the caveats; the same groups
// under one name in two parts (a stack's total and database CPU) are one.
func TestRowsDiffer(t *testing.T) {
	ladders := []contest{
		{part: "the k6 ladder of page", cs: []contender{{row: "go", ids: []string{"g-page"}}}},
		{part: "the fixed-rate ladder of one", cs: []contender{{row: "go", ids: []string{"g-one-100", "g-one-200"}}}},
	}
	if !rowsDiffer(ladders) {
		t.Error("go stands for two groups in two parts: rowsDiffer false")
	}
	cpu := []contest{
		{part: "stack + database", cs: []contender{{row: "go (postgresql)", ids: []string{"g1"}}}},
		{part: "database CPU on postgresql", cs: []contender{{row: "go (postgresql)", ids: []string{"g1"}}}},
	}
	if rowsDiffer(cpu) {
		t.Error("go (postgresql) is one group in both parts: rowsDiffer true")
	}
}
