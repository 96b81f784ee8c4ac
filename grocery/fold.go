package grocery

import "github.com/grocerydata/grocery/grocery/internal/textfold"

// fold, foldKey and tokens are textfold's rules under the names the
// queries use: see textfold.Fold, textfold.Key and textfold.Tokens.
func fold(r rune) rune         { return textfold.Fold(r) }
func foldKey(s string) string  { return textfold.Key(s) }
func tokens(s string) []string { return textfold.Tokens(s) }
