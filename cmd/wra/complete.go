package main

import (
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/cost"
	"github.com/wra-bench/wra/model"
	"github.com/wra-bench/wra/model/store"
	"github.com/wra-bench/wra/report"
	"github.com/wra-bench/wra/report/compare"
)

// completer gives cobra's completion command (wra completion bash|zsh|
// fish|powershell) the values of flags and arguments: formats and price
// presets from wra itself, label keys and values and relation names
// from the store named by --db, opened read-only (nothing when there is
// none).
type completer struct{ g *globals }

type completeFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// register adds the completions to the commands of root.
func (c completer) register(root *cobra.Command) {
	sub := func(name string) *cobra.Command {
		for _, cmd := range root.Commands() {
			if cmd.Name() == name {
				return cmd
			}
		}
		return nil
	}
	flag := func(cmd *cobra.Command, name string, f completeFunc) {
		if cmd != nil && cmd.Flags().Lookup(name) != nil {
			cmd.RegisterFlagCompletionFunc(name, f)
		}
	}
	formats := make([]string, len(report.Formats))
	for i, f := range report.Formats {
		formats[i] = string(f)
	}
	root.RegisterFlagCompletionFunc("format", fixed(formats))
	providers := cost.NewBook().Keys()
	for _, name := range []string{"ingest", "analyze"} {
		flag(sub(name), "label", c.labelAssignment)
	}
	for _, name := range []string{"analyze", "cost"} {
		flag(sub(name), "provider", fixed(providers))
		flag(sub(name), "test", c.labelValues("test"))
	}
	flag(sub("cost"), "server", c.labelValues("server"))
	flag(sub("cost"), "database", c.labelValues("database"))
	if cmp := sub("compare"); cmp != nil {
		flag(cmp, "by", c.labelKeys)
		flag(cmp, "base", c.byValues)
		flag(cmp, "vs", c.byValues)
		flag(cmp, "metric", fixed(compare.AllMetrics()))
	}
	if tbl := sub("table"); tbl != nil {
		flag(tbl, "metric", c.figures)
		for _, name := range []string{"row", "col", "no-split"} {
			flag(tbl, name, c.keyList)
		}
	}
	if sql := sub("sql"); sql != nil {
		sql.ValidArgsFunction = c.relationNames
		sql.MarkFlagFilename("file", "sql")
	}
}

// fixed completes from a list.
func fixed(values []string) completeFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix("", values, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// withPrefix is lead+v for each v of values that starts with part.
func withPrefix(lead string, values []string, part string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, part) {
			out = append(out, lead+v)
		}
	}
	return out
}

// store runs fn on the store, read-only; nil when it cannot be opened.
func (c completer) store(cmd *cobra.Command, fn func(context.Context, *store.Store) ([]string, error)) []string {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := store.Open(ctx, c.g.db, store.Options{ReadOnly: true, MemoryLimit: c.g.memoryLimit})
	if err != nil {
		return nil
	}
	defer st.Close()
	out, err := fn(ctx, st)
	if err != nil {
		return nil
	}
	return out
}

// keys are the columns a label may name, then the store's label keys.
func (c completer) keys(cmd *cobra.Command, columns []string) []string {
	keys := slices.Clone(columns)
	for _, k := range c.store(cmd, func(ctx context.Context, st *store.Store) ([]string, error) { return st.LabelKeys(ctx) }) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// labelKeys completes --by: the runs columns and label keys.
func (c completer) labelKeys(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return withPrefix("", c.keys(cmd, model.CompareByColumns), toComplete), cobra.ShellCompDirectiveNoFileComp
}

// labelValues completes a flag whose value is one of a label's values.
func (c completer) labelValues(label string) completeFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		vals := c.store(cmd, func(ctx context.Context, st *store.Store) ([]string, error) { return st.LabelValues(ctx, label) })
		return withPrefix("", vals, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// byValues completes --base and --vs: the values of the label --by names.
func (c completer) byValues(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	by, _ := cmd.Flags().GetString("by")
	if by == "" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return c.labelValues(by)(cmd, args, toComplete)
}

// labelAssignment completes --label key=value: a key, then its values.
func (c completer) labelAssignment(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	key, part, ok := strings.Cut(toComplete, "=")
	if !ok {
		keys := c.keys(cmd, model.LabelKeys)
		for i := range keys {
			keys[i] += "="
		}
		return withPrefix("", keys, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	vals := c.store(cmd, func(ctx context.Context, st *store.Store) ([]string, error) { return st.LabelValues(ctx, key) })
	return withPrefix(key+"=", vals, part), cobra.ShellCompDirectiveNoFileComp
}

// relationNames completes a name of a table, view or macro inside the
// query of wra sql, after its first word: "SELECT * FROM ru" gives
// "SELECT * FROM runs", "SELECT * FROM run_medians", ...
func (c completer) relationNames(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	i := strings.LastIndexAny(toComplete, " \t\n(,")
	if len(args) > 0 || i < 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := c.store(cmd, func(ctx context.Context, st *store.Store) ([]string, error) {
		rels, err := st.Relations(ctx)
		var out []string
		for _, r := range rels {
			out = append(out, r.Name)
		}
		return out, err
	})
	return withPrefix(toComplete[:i+1], names, toComplete[i+1:]), cobra.ShellCompDirectiveNoFileComp
}

// figureColumns are the columns of the run_figures view.
func (c completer) figureColumns(cmd *cobra.Command) []string {
	return c.store(cmd, func(ctx context.Context, st *store.Store) ([]string, error) {
		rels, err := st.Relations(ctx)
		var out []string
		for _, r := range rels {
			if r.Name == "run_figures" {
				for _, col := range r.Columns {
					out = append(out, col.Name)
				}
			}
		}
		return out, err
	})
}

// figures completes wra table --metric: a column of run_figures.
func (c completer) figures(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return withPrefix("", c.figureColumns(cmd), toComplete), cobra.ShellCompDirectiveNoFileComp
}

// keyList completes wra table's comma-separated keys: the last one, a
// column of run_figures or a label key.
func (c completer) keyList(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	i := strings.LastIndex(toComplete, ",")
	return withPrefix(toComplete[:i+1], c.keys(cmd, c.figureColumns(cmd)), toComplete[i+1:]), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
