package analysis

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// A group's medians, ranges and totals are the store's (run_medians,
// read once into GroupFigures): no section takes a median of a group's
// runs again. stats' medians are called only where Go computes what the
// view does not, each place named here with why.
func TestGroupFiguresComeFromTheStore(t *testing.T) {
	allowed := map[string]string{
		"PairedByBlock":         "a trial's median of each side, the input of the paired test",
		"analysis.cpuFixedRate": "the median's interval and its warnings (stats.Summarize)",
		"analysis.rounds":       "the median's interval and its warnings (stats.Summarize)",
		"toolSpreads":           "the median over a tool's groups of their spread, a tie rule",
		"analysis.ladderTable":  "the median of ladder runs with lower bounds (stats.MedianLadder), which no view computes",
	}
	computes := map[string]bool{"Median": true, "Summarize": true, "SummarizeAt": true, "Quantile": true, "MedianLadder": true}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			where := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				if st, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := st.X.(*ast.Ident); ok {
						where = id.Name + "." + where
					}
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "stats" && computes[sel.Sel.Name] {
					if _, ok := allowed[where]; !ok {
						t.Errorf("%s: %s calls stats.%s: a group's figures are run_medians' (analysis.fig), read, not computed again",
							fset.Position(sel.Pos()), where, sel.Sel.Name)
					}
					seen[where] = true
				}
				return true
			})
		}
	}
	for where, why := range allowed {
		if !seen[where] {
			t.Errorf("%s is allowed a median (%s) but calls none: take it off the list", where, why)
		}
	}
}
