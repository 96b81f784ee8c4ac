package restserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestOpenAPIVersion: GET /openapi.json names the build's version in
// info.version (Redoc titles the page with it), and openapi.json in the
// source names the release, so a client generated from the file knows it.
func TestOpenAPIVersion(t *testing.T) {
	var file struct{ Info struct{ Version string } }
	if err := json.Unmarshal(openAPIDoc, &file); err != nil {
		t.Fatal(err)
	}
	if file.Info.Version != grocery.Release {
		t.Errorf("openapi.json info.version is %q: want grocery.Release %q (bump both together)", file.Info.Version, grocery.Release)
	}

	srv := httptest.NewServer(New(nil, nil))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var served struct{ Info struct{ Version string } }
	if err := json.NewDecoder(resp.Body).Decode(&served); err != nil {
		t.Fatal(err)
	}
	if served.Info.Version != grocery.Version() {
		t.Errorf("served info.version: got %q, want grocery.Version() %q", served.Info.Version, grocery.Version())
	}

	// A build with a revision: only info.version changes.
	const v = "0.15.0+61bbb1a2c3d4.dirty"
	got := withInfoVersion(openAPIDoc, v)
	var doc, orig map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(openAPIDoc, &orig)
	if iv := doc["info"].(map[string]any)["version"]; iv != v {
		t.Errorf("withInfoVersion: info.version %v, want %s", iv, v)
	}
	doc["info"].(map[string]any)["version"] = file.Info.Version
	a, _ := json.Marshal(doc)
	b, _ := json.Marshal(orig)
	if !bytes.Equal(a, b) {
		t.Error("withInfoVersion changed more than info.version")
	}
}
