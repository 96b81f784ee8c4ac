package admin_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestAdminExport streams exports through the socket: the same bytes and
// rows as from the file, and a bad argument as its *grocery.Error with
// nothing written.
func TestAdminExport(t *testing.T) {
	ctx := context.Background()
	svc, _, c := MustServeAdmin(t)
	stores := "store_id,banner,province,name,city,postal_code,latitude,longitude\n" +
		"nf-1,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.68,-79.31\n"
	obs := "date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category\n" +
		"2026-11-18,nf-1,no-frills,21000001_EA,4.79,,,068000000154,2% Milk,Natrel,2 L,Dairy\n" +
		"2026-11-19,nf-1,no-frills,21000001_EA,4.49,4.99,2026-11-25,,,,,\n"
	for _, f := range []struct{ name, body string }{{"stores.csv", stores}, {"prices.csv", obs}} {
		if _, err := svc.Import(ctx, f.name, strings.NewReader(f.body), nil); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	for _, format := range []string{"csv", "json", "jsonl", "xlsx"} {
		in := grocery.ExportInput{Format: format, Province: "ON"}
		var local, remote bytes.Buffer
		want, err := svc.Export(ctx, in, &local)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Export(ctx, in, &remote)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		// A workbook records the second it was made, and its compressed
		// size can differ by a byte between two exports made in different
		// seconds: its rows must agree, its bytes need not.
		if got.Rows != 2 || got.Rows != want.Rows || format != "xlsx" && *got != *want {
			t.Errorf("%s: summary got %+v, want %+v with 2 rows", format, got, want)
		}
		if format != "xlsx" && remote.String() != local.String() {
			t.Errorf("%s: got\n%s\nwant\n%s", format, remote.String(), local.String())
		}
	}
	var buf bytes.Buffer
	_, err := c.Export(ctx, grocery.ExportInput{Format: "xml"}, &buf)
	adminErrIs(t, err, grocery.EINVALIDARGUMENT, `format "xml"`)
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes on an error", buf.Len())
	}
}
