package grocery

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/grocerydata/grocery/publicdata"
)

// SourceFile is one published file of a public source: its name and how
// to open it (more than once for a source read in two passes; for Project
// Hammer's SQLite file, as an *os.File or another io.ReaderAt with a Size
// method: see publicdata.File).
type SourceFile = publicdata.File

// SourceSummary says what an import of a public source kept and what it
// could not map, and why (counts and a few examples each).
type SourceSummary = publicdata.Summary

// SourceReport is what ImportSource did: the conversion's summary and
// the reports of the import of the stores and of the observations it
// wrote (Import's counts: new, unchanged, skipped).
type SourceReport struct {
	Summary      *SourceSummary `json:"summary"`
	Stores       *ImportReport  `json:"stores,omitempty"`
	Observations *ImportReport  `json:"observations,omitempty"`
	// Benchmarks counts the Statistics Canada points stored.
	Benchmarks int `json:"benchmarks,omitempty"`
}

// ImportFunc imports one file as Service.Import does: a Service's own
// Import, or that of a client of the server holding the data file.
type ImportFunc func(ctx context.Context, name string, r io.Reader, opts *ImportOptions) (*ImportReport, error)

// Sources lists the public sources ImportSource reads.
func Sources() []string { return append([]string(nil), publicdata.Sources...) }

// ConvertSource reads the files of a public source ("hammer",
// "openprices" or "statcan") as published and converts them to the
// import's stores and observations files (or StatCan's benchmark series).
// Project Hammer's are its two CSV files or its SQLite file, recognised by
// its content.
// It returns EINVALIDARGUMENT for an unknown source, a file that cannot be read or
// is not the source's format; bad rows are counted in the summary, never
// fatal.
func ConvertSource(source string, files []SourceFile) (*publicdata.Conversion, error) {
	conv, err := publicdata.Convert(strings.ToLower(source), files, publicdata.Options{
		ValidBarcode: func(s string) bool {
			g, err := parseFeedGTIN(s)
			return err == nil && !g.Restricted()
		},
		Banner: sourceBanner,
		Province: func(s string) (string, bool) {
			pc, err := ParsePostalCode(s)
			return pc.Province, err == nil
		},
		OpenParquet: func(r io.Reader) (publicdata.Rows, error) {
			rows, err := openRegistered(rowfile.Parquet, r)
			if err != nil {
				return nil, err
			}
			return parquetRows{rows}, nil
		},
	})
	if err != nil {
		// A file that is not the source's, or that cannot be read, is
		// invalid input, as in Import.
		return nil, Errorf(EINVALIDARGUMENT, "%s", err.Error())
	}
	return conv, nil
}

// sourceBanner finds the banner a shop's name starts with: "No Frills",
// "Walmart Supercentre", "Loblaws Queen's Quay".
func sourceBanner(name string) (string, bool) {
	words := strings.Fields(name)
	for n := len(words); n > 0; n-- {
		if b, err := ParseBanner(strings.Join(words[:n], " ")); err == nil {
			return b.Slug, true
		}
	}
	return "", false
}

type parquetRows struct{ r *rowfile.Rows }

func (p parquetRows) Header() []string { return p.r.Header() }
func (p parquetRows) Close() error     { return p.r.Close() }
func (p parquetRows) Next() ([]string, error) {
	rec, _, err := p.r.Next()
	return rec, err
}

// The sources of a store's prices (Store.Source) besides the public ones
// ImportSource reads ("hammer", "openprices"). Each store comes from one
// source, so the source of an observation is its store's.
const (
	// SourceDemo is the source of the demo data set's stores (BuildDemo).
	SourceDemo = "demo"
	// SourceImport is the source of a store a stores file without a
	// source column brings: a data team's own data.
	SourceImport = "import"
)

// StoreSource returns the source a store of a data file older than
// format 11, which kept none, is given when the file is upgraded, by its
// id: "hammer" (hammer-...) and "openprices" (openprices-...), the ids
// ImportSource gives its stores, otherwise SourceImport (such a file does
// not say whether its other stores are the demo's or a data team's).
func StoreSource(storeID string) string {
	for _, src := range []string{publicdata.Hammer, publicdata.OpenPrices} {
		if strings.HasPrefix(storeID, src+"-") {
			return src
		}
	}
	return SourceImport
}

// SourceAttribution returns the credit a public source's licence asks
// for, "" for none.
func SourceAttribution(source string) string {
	switch source {
	case publicdata.Hammer:
		return publicdata.HammerAttribution
	case publicdata.OpenPrices:
		return publicdata.OpenPricesAttribution
	case publicdata.StatCan:
		return publicdata.StatCanAttribution
	}
	return ""
}

// ImportSource imports the files of a public source ("hammer",
// "openprices" or "statcan"), read as published: ConvertSource, then
// Import of the stores and of the observations, which skips (and
// reports) the rows it refuses rather than failing the file. StatCan's
// series are stored as benchmarks, not observations.
//
// It returns ConvertSource's errors and Import's.
func (s *Service) ImportSource(ctx context.Context, source string, files []SourceFile, opts *ImportOptions) (*SourceReport, error) {
	conv, err := ConvertSource(source, files)
	if err != nil {
		return nil, err
	}
	if conv.Benchmarks != nil || conv.Source == publicdata.StatCan {
		n, err := s.putBenchmarks(ctx, conv.Benchmarks)
		if err != nil {
			return nil, err
		}
		return &SourceReport{Summary: conv.Summary, Benchmarks: n}, nil
	}
	return ImportConverted(ctx, s.Import, conv, opts)
}

// SourcePartRows is the most observations ImportConverted imports in one
// transaction: a source's observations are imported in parts of this
// many rows, so that the memory an import takes stays bounded whatever
// the source's size (Project Hammer publishes some 72 million rows, by
// time, which the conversion writes by product within chunks of 8 parts:
// see publicdata.Conversion).
const SourcePartRows = 500_000

// ImportConverted imports a converted source through imp: its stores
// file, then its observations, streamed in parts of SourcePartRows rows,
// each imported whole or not at all; when one fails, the parts before it
// stay imported, and running the import again is safe (their rows count
// as unchanged). Bad rows are skipped and reported (opts.SkipInvalid is
// implied). It returns imp's errors and the conversion's.
func ImportConverted(ctx context.Context, imp ImportFunc, conv *publicdata.Conversion, opts *ImportOptions) (*SourceReport, error) {
	return importConverted(ctx, imp, conv, opts, SourcePartRows)
}

func importConverted(ctx context.Context, imp ImportFunc, conv *publicdata.Conversion, opts *ImportOptions, partRows int) (*SourceReport, error) {
	o := ImportOptions{}
	if opts != nil {
		o = *opts
	}
	o.SkipInvalid = true
	rep := &SourceReport{Summary: conv.Summary}
	if conv.WriteObservations == nil {
		return rep, nil
	}
	var err error
	if rep.Stores, err = imp(ctx, conv.Source+" stores", bytes.NewReader(conv.Stores), &ImportOptions{SkipInvalid: true}); err != nil {
		return nil, err
	}
	// The converter writes each part into a pipe whose reader the
	// import reads here, one part after the other.
	parts := make(chan *io.PipeReader, 1)
	done := make(chan error, 1)
	go func() {
		var pw *io.PipeWriter
		err := conv.WriteObservations(ctx, partRows, func() (io.Writer, error) {
			if pw != nil {
				pw.Close()
			}
			var pr *io.PipeReader
			pr, pw = io.Pipe()
			parts <- pr
			return pw, nil
		})
		if pw != nil {
			pw.CloseWithError(err)
		}
		close(parts)
		done <- err
	}()
	obs := &ImportReport{File: conv.Source + " observations", Kind: "observations", Format: "csv"}
	n := 0
	for pr := range parts {
		if err != nil {
			pr.CloseWithError(err) // stop the converter
			continue
		}
		n++
		name := obs.File
		if n > 1 {
			name = fmt.Sprintf("%s (part %d)", obs.File, n)
		}
		var r *ImportReport
		r, err = imp(ctx, name, pr, &o)
		pr.CloseWithError(errors.New("the import stopped"))
		if err == nil {
			obs.add(r)
		}
	}
	werr := <-done
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, werr
	}
	rep.Observations = obs
	return rep, nil
}

// add counts a part's report in r.
func (r *ImportReport) add(p *ImportReport) {
	r.Rows += p.Rows
	r.New += p.New
	r.Updated += p.Updated
	r.Unchanged += p.Unchanged
	r.Skipped += p.Skipped
	r.NamesKept += p.NamesKept
	for _, msg := range p.Problems {
		if len(r.Problems) < maxProblems {
			r.Problems = append(r.Problems, msg)
		}
	}
	r.AlertsError = cmp.Or(r.AlertsError, p.AlertsError)
	r.PublishError = cmp.Or(r.PublishError, p.PublishError)
}
