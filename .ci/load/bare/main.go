// Command bare is the load run's baseline: a bare net/http server that
// answers every request with a fixed JSON body read from a file. What the
// grocery server costs beyond it is the request path's overhead.
package main

import (
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: bare ADDR BODY_FILE")
	}
	body, err := os.ReadFile(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	n := strconv.Itoa(len(body))
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", n)
		w.Write(body)
	})))
}
