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
