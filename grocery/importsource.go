package grocery

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/grocerydata/grocery/grocery/internal/rowfile"
	"github.com/grocerydata/grocery/publicdata"
)

// SourceFile is one published file of a public source: its name and how
// to open it (more than once for a source read in two passes).
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
// It returns EINVALID for an unknown source or a file that is not the
// source's format; bad rows are counted in the summary, never fatal.
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
			rows, err := rowfile.OpenParquet(r, rowfile.MaxParquet)
			if err != nil {
				return nil, err
			}
			return parquetRows{rows}, nil
		},
	})
	if err != nil {
		var pe interface{ Unwrap() error }
		if errors.As(err, &pe) {
			return nil, err // the file system's error
		}
		return nil, Errorf(EINVALID, "%s", err.Error())
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

// ImportConverted imports a converted source through imp: its stores
// file, then its observations, streamed (the observations are never
// all in memory). Bad rows are skipped and reported (opts.SkipInvalid is
// implied). It returns imp's errors and the conversion's.
func ImportConverted(ctx context.Context, imp ImportFunc, conv *publicdata.Conversion, opts *ImportOptions) (*SourceReport, error) {
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
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := conv.WriteObservations(ctx, pw)
		pw.CloseWithError(err)
		done <- err
	}()
	rep.Observations, err = imp(ctx, conv.Source+" observations", pr, &o)
	pr.CloseWithError(errors.New("the import stopped"))
	werr := <-done
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, werr
	}
	return rep, nil
}
