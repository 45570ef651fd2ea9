package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wra-bench/wra/report"
)

// WriteFiles writes an analysis into dir: index.html (the self-contained
// report page), report.md, tables/<section>-<keys>.csv|json|md and
// plots/<name>.svg|png. Names and bytes depend only on the result.
func WriteFiles(dir string, res *Result) error {
	for _, sub := range []string{"tables", "plots"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var md bytes.Buffer
	md.WriteString("# Benchmark report\n\n")
	page := &report.Page{Title: "Benchmark report"}
	var skipped []string
	files := res.TableFiles()
	for _, sec := range res.Sections {
		if sec.Skipped != "" {
			skipped = append(skipped, fmt.Sprintf("%s: skipped, %s.", sec.Title, sec.Skipped))
			continue
		}
		ps := report.Section{Title: sec.Title}
		fmt.Fprintf(&md, "## %s\n\n", report.EscapeMarkdown(sec.Title))
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
			if err := report.Write(&md, t, report.Markdown); err != nil {
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
			fmt.Fprintf(&md, "![%s](plots/%s.svg)\n\n", report.EscapeMarkdown(fig.Caption), fig.Name)
			ps.Plots = append(ps.Plots, report.PagePlot{Caption: fig.Caption, SVG: svg})
		}
		page.Sections = append(page.Sections, ps)
	}
	if len(skipped) > 0 {
		md.WriteString("## Skipped\n\n")
		for _, s := range skipped {
			fmt.Fprintf(&md, "- %s\n", report.EscapeMarkdown(s))
		}
		page.Intro = append(page.Intro, skipped...)
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
