package publicdata

import (
	"fmt"
	"io"
	"strings"
)

// StatCanAttribution is the credit the Statistics Canada Open Licence
// asks for.
const StatCanAttribution = "Source: Statistics Canada, Table 18-10-0245-01 Monthly average retail prices for selected products, Statistics Canada Open Licence"

// StatCanCaveat is Statistics Canada's own warning about the table.
const StatCanCaveat = "Statistics Canada monthly average: these averages are not a time series; compare them with care from month to month."

// Benchmark is one month's Statistics Canada average price of a product
// in a province (or Canada, "CA").
type Benchmark struct {
	Province string // a province code, or "CA" for Canada
	Product  string // as StatCan names it, e.g. "Milk, 2 litres"
	Month    string // YYYY-MM
	UOM      string // the unit of measure, e.g. "Dollars"
	Cents    int64
}

// The columns of the table's CSV download.
var statCanCols = []string{"REF_DATE", "GEO", "DGUID", "Products", "UOM", "UOM_ID", "SCALAR_FACTOR", "SCALAR_ID",
	"VECTOR", "COORDINATE", "VALUE", "STATUS", "SYMBOL", "TERMINATED", "DECIMALS"}

// statCanGeo maps the table's GEO names to province codes.
var statCanGeo = map[string]string{
	"Canada": "CA", "Newfoundland and Labrador": "NL", "Prince Edward Island": "PE", "Nova Scotia": "NS",
	"New Brunswick": "NB", "Quebec": "QC", "Ontario": "ON", "Manitoba": "MB", "Saskatchewan": "SK",
	"Alberta": "AB", "British Columbia": "BC", "Yukon": "YT", "Northwest Territories": "NT", "Nunavut": "NU",
}

func convertStatCan(files []File) (*Conversion, error) {
	sum := &Summary{Source: StatCan, Attribution: StatCanAttribution}
	conv := &Conversion{Source: StatCan, Summary: sum}
	var notMap tally
	products := map[string]bool{}
	for _, f := range files {
		rc, cr, idx, err := openCSV(f, statCanCols)
		if err != nil {
			return nil, err
		}
		if idx[0] < 0 || idx[1] < 0 || idx[3] < 0 || idx[10] < 0 {
			rc.Close()
			return nil, fmt.Errorf("%s is not a Statistics Canada table CSV: want the columns %s", f.Name, strings.Join(statCanCols, ", "))
		}
		for line := 2; ; line++ {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			sum.Rows++
			at := fmt.Sprintf("%s:%d", f.Name, line)
			if err != nil {
				notMap.add("row not readable as CSV", at)
				continue
			}
			geo := field(rec, idx[1])
			prov, ok := statCanGeo[geo]
			if !ok {
				notMap.add("GEO is not Canada or a province", at+": "+geo)
				continue
			}
			month := field(rec, idx[0])
			if _, _, ok := parseDay(month + "-01"); !ok || len(month) != 7 {
				notMap.add("REF_DATE is not a month YYYY-MM", at+": "+month)
				continue
			}
			if s := field(rec, idx[6]); s != "" && !strings.HasPrefix(strings.ToLower(s), "units") {
				notMap.add("SCALAR_FACTOR is not units", at+": "+s)
				continue
			}
			v := field(rec, idx[10])
			c, ok := floatCents(v)
			if v == "" || !ok || c <= 0 {
				notMap.add("no value (STATUS "+field(rec, idx[11])+")", at)
				continue
			}
			product := field(rec, idx[3])
			conv.Benchmarks = append(conv.Benchmarks, Benchmark{Province: prov, Product: product, Month: month, UOM: field(rec, idx[4]), Cents: c})
			if !products[product] {
				products[product] = true
				sum.Products++
			}
			sum.Kept++
		}
		rc.Close()
	}
	sum.NotMapped = notMap.list()
	return conv, nil
}
