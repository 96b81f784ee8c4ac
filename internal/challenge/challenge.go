// Package challenge writes the WWW-Authenticate challenge of a 401, as
// RFC 6750 (section 3) words it, for both servers: a request that sent
// no credentials gets the scheme and realm alone; one whose credentials
// were refused gets error="invalid_token" and an error_description
// saying why (unknown, revoked, malformed), which clients and SDKs show
// to their user where they would otherwise show only "401".
package challenge

import "strings"

// Header returns the challenge of scheme (Bearer, APIKey) for realm. An
// empty description means no credentials came: no error is named
// (RFC 6750 section 3.1). Otherwise the challenge carries
// error="invalid_token" and the description, its characters outside
// what a quoted error_description may hold (%x20-21 / %x23-5B /
// %x5D-7E: no quote, backslash or non-ASCII) replaced by a space.
func Header(scheme, realm, description string) string {
	h := scheme + ` realm="` + realm + `"`
	if description == "" {
		return h
	}
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return ' '
		}
		return r
	}, description)
	return h + `, error="invalid_token", error_description="` + clean + `"`
}
