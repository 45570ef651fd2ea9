package record

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// A folder wra record writes: the tools' outputs, the records CSVs, the
// memory series and calibration CSVs, trials.csv and pairs.csv, and a
// wra.toml that labels every file, so that wra ingest and wra analyze
// need no other step. A run's files are written into a staging folder
// under .wra-record/ (hidden: wra ingest skips it) and moved into place
// when the run has ended well: an interrupted or failed run leaves
// nothing in the folder.

// ManifestHeader is the first line of a wra.toml that wra record wrote
// and may rewrite.
const ManifestHeader = "# Written by wra record: the labels of every file it recorded in this folder."

// stagingDir is the folder, under the output folder, of runs under way.
const stagingDir = ".wra-record"

// ErrNotOurs is the cause of the error OpenFolder returns for a folder
// whose wra.toml wra record did not write.
var ErrNotOurs = errors.New("not written by wra record")

// Folder is an output folder of wra record.
type Folder struct {
	Dir    string
	ignore []string
	blocks []string
	files  []fileEntry
	stages int
}

// fileEntry labels one file of the folder: a glob of its exact path, or
// a glob of several (the CSVs).
type fileEntry struct {
	Comment string            `toml:"-"`
	Glob    string            `toml:"glob"`
	Labels  map[string]string `toml:"labels"`
}

// OpenFolder opens (making it where needed) an output folder, reading
// the wra.toml a previous wra record wrote there; a wra.toml of anyone
// else is left alone and the folder refused.
func OpenFolder(dir string) (*Folder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir}
	p := filepath.Join(dir, "wra.toml")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(string(b), ManifestHeader) {
		return nil, fmt.Errorf("%s: %w: choose another --out, or a folder of wra record's", p, ErrNotOurs)
	}
	var m struct {
		Ignore []string    `toml:"ignore"`
		Blocks []string    `toml:"blocks"`
		Files  []fileEntry `toml:"files"`
	}
	if _, err := toml.Decode(string(b), &m); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	f.ignore, f.blocks, f.files = m.Ignore, m.Blocks, m.Files
	return f, nil
}

// Ignore adds patterns to the manifest's ignore list (files of the
// folder that are not records).
func (f *Folder) Ignore(patterns ...string) {
	for _, p := range patterns {
		if !slices.Contains(f.ignore, p) {
			f.ignore = append(f.ignore, p)
		}
	}
}

// Blocks sets the manifest's block labels.
func (f *Folder) Blocks(labels ...string) { f.blocks = labels }

// Exists tells whether rel is a file of the folder or one a commit made.
func (f *Folder) Exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(f.Dir, filepath.FromSlash(rel)))
	return err == nil
}

// Stage makes a staging folder for one run.
func (f *Folder) Stage() (string, error) {
	base := filepath.Join(f.Dir, stagingDir)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	f.stages++
	return os.MkdirTemp(base, fmt.Sprintf("run-%d-", f.stages))
}

// Unstage removes a staging folder, and .wra-record when it is empty.
func (f *Folder) Unstage(dir string) {
	os.RemoveAll(dir)
	os.Remove(filepath.Join(f.Dir, stagingDir))
}

// Commit is what one run adds to the folder.
type Commit struct {
	// Files are staged files to move into the folder: relative path in
	// the folder → path on disk. Each is labelled with Labels.
	Files  map[string]string
	Labels map[string]string
	Rows   []Row // CSV rows to append
}

// Row is one row of a CSV file of the folder.
type Row struct {
	File    string // relative path
	Header  []string
	Fields  []string
	Comment string // the manifest's comment on the file, the first time
}

// Commit moves a run's files into place, appends its rows and rewrites
// wra.toml; every file it rewrites is written beside and renamed over
// the old one. It refuses, before changing anything, a file already
// there.
func (f *Folder) Commit(c Commit) error {
	rels := slices.Sorted(maps.Keys(c.Files))
	for _, rel := range rels {
		if !safeRel(rel) {
			return fmt.Errorf("%q: expected a relative path inside the output folder", rel)
		}
		if f.Exists(rel) {
			return fmt.Errorf("%s: already there; a run never replaces a file (choose another name or --out)", filepath.Join(f.Dir, rel))
		}
	}
	for _, r := range c.Rows {
		if !safeRel(r.File) {
			return fmt.Errorf("%q: expected a relative path inside the output folder", r.File)
		}
	}
	for _, rel := range rels {
		dst := filepath.Join(f.Dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Rename(c.Files[rel], dst); err != nil {
			return err
		}
		labels := map[string]string{}
		for k, v := range c.Labels {
			if v != "" {
				labels[k] = v
			}
		}
		f.files = append(f.files, fileEntry{Glob: rel, Labels: labels})
	}
	byFile := map[string][]Row{}
	var order []string
	for _, r := range c.Rows {
		if _, ok := byFile[r.File]; !ok {
			order = append(order, r.File)
		}
		byFile[r.File] = append(byFile[r.File], r)
	}
	for _, file := range order {
		rows := byFile[file]
		if err := f.appendRows(file, rows); err != nil {
			return err
		}
		if !slices.ContainsFunc(f.files, func(e fileEntry) bool { return e.Glob == file }) && !f.ignored(file) {
			comment := rows[0].Comment
			if slices.ContainsFunc(f.files, func(e fileEntry) bool { return e.Comment == comment }) {
				comment = "" // said at the first file of its kind
			}
			f.files = append(f.files, fileEntry{Glob: file, Comment: comment})
		}
	}
	return f.writeManifest()
}

func (f *Folder) ignored(rel string) bool { return slices.Contains(f.ignore, rel) }

// safeRel tells whether rel names a file inside the folder with the
// characters wra record writes in names (no glob or shell metacharacter).
func safeRel(rel string) bool {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || strings.HasPrefix(rel, "../") || rel == ".." ||
		strings.HasPrefix(rel, stagingDir) || rel == "wra.toml" {
		return false
	}
	for _, r := range rel {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/", r)) {
			return false
		}
	}
	return true
}

// appendRows appends rows to a CSV of the folder, written beside it and
// renamed over it; an existing file must have the same header.
func (f *Folder) appendRows(rel string, rows []Row) error {
	p := filepath.Join(f.Dir, filepath.FromSlash(rel))
	header := rows[0].Header
	var all [][]string
	if b, err := os.Open(p); err == nil {
		r := csv.NewReader(b)
		all, err = r.ReadAll()
		b.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if len(all) == 0 || !slices.Equal(all[0], header) {
			return fmt.Errorf("%s: its header is not the one wra record writes (%s): choose another --out", p, strings.Join(header, ","))
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	} else {
		all = [][]string{header}
	}
	for _, r := range rows {
		all = append(all, r.Fields)
	}
	return writeFileAtomic(p, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(all)
		return cw.Error()
	})
}

// writeFileAtomic writes p beside it and renames it over p.
func writeFileAtomic(p string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// writeManifest writes wra.toml: the ignore list, the blocks, and an
// entry per file with its labels.
func (f *Folder) writeManifest() error {
	var b strings.Builder
	b.WriteString(ManifestHeader + "\n")
	b.WriteString("# wra record rewrites it as it adds runs; a file's labels are those of its run.\n")
	if len(f.ignore) > 0 {
		b.WriteString("\n# Not records.\n")
		fmt.Fprintf(&b, "ignore = %s\n", tomlList(f.ignore))
	}
	if len(f.blocks) > 0 {
		b.WriteString("\n# A trial is a block of the design, not a factor: runs of different trials\n")
		b.WriteString("# are the same experiment, pooled as rounds are, and compared within a trial.\n")
		fmt.Fprintf(&b, "blocks = %s\n", tomlList(f.blocks))
	}
	for _, e := range f.files {
		b.WriteString("\n")
		if e.Comment != "" {
			fmt.Fprintf(&b, "# %s\n", e.Comment)
		}
		fmt.Fprintf(&b, "[[files]]\nglob = %s\n", tomlString(e.Glob))
		if len(e.Labels) > 0 {
			fmt.Fprintf(&b, "labels = %s\n", inlineTable(e.Labels))
		}
	}
	return writeFileAtomic(filepath.Join(f.Dir, "wra.toml"), func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// tomlString quotes s as a TOML basic string: JSON's escapes are valid
// TOML escapes.
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func tomlList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = tomlString(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func inlineTable(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		key := k
		if !bareKey(k) {
			key = tomlString(k)
		}
		parts[i] = key + " = " + tomlString(m[k])
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func bareKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// roundsOf reads the records CSVs of the folder for the rounds each run
// key has, so that a new run of a key takes the next round.
func (f *Folder) roundsOf(rel string) (map[runKey][]int64, error) {
	out := map[runKey][]int64{}
	p := filepath.Join(f.Dir, filepath.FromSlash(rel))
	fh, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	all, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(all) == 0 {
		return out, nil
	}
	col := map[string]int{}
	for i, h := range all[0] {
		col[h] = i
	}
	get := func(r []string, c string) string {
		if i, ok := col[c]; ok && i < len(r) {
			return r[i]
		}
		return ""
	}
	for _, r := range all[1:] {
		k := runKey{Server: get(r, "server"), Database: get(r, "database"), Test: get(r, "test"), TargetRPS: get(r, "target_rps"), Connections: get(r, "connections")}
		if n, err := strconv.ParseInt(get(r, "round"), 10, 64); err == nil {
			out[k] = append(out[k], n)
		}
	}
	return out, nil
}

// runKey is what pairs a harness record with its tool report in wra's
// store (the run_pairs view): server, database, test, round, target
// rate and connections agree. Two runs of one key and round pair
// nothing, so each run of a key gets a round of its own.
type runKey struct{ Server, Database, Test, TargetRPS, Connections string }
