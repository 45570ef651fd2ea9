package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFew(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b", "c"}, "a, b and c"},
		{[]string{"a", "b", "c", "d"}, "a, b and 2 more"},
	} {
		if got := few(c.in); got != c.want {
			t.Errorf("few(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestFit: a headline within MaxHeadline characters is kept as it is; a
// longer one (a long name chosen by the user) is cut at a word, within
// the limit, and ends with "…".
func TestFit(t *testing.T) {
	short := "node-pg uses 1.44–1.87× go-pgx's stack CPU per request on postgresql (one at 100; page at 250 requests/s)"
	if got := fit(short); got != short {
		t.Errorf("fit changed a headline of %d characters: %q", utf8.RuneCountInString(short), got)
	}
	long := strings.Repeat("ünïcode-server-name ", 10) + "uses 2× the CPU"
	got := fit(long)
	if n := utf8.RuneCountInString(got); n > MaxHeadline || !strings.HasSuffix(got, "…") {
		t.Errorf("fit(%d characters) = %q (%d characters), want at most %d ending with …", utf8.RuneCountInString(long), got, n, MaxHeadline)
	}
	if !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) || strings.HasSuffix(strings.TrimSuffix(got, "…"), "-") {
		t.Errorf("fit cut %q elsewhere than at a word: %q", long, got)
	}
	one := strings.Repeat("x", 200)
	if got := fit(one); utf8.RuneCountInString(got) != MaxHeadline {
		t.Errorf("fit of one long word: %d characters, want %d", utf8.RuneCountInString(got), MaxHeadline)
	}
}
