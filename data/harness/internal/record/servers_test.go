package record

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/wra-bench/wra/data/harness/servers/api"
)

func TestExpectedBodiesMatchAPI(t *testing.T) {
	h := api.Handler(formulaStore{})
	for _, e := range []Endpoint{Ping, DBOne, DBPage, Wait10} {
		want, err := expectedBody(e.Path)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", e.Path, nil))
		if rec.Code != 200 || rec.Body.String() != string(want) {
			t.Errorf("%s: API %d %s, harness expects %s", e.Path, rec.Code, rec.Body, want)
		}
	}
	if _, err := expectedBody("/other"); err == nil {
		t.Error("no error for an unknown path")
	}
}

// formulaStore computes rows as pg.load inserts them: name 'item-' || id,
// price_cents (id * 7) % 10000.
type formulaStore struct{}

func (formulaStore) row(id int64) api.Item {
	return api.Item{ID: id, Name: "item-" + strconv.FormatInt(id, 10), PriceCents: id * 7 % 10000}
}

func (f formulaStore) One(_ context.Context, id int64) (api.Item, error) { return f.row(id), nil }

func (f formulaStore) Page(_ context.Context, after int64, limit int) ([]api.Item, error) {
	var out []api.Item
	for i := int64(1); i <= int64(limit); i++ {
		out = append(out, f.row(after+i))
	}
	return out, nil
}
