package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// runImportSource imports a public source's files: converted here, then
// imported through the server holding the data file (its admin socket)
// or, with none, into the file opened here.
func (a *app) runImportSource(cmd *cobra.Command, source string, names []string, flags importFlags) error {
	var files []grocery.SourceFile
	for _, name := range names {
		fi, err := os.Stat(name)
		if err != nil {
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "%s", pathLine(name, err))
		}
		if fi.IsDir() {
			return grocery.Errorf(grocery.EINVALIDARGUMENT, "%s is a directory: want the source's published files", name)
		}
		files = append(files, grocery.SourceFile{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }})
	}
	conv, err := grocery.ConvertSource(source, files)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	opts := &grocery.ImportOptions{UpdateNames: flags.updateNames}
	var rep *grocery.SourceReport
	if conv.WriteObservations == nil {
		// StatCan's benchmarks go into the file opened here.
		svc, err := a.openForImport(cmd, "")
		if err != nil {
			return err
		}
		defer svc.Close()
		if rep, err = svc.ImportSource(ctx, source, files, opts); err != nil {
			return err
		}
	} else {
		rep, err = grocery.ImportConverted(ctx, admin.Dial(admin.SocketPath(a.dbPath(cmd))).Import, conv, opts)
		if errors.Is(err, admin.ErrNoAdmin) {
			svc, err := a.openForImport(cmd, "")
			if err != nil {
				return err
			}
			defer svc.Close()
			rep, err = grocery.ImportConverted(ctx, svc.Import, conv, opts)
			if err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
	writeSourceReport(cmd.OutOrStdout(), rep)
	return nil
}

// writeSourceReport prints what an import of a public source did.
func writeSourceReport(w io.Writer, rep *grocery.SourceReport) {
	s := rep.Summary
	fmt.Fprintf(w, "%s: %s rows read, %s kept", s.Source, count(s.Rows), count(s.Kept))
	if s.Stores > 0 || s.Products > 0 {
		fmt.Fprintf(w, " (%s stores, %s products", count(s.Stores), count(s.Products))
		if s.SKUOnly > 0 {
			fmt.Fprintf(w, ", %s of them by vendor SKU only, without a valid barcode", count(s.SKUOnly))
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintln(w)
	for _, r := range s.NotMapped {
		fmt.Fprintf(w, "  not mapped: %s: %s", r.Reason, count(r.Count))
		if len(r.Examples) > 0 {
			fmt.Fprintf(w, " (e.g. %s)", strings.Join(r.Examples, "; "))
		}
		fmt.Fprintln(w)
	}
	for _, r := range s.Notes {
		fmt.Fprintf(w, "  note: %s: %s\n", r.Reason, count(r.Count))
	}
	for _, g := range s.Gaps {
		fmt.Fprintf(w, "  gap: no data from %s to %s (%d days)\n", g.From, g.To, g.Days)
	}
	for _, ir := range []*grocery.ImportReport{rep.Stores, rep.Observations} {
		if ir == nil {
			continue
		}
		fmt.Fprintf(w, "%s: %s rows: %s new, %s updated, %s unchanged, %s skipped\n", ir.File, count(ir.Rows),
			count(ir.New), count(ir.Updated), count(ir.Unchanged), count(ir.Skipped))
		for _, p := range ir.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	if rep.Benchmarks > 0 {
		fmt.Fprintf(w, "%s benchmark points stored (%s)\n", count(rep.Benchmarks), grocery.BenchmarkSeriesName)
	}
	fmt.Fprintf(w, "Data: %s\n", s.Attribution)
}
