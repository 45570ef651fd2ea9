// Command aa-server answers GET /work with the SHA-256 of a 4 KiB body
// repeated 8 times, as JSON: a fixed amount of CPU per request.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	flag.Parse()
	body := make([]byte, 4096)
	http.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	http.HandleFunc("/work", func(w http.ResponseWriter, r *http.Request) {
		sum := sha256.Sum256(body)
		for range 7 {
			sum = sha256.Sum256(append(body[:4064:4064], sum[:]...))
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"sha256": hex.EncodeToString(sum[:])})
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
