package grocery

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/grocerydata/grocery/internal/rowfile"
	"github.com/grocerydata/grocery/internal/rowwrite"
)

// Format is a file format that Import reads and Export writes beside
// those grocery builds in (CSV, JSON and JSON Lines). A format package
// registers one in its init function, as image/png registers its decoder
// with package image, so a program links a format's library only when it
// imports the package, for its side effect alone:
//
//	import (
//		"github.com/grocerydata/grocery/grocery"
//		_ "github.com/grocerydata/grocery/format/parquet" // Parquet import and export
//		_ "github.com/grocerydata/grocery/format/xlsx"    // XLSX import and export
//	)
//
// Without them, an import of such a file and an export in such a format
// are EINVALIDARGUMENT errors that name the package to import. The
// binaries of cmd/ import both.
type Format struct {
	// Ext is an export file's name extension ("xlsx") and ContentType its
	// MIME type.
	Ext, ContentType string
	// Open reads an import file from r, to its end, and returns its header
	// and rows; errors about the file's form are *rowfile.FormatError
	// values. Import calls it for files recognised by their first bytes
	// as this format (a ZIP archive is xlsx, PAR1 parquet). A nil Open
	// reads nothing.
	Open func(r io.Reader) (*Rows, error)
	// Create returns a writer of an export's rows to w: table is the data
	// set's name (observations, offers, stores), cols its columns. A nil
	// Create writes nothing.
	Create func(w io.Writer, table string, cols []Column) (RowWriter, error)
	// MaxRows is the most data rows a file of the format holds, 0 for no
	// limit. PrepareExport refuses an observations export over it, before
	// anything is written (from the stored counts, or for a barcode's
	// export or changes by reading their rows); for the others, Create's
	// writer returns ErrTooManyRows from the row past it, before it writes
	// anything to w, and Stream refuses the export.
	MaxRows int
}

// Rows is the header and records an import file's reader hands out.
type Rows = rowfile.Rows

// Column is one column of an export: its name and the kind of its values.
type Column = rowwrite.Column

// RowWriter writes the rows of an export, one value per column each.
type RowWriter = rowwrite.Writer

// ErrTooManyRows is what a Format's RowWriter returns from the row past
// the format's MaxRows, having written nothing.
var ErrTooManyRows = rowwrite.ErrTooManyRows

// formats are the registered formats by name.
var formats struct {
	sync.RWMutex
	m map[string]Format
}

// builtinFormats are the formats grocery reads and writes itself.
var builtinFormats = []string{"json", "jsonl", "csv"}

// moduleFormats are the formats this module has packages for, in the
// order messages list them.
var moduleFormats = []string{"xlsx", "parquet"}

// formatPackages are the packages of this module that register a format,
// by its name: an error about an unregistered format names its package.
var formatPackages = map[string]string{
	"xlsx":    "github.com/grocerydata/grocery/format/xlsx",
	"parquet": "github.com/grocerydata/grocery/format/parquet",
}

// RegisterFormat makes a format available to Import and Export under
// name (lowercase, as ExportInput.Format takes it). It is meant to be
// called from a format package's init function. It panics when name is
// empty, is a built-in format (json, jsonl, csv) or is registered
// already, as database/sql.Register does for drivers.
func RegisterFormat(name string, f Format) {
	if name == "" || name != strings.ToLower(name) || slices.Contains(builtinFormats, name) {
		panic(fmt.Sprintf("grocery: RegisterFormat of format %q: want a lowercase name other than %s", name, strings.Join(builtinFormats, ", ")))
	}
	formats.Lock()
	defer formats.Unlock()
	if _, dup := formats.m[name]; dup {
		panic(fmt.Sprintf("grocery: RegisterFormat called twice for format %q", name))
	}
	if formats.m == nil {
		formats.m = map[string]Format{}
	}
	formats.m[name] = f
}

// Formats returns the names of the formats Export writes in this
// program: the built-in ones (json, jsonl, csv), then the registered
// ones: xlsx and parquet first, others in name order.
func Formats() []string {
	formats.RLock()
	defer formats.RUnlock()
	names := append([]string(nil), builtinFormats...)
	var reg []string
	for name, f := range formats.m {
		if f.Create != nil {
			reg = append(reg, name)
		}
	}
	rank := func(name string) int {
		if i := slices.Index(moduleFormats, name); i >= 0 {
			return i
		}
		return len(moduleFormats)
	}
	slices.SortFunc(reg, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return append(names, reg...)
}

// registeredFormat returns the registered format of that name.
func registeredFormat(name string) (Format, bool) {
	formats.RLock()
	defer formats.RUnlock()
	f, ok := formats.m[name]
	return f, ok
}

// notRegistered says that a format this module has a package for is not
// registered in this program, and how to register it.
func notRegistered(name string) string {
	return fmt.Sprintf("format %q is not registered in this program: import _ %q to read and write it", name, formatPackages[name])
}

// exportWriter returns the writer constructor of a registered format, or
// EINVALIDARGUMENT naming the formats this program writes.
func exportWriter(name, given string) (Format, error) {
	if f, ok := registeredFormat(name); ok && f.Create != nil {
		return f, nil
	}
	if _, ours := formatPackages[name]; ours {
		return Format{}, Errorf(EINVALIDARGUMENT, "%s", notRegistered(name))
	}
	return Format{}, Errorf(EINVALIDARGUMENT, "format %q is not supported: want %s", given, describeFormats(Formats()))
}

// describeFormats lists format names for a message: "json (default),
// jsonl, csv or xlsx".
func describeFormats(names []string) string {
	words := make([]string, len(names))
	for i, n := range names {
		words[i] = n
		if n == "json" {
			words[i] += " (default)"
		}
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// openRegistered opens an import file of a registered format; a format
// that is not registered is a *rowfile.FormatError naming its package.
func openRegistered(f rowfile.Format, r io.Reader) (*rowfile.Rows, error) {
	if reg, ok := registeredFormat(string(f)); ok && reg.Open != nil {
		return reg.Open(r)
	}
	kind := map[rowfile.Format]string{rowfile.XLSX: "an XLSX workbook", rowfile.Parquet: "a Parquet file"}[f]
	if kind == "" {
		kind = "a " + string(f) + " file"
	}
	return nil, &rowfile.FormatError{Reason: fmt.Sprintf("it is %s, and %s", kind, notRegistered(string(f)))}
}
