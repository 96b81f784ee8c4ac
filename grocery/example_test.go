package grocery_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/grocerydata/grocery/grocery"
)

const exampleStores = `store_id,banner,province,name,city,postal_code,latitude,longitude
nofrills-on-1,no-frills,ON,No Frills Danforth,Toronto,M4C 1B5,43.6850,-79.3150
loblaws-on-1,loblaws,ON,Loblaws Queens Quay,Toronto,M5J 2V1,43.6426,-79.3780
loblaws-on-2,loblaws,ON,Loblaws Rideau,Ottawa,K1N 5Y3,45.4270,-75.6900
maxi-qc-1,maxi,QC,Maxi Saint-Hubert,Montréal,H2J 2X9,45.5350,-73.5900
`

const exampleObservations = `date,store_id,banner,external_sku,price,regular_price,promo_ends,upc,name,brand,size,category
2026-11-05,loblaws-on-1,loblaws,20156839_EA,5.49,5.49,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-05,loblaws-on-2,loblaws,20156839_EA,5.49,5.49,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-12,loblaws-on-1,loblaws,20156839_EA,5.49,5.49,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-12,loblaws-on-2,loblaws,20156839_EA,5.69,5.69,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-19,loblaws-on-1,loblaws,20156839_EA,3.99,5.49,2026-11-25,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-19,loblaws-on-2,loblaws,20156839_EA,3.99,5.49,2026-11-25,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-19,nofrills-on-1,no-frills,20156839_EA,4.79,,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-19,maxi-qc-1,maxi,20156839_EA,4.97,,,067000378089,Orange Juice No Pulp,Minute Maid,1.54 L,Beverages
2026-11-19,maxi-qc-1,maxi,20145511_EA,6.49,,,055872101003,Crème glacée vanille,Chapman's,2 L,Frozen
`

// exampleService imports the two small files above into a new data file.
func exampleService() (svc *grocery.Service, cleanup func()) {
	dir, err := os.MkdirTemp("", "grocery-example")
	if err != nil {
		log.Fatal(err)
	}
	svc, err = grocery.Open(filepath.Join(dir, "grocery.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range []struct{ name, data string }{{"stores.csv", exampleStores}, {"observations.csv", exampleObservations}} {
		if _, err := svc.Import(ctx, f.name, strings.NewReader(f.data), nil); err != nil {
			log.Fatal(err)
		}
	}
	return svc, func() { svc.Close(); os.RemoveAll(dir) }
}

// Import two CSV files, then look a barcode up: the current offers of each
// banner in the province, cheapest first.
func Example() {
	dir, err := os.MkdirTemp("", "grocery-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	svc, err := grocery.Open(filepath.Join(dir, "grocery.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer svc.Close()

	ctx := context.Background()
	for _, f := range []struct{ name, data string }{{"stores.csv", exampleStores}, {"observations.csv", exampleObservations}} {
		rep, err := svc.Import(ctx, f.name, strings.NewReader(f.data), nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d %s rows, %d new\n", rep.File, rep.Rows, rep.Kind, rep.New)
	}

	res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: "0 67000 37808 9", Province: "Ontario"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Product.Brand, res.Product.Name, res.Product.Size, "in", res.Province)
	for _, o := range res.Offers {
		fmt.Printf("%-10s %s $%s (regular $%s, promo %v) at %d stores, %s %s\n",
			o.BannerName, o.ExternalSKU, o.Price, o.RegularPrice, o.OnPromo, o.StoreCount, *o.UnitPrice, o.UnitPriceBasis)
	}
	// Output:
	// stores.csv: 4 stores rows, 4 new
	// observations.csv: 9 observations rows, 9 new
	// Minute Maid Orange Juice No Pulp 1.54 L in ON
	// Loblaws    20156839_EA $3.99 (regular $5.49, promo true) at 2 stores, 0.26 per 100 mL
	// No Frills  20156839_EA $4.79 (regular $4.79, promo false) at 1 stores, 0.31 per 100 mL
}

// A barcode the catalogue knows but no banner carries in the province is
// an empty offer list, not an error; an unknown one is ENOTFOUND.
func ExampleService_LookupProduct() {
	svc, cleanup := exampleService()
	defer cleanup()
	ctx := context.Background()

	res, err := svc.LookupProduct(ctx, grocery.LookupInput{UPC: "055872101003", Province: "ON"})
	fmt.Println(res.Product.Name, len(res.Offers), err)

	_, err = svc.LookupProduct(ctx, grocery.LookupInput{UPC: "060383000011", Province: "ON"})
	fmt.Println(grocery.ErrorCode(err))

	_, err = svc.LookupProduct(ctx, grocery.LookupInput{UPC: "067000378088", Province: "ON"})
	fmt.Println(err)
	// Output:
	// Crème glacée vanille 0 <nil>
	// not_found
	// invalid_argument: upc "067000378088" has a wrong check digit: it ends in 8, the GS1 check digit should be 9
}

// Search matches words of the name or brand, without regard to case or
// accents, in one province only.
func ExampleService_SearchProducts() {
	svc, cleanup := exampleService()
	defer cleanup()

	for _, q := range []struct{ query, province string }{{"creme glacee", "QC"}, {"creme glacee", "ON"}, {"minute", "ON"}} {
		res, err := svc.SearchProducts(context.Background(), grocery.SearchInput{Query: q.query, Province: q.province})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q in %s: %d\n", q.query, res.Province, res.Total)
		for _, p := range res.Results {
			fmt.Printf("  %s %s, %d offers\n", p.Brand, p.Name, p.OfferCount)
			for _, o := range p.Shown() {
				fmt.Printf("    %s: $%s\n", o.Banner, o.Price)
			}
		}
	}
	// Output:
	// "creme glacee" in QC: 1
	//   Chapman's Crème glacée vanille, 1 offers
	//     maxi: $6.49
	// "creme glacee" in ON: 0
	// "minute" in ON: 1
	//   Minute Maid Orange Juice No Pulp, 2 offers
	//     loblaws: $3.99
	//     no-frills: $4.79
}

// History is keyed by the banner's own SKU, taken from an offer: never by
// the barcode.
func ExampleService_PriceHistory() {
	svc, cleanup := exampleService()
	defer cleanup()
	ctx := context.Background()

	res, err := svc.PriceHistory(ctx, grocery.HistoryInput{SKU: "20156839_EA", Banner: "Loblaws", Province: "ON", Period: "30d"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s to %s\n", res.From, res.To)
	for _, p := range res.Points {
		fmt.Printf("%s min $%s median $%s max $%s (%d stores)\n", p.Date, p.Min, p.Median, p.Max, p.StoreCount)
	}
	fmt.Printf("change %.1f%%\n", res.Stats.ChangePct)

	_, err = svc.PriceHistory(ctx, grocery.HistoryInput{SKU: "067000378089", Banner: "loblaws", Province: "ON"})
	fmt.Println(grocery.ErrorCode(err))
	// Output:
	// 2026-10-21 to 2026-11-19
	// 2026-11-05 min $5.49 median $5.49 max $5.49 (2 stores)
	// 2026-11-12 min $5.49 median $5.59 max $5.69 (2 stores)
	// 2026-11-19 min $3.99 median $3.99 max $3.99 (2 stores)
	// change -27.3%
	// not_found
}

// The reference stores are the collection panel, with their observation
// volume over the data set's last 30 days.
func ExampleService_ListReferenceStores() {
	svc, cleanup := exampleService()
	defer cleanup()

	res, err := svc.ListReferenceStores(context.Background(), grocery.StoresInput{Province: "ON", Limit: grocery.Some(2)})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Stores {
		fmt.Println(s.ID, s.BannerName, s.City, s.PostalCode, s.Observations30d)
	}
	fmt.Println("total", res.Total)
	// Output:
	// loblaws-on-1 Loblaws Toronto M5J 2V1 3
	// loblaws-on-2 Loblaws Ottawa K1N 5Y3 3
	// total 3
}

func ExampleParseGTIN() {
	g, err := grocery.ParseGTIN("0-66800-00015-2")
	fmt.Println(g, g.UPC(), err)
	_, err = grocery.ParseGTIN("066800000153")
	fmt.Println(grocery.ErrorMessage(err))
	// Output:
	// 00066800000152 066800000152 <nil>
	// upc "066800000153" has a wrong check digit: it ends in 3, the GS1 check digit should be 2
}

func ExampleParseProvince() {
	for _, s := range []string{"on", "Québec", "Nouvelle-Écosse", "Ontari"} {
		code, err := grocery.ParseProvince(s)
		if err != nil {
			fmt.Printf("%q: %s\n", s, grocery.ErrorCode(err))
			continue
		}
		fmt.Printf("%q: %s\n", s, code)
	}
	// Output:
	// "on": ON
	// "Québec": QC
	// "Nouvelle-Écosse": NS
	// "Ontari": invalid_argument
}

// An optional argument: not given, the query's default applies; given,
// even as 0, it is the value (NewOnShelf refuses days 0). In JSON it is
// the number, or absent.
func ExampleOpt() {
	in := grocery.NewOnShelfInput{Province: "ON"}
	fmt.Println(in.Days.Set, in.Days.Or(14))
	in.Days = grocery.Some(30)
	fmt.Println(in.Days.Set, in.Days.Or(14))
	b, _ := json.Marshal(grocery.NewOnShelfInput{Province: "ON", Days: grocery.Some(0)})
	fmt.Println(string(b))
	// Output:
	// false 14
	// true 30
	// {"province":"ON","days":0}
}
