package ingest

import (
	"testing"

	"github.com/grocerydata/grocery/storage"
)

// A product's French name adds its words to the index without changing
// the weight of its English ones, which rank English searches as before;
// French-only words weigh by the French name's words.
func TestProductTokensFrench(t *testing.T) {
	p := storage.Product{Name: "2% Partly Skimmed Milk", Brand: "Natrel"}
	en := productTokens(&p)
	p.NameFr = "Lait partiellement écrémé 2 %"
	both := productTokens(&p)
	for tok, want := range en {
		if got := both[tok]; got != want {
			t.Errorf("%s: got %+v with the French name, want %+v as without", tok, got, want)
		}
	}
	for tok, want := range map[string]productToken{"lait": {storage.TokenInName, 5}, "partiellement": {storage.TokenInName, 5}, "ecreme": {storage.TokenInName, 5}} {
		if got := both[tok]; got != want {
			t.Errorf("%s: got %+v, want %+v", tok, got, want)
		}
	}
	if len(both) != len(en)+3 {
		t.Errorf("tokens: got %d, want %d", len(both), len(en)+3)
	}
	// A product known by its French name only weighs by it.
	fr := productTokens(&storage.Product{NameFr: "Lait d'avoine", Brand: "Earth's Own"})
	for tok, want := range map[string]productToken{"lait": {storage.TokenInName, 5}, "davoine": {storage.TokenInName, 5}, "avoine": {storage.TokenInName, 5}, "earths": {storage.TokenInBrand, 5}, "own": {storage.TokenInBrand, 5}} {
		if got := fr[tok]; got != want {
			t.Errorf("French only, %s: got %+v, want %+v", tok, got, want)
		}
	}
}
