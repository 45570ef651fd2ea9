package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCommandStaysThin: the command parses flags, calls the packages and
// prints. None of its files imports database/sql or DuckDB (the store is
// the one package that links it), and each reads in one sitting.
func TestCommandStaysThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(src, []byte("\n")); n >= 250 {
			t.Errorf("%s has %d lines; a file of the command stays under 250", name, n)
		}
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "database/sql" || path == "database/sql/driver" || strings.Contains(path, "duckdb") {
				t.Errorf("%s imports %s: only model/store speaks to the database", name, path)
			}
		}
	}
}

// TestReportOnlyDraws: no package under report/ computes a figure of a
// group (a median, a summary, a ladder's median, a drift), a test or a
// best mark, or reads the store: they lay out what model/analysis and
// model/layout computed, read through interfaces over model types.
func TestReportOnlyDraws(t *testing.T) {
	computes := []string{"Median", "Summarize", "SummarizeAt", "MedianLadder", "Drift", "Quantile", "CompareAt", "AdjustHolm", "PairedRatios", "BestOf", "RankTies", "Gate"}
	var files []string
	err := filepath.WalkDir("../../report", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files under report/: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(path, "/model/store") || strings.Contains(path, "duckdb") {
				t.Errorf("%s imports %s: report/ reads through interfaces over model types", name, path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "stats" && slices.Contains(computes, sel.Sel.Name) {
				t.Errorf("%s: stats.%s: a group's figure is computed in model/, not under report/", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
