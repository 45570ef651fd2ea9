package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
)

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print wra's version, its store schema version and its DuckDB",
		Example: "  wra version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, duck := "(devel)", "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				if bi.Main.Version != "" {
					v = bi.Main.Version
				}
				for _, d := range bi.Deps {
					if d.Path == "github.com/duckdb/duckdb-go/v2" {
						duck = d.Version
					}
				}
			}
			_, err := fmt.Fprintf(e.stdout, "wra %s\nstore schema %d\nduckdb-go %s\n%s %s/%s\n", v, store.SchemaVersion(), duck, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("%s is negative", s)
	}
	return d, nil
}
