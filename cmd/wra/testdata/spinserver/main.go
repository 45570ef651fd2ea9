// Command spinserver is the server of wra record's tests: an HTTP server
// whose /spin?us=N spends N µs of CPU per request, measured on the
// clock of the thread that serves it (CLOCK_THREAD_CPUTIME_ID, with the
// goroutine locked to that thread), so that a busy machine, which
// stretches the wall time of a request, does not change its CPU time.
// /spin?us=0 is the HTTP handling alone, which a test subtracts.
//
//	go build -o spinserver ./testdata/spinserver && ./spinserver -addr 127.0.0.1:8080
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"runtime"
	"strconv"
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

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	http.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	http.HandleFunc("/spin", func(w http.ResponseWriter, r *http.Request) {
		us, err := strconv.Atoi(r.URL.Query().Get("us"))
		if err != nil || us < 0 {
			http.Error(w, "us: expected a whole number of microseconds", http.StatusBadRequest)
			return
		}
		spin(time.Duration(us) * time.Microsecond)
		fmt.Fprintln(w, "ok")
	})
	fmt.Fprintf(os.Stderr, "spinserver: listening on %s\n", *addr)
	log.Fatal(http.ListenAndServe(*addr, nil))
}
