// Command queries opens a grocery data file and runs the four queries the
// way an agent chains them: search by name, look the barcode up, take an
// offer's external_sku to its price history, and list the reference stores
// the prices come from.
//
// Without -db it works on a demo data file of its own, examples.db, which
// it builds on first run (a few seconds): a server running on grocery.db
// holds that file, and one process at a time may.
//
//	go run ./examples/queries -q "milk" -province ON
//	go run ./examples/queries -db mydata.db -q "orange juice"
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/grocerydata/grocery/grocery"
)

func main() {
	db := flag.String("db", "", "data file (default: examples.db, the demo data, built if missing)")
	query := flag.String("q", "milk", "search words")
	province := flag.String("province", "ON", "province code or name")
	flag.Parse()
	if err := run(context.Background(), *db, *query, *province); err != nil {
		log.Fatal(grocery.ErrorMessage(err))
	}
}

func run(ctx context.Context, db, query, province string) error {
	if db == "" {
		db = "examples.db"
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

	// 1. Search by name: products with their cheapest current prices.
	found, err := svc.SearchProducts(ctx, grocery.SearchInput{Query: query, Province: province, Limit: grocery.Some(5)})
	if err != nil {
		return err
	}
	fmt.Printf("search %q in %s: %d of %d products\n", query, found.Province, len(found.Results), found.Total)
	for _, p := range found.Results {
		fmt.Printf("  %-13s %-28s %-10s %d offers\n", p.UPC, p.Name, p.Size, p.OfferCount)
		for _, o := range p.Shown() {
			fmt.Printf("    %-24s $%s\n", o.Banner, o.Price)
		}
	}
	if len(found.Results) == 0 {
		return nil
	}

	// 2. Barcode -> the offers across banners in the province.
	look, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: found.Results[0].UPC, Province: province})
	if err != nil {
		return err
	}
	fmt.Printf("\nlookup %s (%s %s, %s): %d offers\n", look.Product.UPC, look.Product.Brand, look.Product.Name, look.Product.Size, len(look.Offers))
	for _, o := range look.Offers {
		promo := ""
		if o.OnPromo {
			promo = fmt.Sprintf(" (promo, regular $%s, ends %s)", o.RegularPrice, o.PromoEnds)
		}
		fmt.Printf("  %-24s sku %-14s $%s%s at %d stores\n", o.BannerName, o.ExternalSKU, o.Price, promo, o.StoreCount)
	}
	if len(look.Offers) == 0 {
		return nil
	}

	// 3. An offer's external_sku and banner -> its price history.
	o := look.Offers[0]
	hist, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: o.ExternalSKU, Banner: o.Banner, Province: province, Period: "90d"})
	if err != nil {
		return err
	}
	fmt.Printf("\nhistory of %s at %s, %s to %s: %d points\n", hist.SKU, o.BannerName, hist.From, hist.To, len(hist.Points))
	if hist.Stats != nil {
		fmt.Printf("  min $%s, max $%s, latest $%s, change %+.2f%%\n", hist.Stats.Min, hist.Stats.Max, hist.Stats.Latest, hist.Stats.ChangePct)
	}

	// 4. The panel those prices come from.
	stores, err := svc.ListReferenceStores(ctx, grocery.StoresInput{Province: province, Banner: o.Banner, Limit: grocery.Some(3)})
	if err != nil {
		return err
	}
	fmt.Printf("\n%d reference stores of %s in %s; the first %d:\n", stores.Total, o.BannerName, province, len(stores.Stores))
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("  ", "  ")
	return enc.Encode(stores.Stores)
}
