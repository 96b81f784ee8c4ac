// Command lean looks up one barcode on the demo data: the smallest program
// that embeds the library. It imports package grocery alone, so it links
// none of the optional formats (XLSX, Parquet); its size is what an
// embedder pays for Open and LookupProduct.
//
// Without -db it works on a demo data file of its own, lean.db, which it
// builds on first run (a few seconds).
//
//	go run ./examples/lean
//	go run ./examples/lean -upc 067000378089 -province QC
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/grocerydata/grocery/grocery"
)

func main() {
	db := flag.String("db", "", "data file (default: lean.db, the demo data, built if missing)")
	upc := flag.String("upc", "067000378089", "barcode to look up")
	province := flag.String("province", "ON", "province code or name")
	flag.Parse()
	if err := run(context.Background(), *db, *upc, *province); err != nil {
		log.Fatal(grocery.ErrorMessage(err))
	}
}

func run(ctx context.Context, db, upc, province string) error {
	if db == "" {
		db = "lean.db"
		if _, err := os.Stat(db); err != nil {
			fmt.Fprintf(os.Stderr, "Building the demo data in %s ...\n", db)
			if _, err := grocery.BuildDemo(ctx, db, nil); err != nil {
				return err
			}
		}
	}
	svc, err := grocery.Open(db, &grocery.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer svc.Close()
	res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: upc, Province: province})
	if err != nil {
		return err
	}
	fmt.Printf("%s %s in %s: %d offers\n", res.Product.UPC, res.Product.Name, res.Province, len(res.Offers))
	for _, o := range res.Offers {
		fmt.Printf("  %-24s %-14s $%s\n", o.BannerName, o.ExternalSKU, o.Price)
	}
	return nil
}
