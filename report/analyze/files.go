package analyze

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jedib0t/go-pretty/v6/text"

	"github.com/wra-bench/wra/report"
)

// WriteFiles writes an analysis into dir: index.html (the report page,
// self-contained, or linking the plots' SVG files as inline says:
// report.InlinePlots), report.md, tables/<section>-<keys>.csv|json|md and
// plots/<name>.svg|png. Names and bytes depend only on the result and
// inline.
func WriteFiles(dir string, res *Result, inline report.InlinePlots) error {
	for _, sub := range []string{"tables", "plots"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var md bytes.Buffer
	md.WriteString("# Benchmark report\n\n")
	page := &report.Page{Title: "Benchmark report", Inline: inline}
	var skipped []string
	files := res.TableFiles()
	for _, sec := range res.Sections {
		if sec.Skipped != "" {
			skipped = append(skipped, fmt.Sprintf("%s: skipped, %s.", sec.Title, sec.Skipped))
			continue
		}
		ps := report.Section{Title: sec.Title, Bullets: slices.Clone(sec.Bullets), Remarks: sec.Remarks, Opening: sec.Opening}
		fmt.Fprintf(&md, "## %s\n\n", report.EscapeMarkdown(sec.Title))
		// A bullet's charts stand under it in report.md, as beside it on
		// the page.
		charts := map[int][]string{}
		for _, fig := range sec.Figures {
			if fig.Bullet > 0 {
				charts[fig.Bullet-1] = append(charts[fig.Bullet-1], fmt.Sprintf("![%s](plots/%s.svg)", report.EscapeMarkdown(fig.Caption), fig.Name))
			}
		}
		writeBullets(&md, sec.Bullets, sec.Remarks, charts)
		for _, t := range sec.Tables {
			base := files[t]
			for _, f := range []report.Format{report.CSV, report.JSON, report.Markdown} {
				ext := map[report.Format]string{report.CSV: "csv", report.JSON: "json", report.Markdown: "md"}[f]
				var b bytes.Buffer
				if err := report.Write(&b, t, f); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, "tables", base+"."+ext), b.Bytes(), 0o644); err != nil {
					return err
				}
			}
			if len(sec.Bullets) > 0 {
				continue // the list says it
			}
			if err := report.Write(&md, report.Untitled(t, sec.Title), report.Markdown); err != nil {
				return err
			}
			md.WriteString("\n")
			ps.Tables = append(ps.Tables, t)
		}
		for _, fig := range sec.Figures {
			svg, err := report.SVG(fig.Figure)
			if err != nil {
				return fmt.Errorf("plot %s: %w", fig.Name, err)
			}
			if err := os.WriteFile(filepath.Join(dir, "plots", fig.Name+".svg"), svg, 0o644); err != nil {
				return err
			}
			var png bytes.Buffer
			if err := report.WritePNG(&png, fig.Figure); err != nil {
				return fmt.Errorf("plot %s: %w", fig.Name, err)
			}
			if err := os.WriteFile(filepath.Join(dir, "plots", fig.Name+".png"), png.Bytes(), 0o644); err != nil {
				return err
			}
			pl := report.PagePlot{Caption: fig.Caption, SVG: svg, File: "plots/" + fig.Name + ".svg"}
			if fig.Bullet > 0 && fig.Bullet <= len(ps.Bullets) {
				ps.Bullets[fig.Bullet-1].Plots = append(ps.Bullets[fig.Bullet-1].Plots, pl)
				continue
			}
			fmt.Fprintf(&md, "![%s](plots/%s.svg)\n\n", report.EscapeMarkdown(fig.Caption), fig.Name)
			ps.Plots = append(ps.Plots, pl)
		}
		page.Sections = append(page.Sections, ps)
	}
	if len(skipped) > 0 {
		md.WriteString("## Skipped\n\n")
		for _, s := range skipped {
			fmt.Fprintf(&md, "- %s\n", report.EscapeMarkdown(s))
		}
		if !slices.ContainsFunc(res.Sections, func(s *Section) bool { return s.ID == "context" && s.Skipped == "" }) {
			page.Intro = append(page.Intro, skipped...) // else the context says it
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), md.Bytes(), 0o644); err != nil {
		return err
	}
	var html bytes.Buffer
	if err := report.WritePage(&html, page); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), html.Bytes(), 0o644)
}

// writeBullets writes a section's list and remarks as Markdown: the lead
// in bold, each note on a line of its own in italics, the details and
// the bullet's charts (images by bullet) beneath it.
func writeBullets(md *bytes.Buffer, bullets []report.Bullet, remarks []string, charts map[int][]string) {
	for i, b := range bullets {
		md.WriteString("- ")
		if b.Lead != "" {
			fmt.Fprintf(md, "**%s.**", report.EscapeMarkdown(b.Lead))
			if b.Text != "" {
				md.WriteString(" ")
			}
		}
		md.WriteString(report.EscapeMarkdown(b.Text))
		for _, l := range b.Lines {
			fmt.Fprintf(md, "\n  - %s", report.EscapeMarkdown(l))
		}
		for _, n := range b.Notes {
			fmt.Fprintf(md, "  \n  *%s*", report.EscapeMarkdown(n))
		}
		for _, d := range b.Details {
			fmt.Fprintf(md, "\n\n  %s", report.EscapeMarkdown(d))
		}
		for _, c := range charts[i] {
			fmt.Fprintf(md, "\n\n  %s", c)
		}
		if len(b.Details) > 0 || len(charts[i]) > 0 {
			md.WriteString("\n")
		}
		md.WriteString("\n")
	}
	if len(bullets) > 0 {
		md.WriteString("\n")
	}
	for _, r := range remarks {
		fmt.Fprintf(md, "%s\n\n", report.EscapeMarkdown(r))
	}
}

// TableFiles names the files of every table, without extension: the
// section and the table's keys (cpu-per-request-one-250rps), the same
// from run to run; a table without a name is numbered, and a name used
// twice gets -2, -3.
func (r *Result) TableFiles() map[*report.Data]string {
	out := map[*report.Data]string{}
	used := map[string]bool{}
	for _, sec := range r.Sections {
		for i, t := range sec.Tables {
			base := sec.ID
			switch {
			case t.Name != "":
				base += "-" + report.Slug(t.Name)
			case !sec.Single:
				base += fmt.Sprintf("-%d", i+1)
			}
			name := base
			for n := 2; used[name]; n++ {
				name = fmt.Sprintf("%s-%d", base, n)
			}
			used[name] = true
			out[t] = name
		}
	}
	return out
}

// Skipped lists the one-line notes of the sections that had no inputs.
func (r *Result) Skipped() []string {
	var out []string
	for _, s := range r.Sections {
		if s.Skipped != "" {
			out = append(out, strings.ToLower(s.Title)+": "+s.Skipped)
		}
	}
	return out
}

// BriefWidth is the width the brief summary wraps its lines at.
const BriefWidth = 100

// WriteBrief writes what a terminal shows of an analysis: the summary's
// sentences with their caveats and the findings' headlines with their
// notes (the caveats of the groups behind them), wrapped at BriefWidth, in place
// of every table (which the report's files and a pipe still get).
func WriteBrief(w io.Writer, res *Result) error {
	var b strings.Builder
	item := func(first, rest, s string) {
		for i, l := range strings.Split(text.WrapSoft(s, BriefWidth-len(first)), "\n") {
			l = strings.TrimRight(l, " ")
			if i == 0 {
				b.WriteString(first + l + "\n")
			} else {
				b.WriteString(rest + l + "\n")
			}
		}
	}
	for _, sec := range res.Sections {
		if sec.Skipped != "" || (sec.ID != "summary" && sec.ID != "findings") {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(sec.Title + "\n")
		for _, bl := range sec.Bullets {
			lead := bl.Lead
			if sec.ID == "summary" {
				lead = "- " + lead + "."
			}
			item("", "  ", strings.TrimSpace(lead+" "+bl.Text))
			for _, l := range bl.Lines {
				item("    ", "      ", l)
			}
			for _, n := range bl.Notes {
				item("  caveat: ", "    ", n) // the groups' caveats, in the tables' words
			}
		}
		if sec.ID == "findings" {
			for _, r := range sec.Remarks {
				item("  note: ", "    ", r)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
