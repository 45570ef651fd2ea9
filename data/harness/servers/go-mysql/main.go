// Command go-mysql serves the harness API with Go net/http, database/sql and
// go-sql-driver/mysql on MariaDB. In the driver's default mode every
// parameterised query is a server-side prepared statement (COM_STMT_PREPARE,
// COM_STMT_EXECUTE, COM_STMT_CLOSE: three round trips); with
// interpolateParams=true in the DSN the driver writes the parameters into
// the query text and sends one COM_QUERY. The harness runs it both ways,
// as go-mysql and go-mysql-interp.
package main

import (
	"os"

	_ "github.com/go-sql-driver/mysql"

	"github.com/wra-bench/wra/data/harness/servers/api"
)

func main() {
	open := api.OpenSQL("mysql", api.QueryOneMySQL, api.QueryPageMySQL)
	os.Exit(api.Main("go-mysql", os.Args[1:], os.Getenv("DATABASE_URL"), open, os.Stderr))
}
