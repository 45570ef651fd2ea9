package record

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock that moves one second each time it is read, so that
// the order of events shows in their times without waiting on the clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

// The recording flow without load: the noise pair, then each trial's
// cells in the order drawn from the seed between the trial's calibration
// pair, every run noted with its trial, position and start; a busy,
// noisy machine is measured and the recording goes on.
func TestRecordTrials(t *testing.T) {
	stage := t.TempDir()
	load := filepath.Join(t.TempDir(), "loadavg")
	os.WriteFile(load, []byte("9.00 9.00 9.00 1/1 1\n"), 0o644)
	p := Short()
	p.Servers = []string{"go-pgx", "go-mysql"}
	p.Trials = 3
	clock := &fakeClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	r := &Runner{Plan: p, Seed: 7, stage: stage, Log: &strings.Builder{}, LoadAvg: load, clock: clock.now}
	var events []string
	r.calibrationJob = func(_ context.Context, pair, phase string) ([]calibrationRow, error) {
		events = append(events, pair+" "+phase)
		ms := int64(1000)
		if phase == "after" {
			ms = 1300 // 30% drift: flagged, never recorded again
		}
		return []calibrationRow{{Processes: 1, MS: ms}, {Processes: 2, MS: ms}}, nil
	}
	ran := map[int][]Cell{}
	r.cellJob = func(_ context.Context, trial int, c Cell) error {
		events = append(events, "cell")
		ran[trial] = append(ran[trial], c)
		for _, f := range c.files(r.Plan, trial) {
			path, err := r.path(f)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(c.String()), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	if err := r.recordTrials(context.Background()); err != nil {
		t.Fatal(err)
	}
	trials := p.DrawTrials(7)
	n := len(p.Cells())
	var want []string
	want = append(want, "noise before", "noise after")
	for _, tr := range trials {
		want = append(want, trialPair(tr.N)+" before")
		for range tr.Cells {
			want = append(want, "cell")
		}
		want = append(want, trialPair(tr.N)+" after")
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events\n%v\nwant\n%v", events, want)
	}
	for _, tr := range trials {
		if !reflect.DeepEqual(ran[tr.N], tr.Cells) {
			t.Errorf("trial %d ran %v, want the drawn order %v", tr.N, ran[tr.N], tr.Cells)
		}
	}
	if reflect.DeepEqual(ran[1], ran[2]) {
		t.Error("trials 1 and 2 ran in the same order")
	}
	if len(r.stats) != 1+p.Trials {
		t.Fatalf("%d calibration pairs, want the noise pair and %d trials", len(r.stats), p.Trials)
	}
	for i, st := range r.stats {
		if st.Load1 != 9 || st.Calm || st.DriftOK || st.DriftText() != "30.0% (over the limit)" {
			t.Errorf("pair %s: %+v", st.Name, st)
		}
		if i > 0 && (st.Trial != i || st.Cells != n || st.Name != trialPair(i)) {
			t.Errorf("pair %d: %+v", i, st)
		}
	}
	if len(r.schedule) != p.Trials*n {
		t.Fatalf("%d runs noted, want %d", len(r.schedule), p.Trials*n)
	}
	for i, row := range r.schedule {
		tr := r.stats[row.Trial]
		if row.Trial != i/n+1 || row.Position != i%n+1 || row.Cell != trials[row.Trial-1].Cells[row.Position-1] {
			t.Errorf("run %d: %+v", i, row)
		}
		if !row.StartedAt.After(tr.Started) || !row.StartedAt.Before(tr.Ended) {
			t.Errorf("run %d started %s, outside its trial's calibrations %s .. %s", i, row.StartedAt, tr.Started, tr.Ended)
		}
		if st, _ := StackOf(row.Cell.Server); row.Database != st.Database || row.File != row.Cell.files(p, row.Trial)[0] {
			t.Errorf("run %d: database %s, file %s", i, row.Database, row.File)
		}
	}
	// The corpus the flow stages is the planned one, every file labelled
	// by exactly one wra.toml entry; trials.csv lists every run.
	for _, write := range []func() error{r.writeRecords, r.writeMemory, r.writeSchedule, r.writeManifest} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	for _, pair := range []string{noisePair, "trial-1", "trial-2", "trial-3"} {
		for _, phase := range []string{"before", "after"} {
			path, _ := r.path(calibrationName(pair, phase))
			os.WriteFile(path, nil, 0o644) // the fake calibration job writes none
		}
	}
	if err := r.checkCorpus(); err != nil {
		t.Error(err)
	}
	f, err := os.Open(filepath.Join(stage, scheduleName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 1+p.Trials*n {
		t.Fatalf("trials.csv: %d rows, %v", len(rows), err)
	}
	if got := strings.Join(rows[0], ","); got != "trial,position,started_at,cell,kind,server,database,test,tool,target_rps,concurrency,file" {
		t.Errorf("trials.csv header %s", got)
	}
	first := r.schedule[0]
	if got, want := strings.Join(rows[1], ","), strings.Join(first.fields(), ","); got != want || !strings.HasPrefix(got, "1,1,2026-12-01T12:00:") {
		t.Errorf("trials.csv first row %s, want %s", got, want)
	}
}

func TestScheduleRowFields(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 3, 250000000, time.UTC)
	for _, c := range []struct {
		row  scheduleRow
		want string
	}{
		{scheduleRow{Trial: 2, Position: 7, StartedAt: at, Cell: Cell{Kind: kindFixed, Server: "go-pq", Endpoint: DBOne, Rate: 250}, Database: PostgreSQL, File: "wrk2/t2/go-pq/one-r250-c16.txt"},
			"2,7,2026-12-01T12:00:03.25Z,fixed-rate go-pq one r=250,fixed-rate,go-pq,postgresql,one,,250,,wrk2/t2/go-pq/one-r250-c16.txt"},
		{scheduleRow{Trial: 1, Position: 1, StartedAt: at, Cell: Cell{Kind: kindTools, Server: "node-pg", Endpoint: Ping, Tool: toolAB}, Database: PostgreSQL, File: "tools/t1/ab/node-pg/ping-c16.txt"},
			"1,1,2026-12-01T12:00:03.25Z,tools node-pg ab ping,tools,node-pg,postgresql,ping,ab,,,tools/t1/ab/node-pg/ping-c16.txt"},
		{scheduleRow{Trial: 5, Position: 9, StartedAt: at, Cell: Cell{Kind: kindWaiting, Server: "go-mysql", Concurrency: 400}, Database: MariaDB, File: "waiting/t5/go-mysql/c400.txt"},
			"5,9,2026-12-01T12:00:03.25Z,waiting go-mysql c=400,waiting,go-mysql,mariadb,waiting,,,400,waiting/t5/go-mysql/c400.txt"},
	} {
		if got := strings.Join(c.row.fields(), ","); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
