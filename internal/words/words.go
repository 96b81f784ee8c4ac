// Package words holds the English of messages that grocery and its
// internal packages share.
package words

// Plural returns word, with an s unless n is 1: "1 banner", "2 banners".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
