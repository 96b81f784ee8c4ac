package grocery

import "github.com/grocerydata/grocery/grocery/internal/textfold"

// foldKey and tokens are textfold's rules under the names the queries
// use: see textfold.Key and textfold.Tokens.
func foldKey(s string) string  { return textfold.Key(s) }
func tokens(s string) []string { return textfold.Tokens(s) }
