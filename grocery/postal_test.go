package grocery

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestPostalCodeOneRule feeds the same postal codes to ParsePostalCode and
// to the import of a stores file: the importer accepts a store's code
// exactly when ParsePostalCode does and gives the store's province, and
// stores the same normalised code. X0A-X0C are Nunavut, the other X codes
// the Northwest Territories (Canada Post).
func TestPostalCodeOneRule(t *testing.T) {
	bannerIn := map[string]string{"ON": "loblaws", "QC": "provigo", "NT": "northern", "NU": "northern"}
	codes := []string{
		"K1A 0B1", "k1a0b1", " H2T 1S4 ", // ON, ON, QC
		"X0A 0H0", "X0B 0C0", "X0C 0G0", // Nunavut: Iqaluit, Cambridge Bay, Rankin Inlet
		"X1A 2P3", "X0E 0T0", "X0G 0B0", // NT: Yellowknife, Hay River, Fort Simpson
		"K 1A0B1", "K1A0 B1", "K1A  0B1", "M5J 2R", "W1A 1A1", "M5O 2R6", // not postal codes
	}
	ctx := context.Background()
	svc := openImportService(t)
	for i, code := range codes {
		pc, perr := ParsePostalCode(code)
		for _, prov := range []string{"ON", "QC", "NT", "NU"} {
			t.Run(fmt.Sprintf("%s/%s", strings.TrimSpace(code), prov), func(t *testing.T) {
				id := fmt.Sprintf("S%d-%s", i, prov)
				row := fmt.Sprintf("%s,%s,%s,Store,Town,%s,62.45,-114.37,true", id, bannerIn[prov], prov, code)
				rep, err := svc.Import(ctx, "stores.csv", strings.NewReader(lines(storesHeader, row)), nil)
				wantOK := perr == nil && pc.Province == prov
				if (err == nil) != wantOK {
					t.Fatalf("import of a %s store: got %v, want accepted %v (ParsePostalCode: %+v, %v)", prov, err, wantOK, pc, perr)
				}
				if err != nil {
					return
				}
				if rep.New != 1 {
					t.Fatalf("got %+v, want one new store", countsOf(rep))
				}
				res, err := svc.ListReferenceStores(ctx, StoresInput{Province: prov, Limit: Some(50)})
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range res.Stores {
					if st.ID == id && st.PostalCode != pc.Code {
						t.Errorf("stored: got postal code %q, want %q", st.PostalCode, pc.Code)
					}
				}
			})
		}
	}
}
