package publicdata

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// HammerSample sizes a synthetic Project Hammer data set.
type HammerSample struct {
	Products int    // products, spread over the eight vendors
	Days     int    // days of prices from 2024-02-28
	Seed     uint64 // the same seed writes the same files
}

// WriteHammerSample writes a synthetic hammer-4-product.csv to products
// and hammer-4-raw.csv to raw, in the published columns and row order
// (by time), for measuring an import at scale: one price per product and
// day, a sale now and then, and about one row in a thousand corrupt as
// the real files are (the sentinel date, a shifted column, out of stock).
// It returns the rows written to raw.
func WriteHammerSample(products, raw io.Writer, s HammerSample) (int, error) {
	vendors := []string{"Voila", "TandT", "Loblaws", "NoFrills", "Metro", "Galleria", "Walmart", "SaveOnFoods"}
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9E3779B97F4A7C15))
	pw := bufio.NewWriterSize(products, 1<<16)
	fmt.Fprintln(pw, "id,concatted,vendor,product_name,units,brand,detail_url,sku,upc")
	base := make([]int64, s.Products)
	for i := range s.Products {
		v := vendors[i%len(vendors)]
		upc := ""
		if i%3 != 0 {
			upc = gtin13(uint64(7_540_000_000_00 + i))
		}
		base[i] = int64(199 + rng.IntN(1800))
		fmt.Fprintf(pw, "%d,%sProduct %d500 g,%s,Product %d,500 g,Brand %d,https://example.com/%d,%s-%d,%s\n",
			i+1, v, i, v, i, i%97, i, v[:2], i, upc)
	}
	if err := pw.Flush(); err != nil {
		return 0, err
	}
	rw := bufio.NewWriterSize(raw, 1<<16)
	fmt.Fprintln(rw, "nowtime,current_price,old_price,price_per_unit,other,product_id")
	start := time.Date(2024, 2, 28, 0, 0, 0, 0, time.UTC)
	n := 0
	for d := range s.Days {
		date := start.AddDate(0, 0, d).Format("2006-01-02")
		for i := range s.Products {
			n++
			p := base[i]
			switch r := rng.IntN(1000); {
			case r == 0:
				fmt.Fprintf(rw, "-4713-11-24 00:00:00,%s,,,,%d\n", dollars(p), i+1)
			case r == 1:
				fmt.Fprintf(rw, "%s 11:%02d:00,$%s/100g,%s,,,%d\n", date, i%60, dollars(p/5), dollars(p), i+1)
			case r == 2:
				fmt.Fprintf(rw, "%s 11:%02d:00,%s,,,Out of stock,%d\n", date, i%60, dollars(p), i+1)
			case r < 100:
				fmt.Fprintf(rw, "%s 11:%02d:00,%s,%s,$%s/100g,SALE,%d\n", date, i%60, dollars(p*8/10), dollars(p), dollars(p*8/50), i+1)
			default:
				fmt.Fprintf(rw, "%s 11:%02d:00,%s,,$%s/100g,,%d\n", date, i%60, dollars(p), dollars(p/5), i+1)
			}
		}
	}
	return n, rw.Flush()
}

// WriteHammerSampleFiles writes WriteHammerSample's files into dir, as
// hammer-4-product.csv and hammer-4-raw.csv, and returns the raw rows
// written.
func WriteHammerSampleFiles(dir string, s HammerSample) (int, error) {
	pf, err := os.Create(filepath.Join(dir, "hammer-4-product.csv"))
	if err != nil {
		return 0, err
	}
	defer pf.Close()
	rf, err := os.Create(filepath.Join(dir, "hammer-4-raw.csv"))
	if err != nil {
		return 0, err
	}
	defer rf.Close()
	rows, err := WriteHammerSample(pf, rf, s)
	if err != nil {
		return 0, err
	}
	if err := pf.Close(); err != nil {
		return 0, err
	}
	return rows, rf.Close()
}

// gtin13 returns the 12 digits of n with their GS1 check digit.
func gtin13(n uint64) string {
	s := fmt.Sprintf("%012d", n%1_000_000_000_000)
	sum := 0
	for i := range 12 {
		d := int(s[11-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return s + string(rune('0'+(10-sum%10)%10))
}
