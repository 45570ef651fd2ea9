// Command spinserver is the server of wra record's tests: an HTTP server
// whose /spin?us=N spends N µs of CPU per request, measured on the
// clock of the thread that serves it (CLOCK_THREAD_CPUTIME_ID, with the
// goroutine locked to that thread), so that a busy machine, which
// stretches the wall time of a request, does not change its CPU time.
// /spin?us=0 is the HTTP handling alone, which a test subtracts.
//
// With -stats FILE it also keeps its own account of its CPU, read from
// the kernel (CLOCK_PROCESS_CPUTIME_ID, the figure a cgroup sums): the
// process's CPU when its first spin began and when its latest spin
// ended, and how many spins it served. It writes them to FILE as JSON
// when SIGTERM stops it, so that a test can compare what wra record
// measured from outside with what the server used by its own clock.
//
//	go build -o spinserver ./testdata/spinserver && ./spinserver -addr 127.0.0.1:8080
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// threadCPU reads the calling thread's CPU clock. It is a raw system
// call (clock_gettime of CLOCK_THREAD_CPUTIME_ID has no vDSO fast path):
// the runtime is not told of it, so that a spin of many short calls does
// not have the scheduler hand the thread's P to another thread at each.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if _, _, errno := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_THREAD_CPUTIME_ID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}

var sink uint64

// spin runs on one OS thread until that thread has used d of CPU,
// reading the clock every few thousand cycles of arithmetic.
func spin(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	end := threadCPU() + d
	x := uint64(1)
	for threadCPU() < end {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink += x
}

// processCPU is the CPU the whole process has used, user and kernel.
func processCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// Stats is the server's own account of its spins, as -stats writes it.
type Stats struct {
	FirstSpinStartNS int64 `json:"first_spin_start_cpu_ns"`
	LastSpinEndNS    int64 `json:"last_spin_end_cpu_ns"`
	Spins            int   `json:"spins"`
}

var stats struct {
	sync.Mutex
	Stats
}

// writeStatsOnTerm writes the stats to path when SIGTERM arrives, and exits.
func writeStatsOnTerm(path string) {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		stats.Lock()
		b, err := json.Marshal(stats.Stats)
		stats.Unlock()
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			log.Fatalf("spinserver: -stats: %v", err)
		}
		os.Exit(0)
	}()
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	statsFile := flag.String("stats", "", "write the server's own CPU account of its spins to this file at SIGTERM")
	flag.Parse()
	if *statsFile != "" {
		writeStatsOnTerm(*statsFile)
	}
	http.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	http.HandleFunc("/spin", func(w http.ResponseWriter, r *http.Request) {
		us, err := strconv.Atoi(r.URL.Query().Get("us"))
		if err != nil || us < 0 {
			http.Error(w, "us: expected a whole number of microseconds", http.StatusBadRequest)
			return
		}
		stats.Lock()
		if stats.FirstSpinStartNS == 0 {
			stats.FirstSpinStartNS = int64(processCPU())
		}
		stats.Unlock()
		spin(time.Duration(us) * time.Microsecond)
		stats.Lock()
		stats.Spins++
		stats.LastSpinEndNS = int64(processCPU())
		stats.Unlock()
		fmt.Fprintln(w, "ok")
	})
	fmt.Fprintf(os.Stderr, "spinserver: listening on %s\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
