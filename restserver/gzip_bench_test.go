package restserver_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/servetest"
	"github.com/grocerydata/grocery/restserver"
)

// BenchmarkGzip fetches the small demo set's 30-day CSV export of
// Ontario's observations and /openapi.json over a loopback listener,
// with and without Accept-Encoding: gzip, reading the bytes as sent (the
// client does not decompress). It reports the bytes on the wire and the
// process's CPU time per answer (server and client, mostly the
// server's encoding). Level compresses the identity CSV alone at levels
// 1 (gzipLevel) and 6 (gzip's default), for the choice of level.
//
//	nice go test ./restserver -run XXX -bench Gzip -benchtime 10x
func BenchmarkGzip(b *testing.B) {
	if testing.Short() {
		b.Skip("builds the small demo set: not in -short mode")
	}
	path := filepath.Join(b.TempDir(), "demo.db")
	if _, err := grocery.BuildDemo(b.Context(), path, &grocery.DemoOptions{AsOf: benchAsOf}); err != nil {
		b.Fatal(err)
	}
	s, err := grocery.Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	k, err := s.CreateKey(b.Context(), grocery.KeyInput{Account: "bench-gzip", Plan: "integration", Quota: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(restserver.New(s, nil))
	defer hs.Close()
	var csv []byte
	for _, p := range []struct{ name, path string }{
		{"CSVExport", "/b2b/export?dataset=observations&province=ON&format=csv"},
		{"OpenAPI", "/openapi.json"},
	} {
		for _, enc := range []string{"identity", "gzip"} {
			b.Run(p.name+"/"+enc, func(b *testing.B) {
				var n int
				cpu := servetest.CPUTime()
				for b.Loop() {
					r := rawGet(b, "GET", hs.URL, k.Key, p.path, "Accept-Encoding", enc)
					if r.Status != 200 {
						b.Fatalf("got %d", r.Status)
					}
					n = len(r.Body)
					if p.name == "CSVExport" && enc == "identity" {
						csv = r.Body
					}
				}
				b.ReportMetric(float64(n), "wire-bytes")
				b.ReportMetric(float64(servetest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
	for _, level := range []int{gzip.BestSpeed, gzip.DefaultCompression} {
		b.Run("Level/"+map[int]string{gzip.BestSpeed: "1", gzip.DefaultCompression: "6"}[level], func(b *testing.B) {
			var out bytes.Buffer
			zw, _ := gzip.NewWriterLevel(io.Discard, level)
			cpu := servetest.CPUTime()
			for b.Loop() {
				out.Reset()
				zw.Reset(&out)
				zw.Write(csv)
				zw.Close()
			}
			b.ReportMetric(float64(out.Len()), "wire-bytes")
			b.ReportMetric(float64(servetest.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
