// Package api is the small JSON API that every Go server of the harness
// serves, whatever its database driver: the handlers, the query text and the
// process entry point live here so that the stacks differ only in how they
// talk to PostgreSQL.
//
// Endpoints (all GET, all answering application/json):
//
//	/ping                      {"ok":true}
//	/db/one?id=N               one row of items: {"id":N,"name":"item-N","price_cents":P}
//	/db/page?after=N&limit=M   the M rows after id N: {"items":[{...},...]}
//	/wait?ms=N                 sleeps N ms, then {"waited_ms":N}
//
// The Node.js server under servers/node-pg answers byte-for-byte the same
// bodies.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Queries shared by every stack, so that each reads the same rows the same way.
const (
	QueryOne  = "SELECT id, name, price_cents FROM items WHERE id = $1"
	QueryPage = "SELECT id, name, price_cents FROM items WHERE id > $1 ORDER BY id LIMIT $2"
)

// Limits of the query parameters.
const (
	MaxPageLimit = 100
	MaxWaitMS    = 60000
)

// Item is one row of the items table.
type Item struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	PriceCents int64  `json:"price_cents"`
}

// ErrNotFound is returned by Store.One when no row has the id.
var ErrNotFound = errors.New("not found")

// Store reads items; one implementation per database driver.
type Store interface {
	One(ctx context.Context, id int64) (Item, error)
	Page(ctx context.Context, after int64, limit int) ([]Item, error)
}

type page struct {
	Items []Item `json:"items"`
}

// Handler serves the API over store.
func Handler(store Store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	mux.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		ms, err := intParam(r, "ms", 0, 0, MaxWaitMS)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
		writeJSON(w, http.StatusOK, map[string]int64{"waited_ms": ms})
	})
	mux.HandleFunc("GET /db/one", func(w http.ResponseWriter, r *http.Request) {
		id, err := intParam(r, "id", -1, 1, 1<<31-1)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		it, err := store.One(r.Context(), id)
		switch {
		case errors.Is(err, ErrNotFound):
			writeError(w, http.StatusNotFound, err)
		case err != nil:
			writeError(w, http.StatusInternalServerError, err)
		default:
			writeJSON(w, http.StatusOK, it)
		}
	})
	mux.HandleFunc("GET /db/page", func(w http.ResponseWriter, r *http.Request) {
		after, err := intParam(r, "after", 0, 0, 1<<31-1)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		limit, err := intParam(r, "limit", 20, 1, MaxPageLimit)
		if err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		items, err := store.Page(r.Context(), after, int(limit))
		if err != nil {
			writeError(w, http.StatusInternalServerError, err)
			return
		}
		if items == nil {
			items = []Item{}
		}
		writeJSON(w, http.StatusOK, page{Items: items})
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			writeError(w, http.StatusMethodNotAllowed, errors.New("method not allowed"))
			return
		}
		writeError(w, http.StatusNotFound, ErrNotFound)
	})
	return mux
}

// intParam reads an integer query parameter in [lo, hi]; def < 0 makes it required.
func intParam(r *http.Request, name string, def, lo, hi int64) (int64, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		if def < 0 {
			return 0, fmt.Errorf("query parameter %q is required", name)
		}
		return def, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("query parameter %q must be an integer in [%d, %d], got %q", name, lo, hi, s)
	}
	return v, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b) // a client that went away is not the server's error
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": err.Error()})
}
