package main

import (
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// The README is what a newcomer reads first: what wra is, how to start,
// the main commands, and where the rest is. The reference is the pages
// under docs/.
const (
	readmePath     = "../../README.md"
	docsDir        = "../../docs"
	readmeMaxLines = 300
)

// markdownDoc is a Markdown file as GitHub shows it: the destinations of
// its links and images, and the anchors of its headings.
type markdownDoc struct {
	links   []string
	anchors map[string]bool
}

func readMarkdown(t *testing.T, path string) markdownDoc {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	d := markdownDoc{anchors: map[string]bool{}}
	seen := map[string]int{}
	err = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			d.links = append(d.links, string(n.Destination))
		case *ast.Image:
			d.links = append(d.links, string(n.Destination))
		case *ast.Heading:
			a := headingAnchor(inlineText(n, src))
			if k := seen[a]; k > 0 {
				d.anchors[a+"-"+strconv.Itoa(k)] = true
			} else {
				d.anchors[a] = true
			}
			seen[a]++
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// inlineText is the text of a node's inline children as it reads:
// code spans without their backticks, links as their text.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		default:
			b.WriteString(inlineText(c, src))
		}
	}
	return b.String()
}

// headingAnchor is the anchor GitHub gives a heading: its text in lower
// case, without punctuation but for - and _, each space a hyphen (a
// second heading of the same text gets -1, a third -2).
func headingAnchor(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// docsPages are the pages under docs/, by file name.
func docsPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages under docs/: %v", err)
	}
	sort.Strings(pages)
	return pages
}

// TestReadmeShort: the README stays a page a newcomer reads, not the
// reference.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move the reference into a page under docs/ and link it", n, readmeMaxLines)
	}
}

// TestReadmeLinksEveryDocsPage: each page under docs/ is reached from
// the README.
func TestReadmeLinksEveryDocsPage(t *testing.T) {
	linked := map[string]bool{}
	for _, l := range readMarkdown(t, readmePath).links {
		if u, err := url.Parse(l); err == nil && u.Scheme == "" && u.Path != "" {
			linked[filepath.Clean(filepath.Join(filepath.Dir(readmePath), u.Path))] = true
		}
	}
	for _, p := range docsPages(t) {
		if !linked[filepath.Clean(p)] {
			t.Errorf("README.md does not link docs/%s", filepath.Base(p))
		}
	}
}

// TestDocsLinksResolve: every relative link and image of the README and
// of the pages under docs/ names a file that exists, and an anchor
// (#...) into a Markdown file names one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	files := append([]string{readmePath}, docsPages(t)...)
	docs := map[string]markdownDoc{}
	doc := func(p string) markdownDoc {
		if d, ok := docs[p]; ok {
			return d
		}
		docs[p] = readMarkdown(t, p)
		return docs[p]
	}
	checked := 0
	for _, f := range files {
		name, _ := filepath.Rel("../..", f)
		for _, l := range doc(f).links {
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("%s: link %q: %v", name, l, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue
			}
			checked++
			target := f
			if u.Path != "" {
				target = filepath.Join(filepath.Dir(f), filepath.FromSlash(u.Path))
				if _, err := os.Stat(target); err != nil {
					rel, _ := filepath.Rel("../..", target)
					t.Errorf("%s: link %q: no file %s", name, l, rel)
					continue
				}
			}
			if u.Fragment != "" && strings.HasSuffix(target, ".md") && !doc(target).anchors[u.Fragment] {
				t.Errorf("%s: link %q: %s has no heading of anchor #%s", name, l, filepath.Base(target), u.Fragment)
			}
		}
	}
	if checked < len(files) {
		t.Errorf("%d relative links in %d files: the links were not read", checked, len(files))
	}
}

// TestDocsPagesOpen: a page under docs/ opens with its title and one
// line that says what it covers and links back to the README. The page
// of wra record, docs/recording.md, opens with its own synopsis instead
// (the README's "Recording your own stack" leads to it).
func TestDocsPagesOpen(t *testing.T) {
	for _, p := range docsPages(t) {
		if filepath.Base(p) == "recording.md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 5)
		if len(lines) < 5 || !strings.HasPrefix(lines[0], "# ") || lines[1] != "" || lines[3] != "" ||
			!strings.Contains(lines[2], "](../README.md)") {
			t.Errorf("docs/%s: want a title, a blank line, one line saying what the page covers with a link to ../README.md, a blank line; it opens\n%s", filepath.Base(p), strings.Join(lines[:min(4, len(lines))], "\n"))
		}
	}
}
