package model

import (
	"slices"
	"testing"
)

func TestDisplay(t *testing.T) {
	a := `{"server":{"order":["node","dext"],"names":{"dext":"Dext 1.0.1 (HTTP.sys)","go":"Go 1.25"}}}`
	b := `{"server":{"order":["dext"],"names":{"dext":"Dext","node":"Node 24"}},"test":{"title":"Test","names":{"ping":"Ping"}}}`
	d, err := MergeDisplays([]string{b, a, b})
	if err != nil {
		t.Fatal(err)
	}
	// b's text sorts first: its order and its name of dext stand, a adds
	// the name of go.
	if d.Name("server", "dext") != "Dext" || d.Name("server", "node") != "Node 24" || d.Name("server", "go") != "Go 1.25" || d.Name("server", "x") != "x" ||
		d.Heading("test") != "Test" || d.Heading("server") != "server" || d.Name("test", "ping") != "Ping" {
		t.Errorf("%+v", d)
	}
	vals := []string{"go", "nginx", "dext", "node"}
	slices.SortStableFunc(vals, func(x, y string) int { return d.Compare("server", x, y) })
	if want := []string{"dext", "go", "nginx", "node"}; !slices.Equal(vals, want) {
		t.Errorf("order %v, want %v: listed first, the rest as they were", vals, want)
	}
	if d.Ordered("test") || !d.Ordered("server") {
		t.Error("Ordered")
	}
	if _, err := MergeDisplays([]string{"{"}); err == nil {
		t.Error("bad JSON must fail")
	}
	if again, _ := MergeDisplays([]string{d.JSON()}); again.JSON() != d.JSON() {
		t.Errorf("round trip: %s != %s", again.JSON(), d.JSON())
	}
}
