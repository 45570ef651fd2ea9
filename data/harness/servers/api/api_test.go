package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// memStore holds ids 1..n the way the harness fills the items table.
type memStore struct {
	n   int64
	err error
}

func (m memStore) item(id int64) Item {
	return Item{ID: id, Name: "item-" + strconv.FormatInt(id, 10), PriceCents: id * 7 % 10000}
}

func (m memStore) One(_ context.Context, id int64) (Item, error) {
	if m.err != nil {
		return Item{}, m.err
	}
	if id < 1 || id > m.n {
		return Item{}, ErrNotFound
	}
	return m.item(id), nil
}

func (m memStore) Page(_ context.Context, after int64, limit int) ([]Item, error) {
	if m.err != nil {
		return nil, m.err
	}
	var out []Item
	for id := after + 1; id <= m.n && len(out) < limit; id++ {
		out = append(out, m.item(id))
	}
	return out, nil
}

func TestHandler(t *testing.T) {
	h := Handler(memStore{n: 1000})
	tests := []struct {
		method, path string
		code         int
		body         string
	}{
		{"GET", "/ping", 200, `{"ok":true}`},
		{"GET", "/db/one?id=42", 200, `{"id":42,"name":"item-42","price_cents":294}`},
		{"GET", "/db/one?id=1000", 200, `{"id":1000,"name":"item-1000","price_cents":7000}`},
		{"GET", "/db/one?id=1001", 404, `{"error":"not found"}`},
		{"GET", "/db/one", 400, `{"error":"query parameter \"id\" is required"}`},
		{"GET", "/db/one?id=0", 400, `{"error":"query parameter \"id\" must be an integer in [1, 2147483647], got \"0\""}`},
		{"GET", "/db/one?id=x", 400, `{"error":"query parameter \"id\" must be an integer in [1, 2147483647], got \"x\""}`},
		{"GET", "/db/page?after=998&limit=5", 200, `{"items":[{"id":999,"name":"item-999","price_cents":6993},{"id":1000,"name":"item-1000","price_cents":7000}]}`},
		{"GET", "/db/page?after=1000", 200, `{"items":[]}`},
		{"GET", "/db/page?limit=101", 400, `{"error":"query parameter \"limit\" must be an integer in [1, 100], got \"101\""}`},
		{"GET", "/wait?ms=0", 200, `{"waited_ms":0}`},
		{"GET", "/wait?ms=2", 200, `{"waited_ms":2}`},
		{"GET", "/wait?ms=60001", 400, `{"error":"query parameter \"ms\" must be an integer in [0, 60000], got \"60001\""}`},
		{"GET", "/nope", 404, `{"error":"not found"}`},
		{"POST", "/nope", 405, `{"error":"method not allowed"}`},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
		if rec.Code != tt.code || rec.Body.String() != tt.body {
			t.Errorf("%s %s = %d %s, want %d %s", tt.method, tt.path, rec.Code, rec.Body, tt.code, tt.body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tt.method, tt.path, ct)
		}
	}
}

func TestHandlerDatabaseError(t *testing.T) {
	h := Handler(memStore{n: 10, err: errors.New("connection refused")})
	for _, p := range []string{"/db/one?id=1", "/db/page"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if want := `{"error":"connection refused"}`; rec.Code != 500 || rec.Body.String() != want {
			t.Errorf("%s = %d %s, want 500 %s", p, rec.Code, rec.Body, want)
		}
	}
}

func TestParseFlags(t *testing.T) {
	c, err := ParseFlags("x", []string{"-addr", "127.0.0.1:1", "-pool", "3"}, "postgres://h/db", io.Discard)
	if err != nil || c != (Config{Addr: "127.0.0.1:1", DSN: "postgres://h/db", PoolSize: 3}) {
		t.Errorf("got %+v, %v", c, err)
	}
	for _, args := range [][]string{{"-pool", "0"}, {"extra"}, {"-nope"}} {
		if _, err := ParseFlags("x", args, "postgres://h/db", io.Discard); err == nil {
			t.Errorf("ParseFlags(%q): no error", args)
		}
	}
	if _, err := ParseFlags("x", nil, "", io.Discard); err == nil {
		t.Error("no DSN: no error")
	}
}

func TestServeShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	open := func(context.Context, string, int) (Store, func(), error) { return memStore{n: 1}, func() {}, nil }
	var log bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, Config{Addr: "127.0.0.1:0", DSN: "x", PoolSize: 1}, open, &log) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
	failing := func(context.Context, string, int) (Store, func(), error) { return nil, nil, errors.New("boom") }
	if err := Serve(context.Background(), Config{Addr: "127.0.0.1:0"}, failing, &log); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Serve with a failing store: %v", err)
	}
}
