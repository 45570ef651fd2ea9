package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model/store"
)

// testHoldEnv names the fault tests' hook. The fault tests (fault_test.go)
// hold a child wra inside a load's open transaction before they kill or
// interrupt it, so that the fault lands where they mean it to on a fast
// machine and on a slow one. It is unset in normal use.
//
//	WRA_TEST_HOLD=KIND:N   KIND is any, bulk or small; N counts from 1
//
// When the Nth transaction of that kind (bulk: a point stream loaded by
// DuckDB's scanner; small: any other) has written its rows, wra prints
//
//	wra: test hold: transaction N open before COMMIT: bulk k6/p0.ndjson
//
// on stderr and waits: a line or the end of its standard input lets it
// commit; an interrupt rolls the transaction back.
const testHoldEnv = "WRA_TEST_HOLD"

// testHold returns the BeforeCommit hook that WRA_TEST_HOLD asks for, nil
// when it is unset.
func testHold(e *env) (func(context.Context, store.Txn) error, error) {
	spec := e.getenv(testHoldEnv)
	if spec == "" {
		return nil, nil
	}
	kind, num, _ := strings.Cut(spec, ":")
	n, err := strconv.Atoi(num)
	if (kind != "any" && kind != "bulk" && kind != "small") || err != nil || n < 1 {
		return nil, usagef("%s=%q: expected any:N, bulk:N or small:N with N >= 1", testHoldEnv, spec)
	}
	seen := 0
	return func(ctx context.Context, t store.Txn) error {
		if kind == "bulk" && !t.Bulk || kind == "small" && t.Bulk {
			return nil
		}
		if seen++; seen != n {
			return nil
		}
		what := "small"
		if t.Bulk {
			what = "bulk"
		}
		fmt.Fprintf(e.stderr, "wra: test hold: transaction %d open before COMMIT: %s %s\n", n, what, strings.Join(t.Sources, " "))
		released := make(chan struct{})
		go func() {
			bufio.NewReader(e.stdin).ReadString('\n')
			close(released)
		}()
		select {
		case <-released:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}, nil
}
