package shell

import (
	"context"
	"fmt"
	"strings"

	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
)

// Help lists the shell's commands.
func Help() string {
	names := make([]string, len(report.Formats))
	for i, f := range report.Formats {
		names[i] = string(f)
	}
	return `Statements end with a semicolon and may span lines. Commands:
  .tables [NAME]      the tables, views and macros (those whose name has NAME)
  .schema [NAME]      the statements that make them (or the one named NAME),
                      after their comments and their columns' comments
  \d [NAME]           as .tables; with the name of one, its columns or parameters
  .format [FORMAT]    show or set the format of results: ` + strings.Join(names, ", ") + `
  .help, \?           this help
  .quit, .exit, \q    leave (as Ctrl-D does)
Ctrl-C drops the statement being typed, or stops the one running.
`
}

// command runs a dot or backslash command; quit is set by .quit.
func (s *session) command(ctx context.Context, line string) (quit bool, err error) {
	f := strings.Fields(line)
	name, args := f[0], f[1:]
	arg := strings.Join(args, " ")
	switch name {
	case ".quit", ".exit", `\q`:
		return true, nil
	case ".help", `\?`, `\h`:
		_, err := fmt.Fprint(s.out, Help())
		return false, err
	case ".format", `\format`:
		if arg == "" {
			_, err := fmt.Fprintf(s.out, "%s\n", s.format)
			return false, err
		}
		f, err := report.ParseFormat(arg)
		if err != nil {
			return false, err
		}
		s.format = f
		return false, nil
	case ".tables", `\dt`:
		return false, s.list(ctx, arg)
	case `\d`:
		if arg == "" {
			return false, s.list(ctx, "")
		}
		return false, s.describe(ctx, arg)
	case ".schema":
		return false, s.schema(ctx, arg)
	}
	return false, fmt.Errorf("unknown command %s: .help lists the commands", name)
}

// list prints the relations whose name contains part: their kind, how
// many columns a table or a view has, a macro's parameters, and their
// comment; \d NAME lists the columns.
func (s *session) list(ctx context.Context, part string) error {
	rels, err := s.st.Relations(ctx)
	if err != nil {
		return err
	}
	d := &report.Data{Columns: report.Columns("name", "kind", "columns", "parameters", "comment")}
	for _, r := range rels {
		if !strings.Contains(r.Name, part) {
			continue
		}
		var cols, params any
		if r.Columns != nil {
			cols = int64(len(r.Columns))
		} else {
			params = strings.Join(r.Params, ", ")
		}
		d.Rows = append(d.Rows, []any{r.Name, r.Kind, cols, params, nullable(r.Comment)})
	}
	return report.Write(s.out, d, s.format)
}

// describe prints the columns of one relation, or a macro's parameters
// and definition.
func (s *session) describe(ctx context.Context, name string) error {
	r, err := s.find(ctx, name)
	if err != nil {
		return err
	}
	if r.Columns == nil {
		d := &report.Data{Columns: report.Columns("macro", "parameters", "definition")}
		d.Rows = append(d.Rows, []any{r.Name, strings.Join(r.Params, ", "), r.SQL})
		return report.Write(s.out, d, s.format)
	}
	d := &report.Data{Columns: report.Columns("column", "type", "comment")}
	for _, c := range r.Columns {
		d.Rows = append(d.Rows, []any{c.Name, c.Type, nullable(c.Comment)})
	}
	if r.Comment != "" {
		if _, err := fmt.Fprintf(s.out, "%s %s: %s\n", r.Kind, r.Name, r.Comment); err != nil {
			return err
		}
	}
	return report.Write(s.out, d, s.format)
}

// schema prints the statements that make the relations, or the named one.
func (s *session) schema(ctx context.Context, name string) error {
	var rels []store.Relation
	if name != "" {
		r, err := s.find(ctx, name)
		if err != nil {
			return err
		}
		rels = []store.Relation{r}
	} else {
		var err error
		if rels, err = s.st.Relations(ctx); err != nil {
			return err
		}
	}
	for _, r := range rels {
		if _, err := fmt.Fprint(s.out, schemaComments(r), strings.TrimSpace(r.SQL), "\n"); err != nil {
			return err
		}
	}
	return nil
}

// schemaComments are the comments of a relation and of its columns as SQL
// comment lines, to go before the statement that makes it:
//
//	-- table runs: one row per load-tool report or harness record
//	--   run_id  VARCHAR  source:index, ...
func schemaComments(r store.Relation) string {
	var b strings.Builder
	if r.Comment != "" {
		fmt.Fprintf(&b, "-- %s %s: %s\n", r.Kind, r.Name, oneLine(r.Comment))
	}
	name, typ := 0, 0
	for _, c := range r.Columns {
		name, typ = max(name, len(c.Name)), max(typ, len(c.Type))
	}
	for _, c := range r.Columns {
		if c.Comment != "" {
			fmt.Fprintf(&b, "--   %-*s  %-*s  %s\n", name, c.Name, typ, c.Type, oneLine(c.Comment))
		}
	}
	return b.String()
}

// oneLine keeps a comment on its SQL comment line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// find returns the relation of a name.
func (s *session) find(ctx context.Context, name string) (store.Relation, error) {
	rels, err := s.st.Relations(ctx)
	if err != nil {
		return store.Relation{}, err
	}
	for _, r := range rels {
		if strings.EqualFold(r.Name, name) {
			return r, nil
		}
	}
	return store.Relation{}, fmt.Errorf("no table, view or macro %q: .tables lists them", name)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
