// Command go-pq serves the harness API with Go net/http, database/sql and the
// lib/pq driver, which prepares every parameterised statement anew (an
// unnamed Parse/Describe round trip before each Bind/Execute).
package main

import (
	"os"

	_ "github.com/lib/pq"

	"github.com/wra-bench/wra/data/harness/servers/api"
)

func main() {
	open := api.OpenSQL("postgres", api.QueryOne, api.QueryPage)
	os.Exit(api.Main("go-pq", os.Args[1:], os.Getenv("DATABASE_URL"), open, os.Stderr))
}
