package restserver_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/restserver"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestExportParquetReadBack exports each dataset of the small demo set
// over HTTP as CSV and as Parquet, reads the Parquet file back with the
// Parquet library and finds the CSV's header and every one of its rows in
// it, value by value: each column typed (DATE, DECIMAL(18,2), BOOLEAN,
// INT64, DOUBLE, dictionary-encoded STRING), an empty CSV field a null.
func TestExportParquetReadBack(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the small demo set: not in -short mode")
	}
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: benchAsOf}); err != nil {
		t.Fatal(err)
	}
	s, err := grocery.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k, err := s.CreateKey(ctx, grocery.KeyInput{Account: "parquet-read-back", Plan: "integration"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(restserver.New(s, nil))
	defer hs.Close()
	fetch := func(query string) ([]byte, http.Header) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, hs.URL+"/b2b/export?"+query, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-API-Key", k.Key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s: %s", query, resp.Status, body)
		}
		return body, resp.Header
	}
	// The Parquet type of each column, by name, as the OpenAPI document
	// lists them.
	types := map[string]string{
		"date": "DATE", "promo_ends": "DATE", "promo_ended": "DATE", "observed_at": "DATE",
		"price": "DECIMAL(18,2)", "regular_price": "DECIMAL(18,2)", "min_price": "DECIMAL(18,2)",
		"max_price": "DECIMAL(18,2)", "unit_price": "DECIMAL(18,2)",
		"on_promo": "BOOLEAN", "active": "BOOLEAN", "store_count": "INT64", "observations_30d": "INT64",
		"latitude": "DOUBLE", "longitude": "DOUBLE",
	}
	for _, tc := range []struct {
		query   string
		minRows int
	}{
		{"dataset=observations&from=2026-10-21&to=2026-11-19", 20000},
		{"dataset=offers", 2000},
		{"dataset=stores", 50},
	} {
		t.Run(tc.query, func(t *testing.T) {
			body, _ := fetch(tc.query + "&format=csv")
			want, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(want) < tc.minRows {
				t.Fatalf("the CSV export has %d rows: want at least %d to compare", len(want), tc.minRows)
			}
			pq, h := fetch(tc.query + "&format=parquet")
			if ct := h.Get("Content-Type"); ct != "application/vnd.apache.parquet" {
				t.Errorf("Content-Type %q", ct)
			}
			if cd := h.Get("Content-Disposition"); !strings.HasSuffix(cd, `.parquet"`) {
				t.Errorf("Content-Disposition %q", cd)
			}
			f, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
			if err != nil {
				t.Fatal(err)
			}
			leaves := f.Schema().Fields()
			var header []string
			for _, c := range leaves {
				header = append(header, c.Name())
				wantType := types[c.Name()]
				if wantType == "" {
					wantType = "STRING"
				}
				if got := parquetType(c); got != wantType || !c.Optional() {
					t.Errorf("column %s: %s (optional %v), want optional %s", c.Name(), got, c.Optional(), wantType)
				}
			}
			if diff := cmp.Diff(want[0], header); diff != "" {
				t.Fatalf("header (-csv +parquet):\n%s", diff)
			}
			// Text columns are dictionary-encoded.
			for _, ch := range f.Metadata().RowGroups[0].Columns {
				name := ch.MetaData.PathInSchema[0]
				if types[name] == "" && !hasDictionary(ch.MetaData.Encoding) {
					t.Errorf("column %s: encodings %v, want a dictionary", name, ch.MetaData.Encoding)
				}
			}
			var got [][]string
			got = append(got, header)
			for _, rg := range f.RowGroups() {
				rows := rg.Rows()
				buf := make([]parquet.Row, 256)
				for {
					n, err := rows.ReadRows(buf)
					for _, r := range buf[:n] {
						rec := make([]string, len(leaves))
						for _, v := range r {
							rec[v.Column()] = csvText(t, leaves[v.Column()], v)
						}
						got = append(got, rec)
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				rows.Close()
			}
			if len(got) != len(want) {
				t.Fatalf("rows: the Parquet file has %d, the CSV %d", len(got)-1, len(want)-1)
			}
			for i := range want {
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Fatalf("row %d (-csv +parquet):\n%s", i, diff)
				}
			}
		})
	}
}

func hasDictionary(encs []format.Encoding) bool {
	for _, e := range encs {
		if e == format.RLEDictionary {
			return true
		}
	}
	return false
}

// parquetType names a column's type as the OpenAPI document does.
func parquetType(c parquet.Field) string {
	lt := c.Type().LogicalType()
	switch {
	case lt != nil && lt.Value != nil:
		switch v := lt.Value.(type) {
		case *format.DateType:
			return "DATE"
		case *format.DecimalType:
			return fmt.Sprintf("DECIMAL(%d,%d)", v.Precision, v.Scale)
		case *format.StringType:
			return "STRING"
		case *format.IntType:
			return fmt.Sprintf("INT%d", v.BitWidth)
		}
		return lt.String()
	}
	return c.Type().Kind().String()
}

// csvText is a Parquet value as the CSV export writes it.
func csvText(t *testing.T, c parquet.Field, v parquet.Value) string {
	if v.IsNull() {
		return ""
	}
	switch parquetType(c) {
	case "DATE":
		return time.Unix(int64(v.Int32())*86400, 0).UTC().Format(time.DateOnly)
	case "DECIMAL(18,2)":
		n := v.Int64()
		return fmt.Sprintf("%d.%02d", n/100, n%100)
	case "BOOLEAN":
		return strconv.FormatBool(v.Boolean())
	case "INT64":
		return strconv.FormatInt(v.Int64(), 10)
	case "DOUBLE":
		return strconv.FormatFloat(v.Double(), 'f', -1, 64)
	case "STRING":
		s := string(v.ByteArray())
		if strings.HasPrefix(s, "=") || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "@") {
			return "'" + s // the CSV export neutralises a formula
		}
		return s
	}
	t.Fatalf("column %s: unexpected type %s", c.Name(), parquetType(c))
	return ""
}
