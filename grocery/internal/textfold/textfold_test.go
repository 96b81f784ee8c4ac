package textfold

import (
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	for in, want := range map[string][]string{
		"Crème Glacée 2%":       {"creme", "glacee", "2"},
		"Dempster's bread":      {"dempsters", "bread"},
		"Dempster’s":            {"dempsters"},
		"  ":                    nil,
		"ÎLE-du-Prince-Édouard": {"ile", "du", "prince", "edouard"},
	} {
		if got := Tokens(in); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestKey(t *testing.T) {
	if got, want := Key("Île-du-Prince-Édouard"), Key("ile du prince edouard"); got != want || got != "ileduprinceedouard" {
		t.Errorf("Key: got %q and %q, want both ileduprinceedouard", got, want)
	}
}

func TestFrenchTokens(t *testing.T) {
	for in, want := range map[string][]string{
		"Lait d'avoine":               {"lait", "davoine", "avoine"},
		"Jus d’orange sans pulpe":     {"jus", "dorange", "sans", "pulpe", "orange"},
		"Crème glacée à l'érable":     {"creme", "glacee", "a", "lerable", "erable"},
		"Fromage à pâte demi-ferme":   {"fromage", "a", "pate", "demi", "ferme"},
		"Biscuits de l'Île d'Orléans": {"biscuits", "de", "lile", "dorleans", "ile", "orleans"},
		"Aujourd'hui":                 {"aujourdhui"},
	} {
		if got := FrenchTokens(in); !slices.Equal(got, want) {
			t.Errorf("FrenchTokens(%q): got %q, want %q", in, got, want)
		}
	}
}
