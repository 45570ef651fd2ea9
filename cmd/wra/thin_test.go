package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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
