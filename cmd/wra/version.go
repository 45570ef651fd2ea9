package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/wra-bench/wra/model/store"
)

// version is wra's version where the build sets it (go build -ldflags
// "-X main.version=v1.2.3"); otherwise it comes from the build info.
var version string

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print wra's version, its store schema version and its DuckDB",
		Example: "  wra version\n  wra --version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			duck := "unknown"
			bi, ok := debug.ReadBuildInfo()
			if ok {
				for _, d := range bi.Deps {
					if d.Path == "github.com/duckdb/duckdb-go/v2" {
						duck = d.Version
					}
				}
			}
			_, err := fmt.Fprintf(e.stdout, "wra %s\nstore schema %d\nduckdb-go %s\n%s %s/%s\n", buildVersion(bi, ok, version), store.SchemaVersion(), duck, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

// wraVersion is the version wra prints.
func wraVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return buildVersion(bi, ok, version)
}

// buildVersion says which wra this is: the version the build set;
// else the module's version (go install …@v1.2.3, or a pseudo-version
// from the checkout's commit); else the commit the build info records
// (vcs.revision, "-dirty" when the work tree had changes, and the
// commit's time); else that the build recorded none.
func buildVersion(bi *debug.BuildInfo, ok bool, stamped string) string {
	if stamped != "" {
		return stamped
	}
	if !ok || bi == nil {
		return "unknown (built without build information)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified, at string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		case "vcs.time":
			at = s.Value
		}
	}
	if rev == "" {
		return "unknown (built from source without version control information: build with -buildvcs=true, or -ldflags \"-X main.version=…\")"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	if at != "" {
		rev += " (" + at + ")"
	}
	return rev
}

// parseDuration reads a duration such as 30s, saying what it expected
// where s is none.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("expected a duration, such as 500ms, 30s or 2m")
	}
	if d < 0 {
		return 0, fmt.Errorf("%s is negative", s)
	}
	return d, nil
}
