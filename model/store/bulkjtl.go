package store

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/wra-bench/wra/model"
)

// jtlTransactionPrefix starts the responseMessage of a Transaction
// Controller's own row, whose samples are a run apart from a sampler's of
// the same label.
const jtlTransactionPrefix = "Number of samples in transaction : "

// jtlInsertSQL is the INSERT INTO samples statement of JMeter JTLs as
// CSV, the files of files, all of the columns (and the header or none,
// NoHeader) of the first: each row a sample of metric http_req_duration in
// the run its file's Runs give its label and kind (runID names the run
// of index i of the file at index k of files), ts its timeStamp (epoch
// ms), value its elapsed (ms), status its responseCode where that is a
// whole number, and tags its label, responseCode, success and threadName
// (the columns the file has, each where not empty; the label always) and
// a transaction's sample_kind, in that order, as the Go reader writes
// them. A row whose label and kind are of no run of its file is not
// inserted, which the reader sees in the row count. The files are read
// in one scan, each row's file told by the scanner's file_index (the
// columns are named c1, c2, … in the scan, so that no column of a file
// hides it).
func jtlInsertSQL(files []*model.BulkInput, runID func(k, i int) string) (string, error) {
	in := files[0]
	col := map[string]string{} // JMeter's column name, lower case -> the scan's
	var cols []string
	for i, c := range in.Columns {
		name := "c" + strconv.Itoa(i+1)
		k := strings.ToLower(strings.TrimSpace(c))
		if _, seen := col[k]; !seen {
			col[k] = name
		}
		cols = append(cols, sqlString(name)+": 'VARCHAR'")
	}
	for _, c := range []string{"timestamp", "elapsed", "label", "success"} {
		if col[c] == "" {
			return "", fmt.Errorf("JMeter JTL: no %s column", c)
		}
	}
	var runs []string
	for k, f := range files {
		if len(f.Runs) == 0 {
			return "", fmt.Errorf("JMeter JTL %s: no run to insert the samples into", f.Name)
		}
		for _, r := range f.Runs {
			runs = append(runs, "("+strconv.Itoa(k)+", "+sqlText(r.Label)+", "+sqlString(r.Kind)+", "+sqlText(runID(k, r.Index))+")")
		}
	}
	// The reader trims the fields it reads but the label, which JMeter
	// writes with its spaces.
	trim := func(c string) string { return "trim(" + col[c] + ")" }
	label := "coalesce(" + col["label"] + ", '')"
	kind := "'sampler'"
	if col["responsemessage"] != "" {
		kind = "CASE WHEN starts_with(" + trim("responsemessage") + ", " + sqlString(jtlTransactionPrefix) + ") THEN 'transaction' ELSE 'sampler' END"
	}
	tags := []string{`'"label":' || to_json(` + label + `)`}
	status := "NULL::INTEGER"
	if col["responsecode"] != "" {
		c := trim("responsecode")
		tags = append(tags, `CASE WHEN `+c+` <> '' THEN '"responseCode":' || to_json(`+c+`) END`)
		status = "CASE WHEN regexp_full_match(" + c + ", '[+-]?[0-9]+') THEN TRY_CAST(" + c + " AS INTEGER) END"
	}
	tags = append(tags, `'"success":' || to_json(`+trim("success")+`)`)
	if col["threadname"] != "" {
		c := trim("threadname")
		tags = append(tags, `CASE WHEN `+c+` <> '' THEN '"threadName":' || to_json(`+c+`) END`)
	}
	tags = append(tags, `CASE WHEN kind <> 'sampler' THEN '"sample_kind":' || to_json(kind) END`)
	comp := "'none'"
	if in.Gzip {
		comp = "'gzip'"
	}
	return `INSERT INTO samples SELECT r.run_id, make_timestamp(ts * 1000), 'http_req_duration', elapsed::DOUBLE, status, ` +
		`'{' || concat_ws(',', ` + strings.Join(tags, ", ") + `) || '}' ` +
		`FROM (SELECT file_index::BIGINT AS file_index, ` + label + ` AS label, ` + kind + ` AS kind, CAST(` + trim("timestamp") + ` AS BIGINT) AS ts, CAST(` + trim("elapsed") + ` AS BIGINT) AS elapsed, ` +
		status + ` AS status, * ` +
		`FROM read_csv(` + scanPaths(files) + `, header = ` + strconv.FormatBool(!in.NoHeader) + `, auto_detect = false, delim = ',', quote = '"', escape = '"', ` +
		csvReadOptions + `compression = ` + comp + `, columns = {` + strings.Join(cols, ", ") + `})) ` +
		`JOIN (VALUES ` + strings.Join(runs, ", ") + `) AS r(file_index, label, kind, run_id) USING (file_index, label, kind)`, nil
}

// sqlText is any text, NUL bytes included (which end a quoted literal
// for DuckDB's parser), as an SQL expression: its bytes in base64,
// decoded.
func sqlText(v string) string {
	return "decode(from_base64('" + base64.StdEncoding.EncodeToString([]byte(v)) + "'))"
}
