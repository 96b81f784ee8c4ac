package grocery_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/grocerydata/grocery/grocery"
)

// TestBuildDemoRefusesFileInUse: replacing a data file that another
// process holds would leave that process (a server) writing its keys and
// counts to a deleted file, so BuildDemo refuses even with Force, and the
// held file keeps what it had.
func TestBuildDemoRefusesFileInUse(t *testing.T) {
	ctx := context.Background()
	asOf, _ := grocery.ParseDate("2026-11-19")
	for _, tc := range []struct {
		name string
		opts *grocery.Options
	}{
		{"ErrWriter", &grocery.Options{}},
		{"ErrReader", &grocery.Options{ReadOnly: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "grocery.db")
			if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf}); err != nil {
				t.Fatal(err)
			}
			w, err := grocery.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			key, err := w.CreateKey(ctx, grocery.KeyInput{Account: "acme", Plan: "starter"})
			if err != nil {
				t.Fatal(err)
			}
			holder := w
			if tc.opts.ReadOnly {
				w.Close()
				if holder, err = grocery.Open(path, tc.opts); err != nil {
					t.Fatal(err)
				}
			}
			_, err = grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf, Force: true})
			if got := grocery.ErrorCode(err); got != grocery.ECONFLICT {
				t.Fatalf("BuildDemo on a held file: got %v, want code %s", err, grocery.ECONFLICT)
			}
			want := "data file " + path + " is in use by another process (a running server?): stop it before replacing the file"
			if got := grocery.ErrorMessage(err); got != want {
				t.Errorf("got message %q, want %q", got, want)
			}
			holder.Close()

			// The file is the one that was held: the key still works.
			svc, err := grocery.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			if _, err := svc.Authenticate(ctx, key.Key, grocery.InterfaceMCP); err != nil {
				t.Errorf("the key made before the refused rebuild: %v", err)
			}
		})
	}

	t.Run("OKReleased", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "grocery.db")
		for range 2 { // the second build replaces the first: nothing holds it
			if _, err := grocery.BuildDemo(ctx, path, &grocery.DemoOptions{AsOf: asOf, Force: true}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
