package grocery

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Field variants FuzzImport builds rows from: the first of each list is
// valid, the others valid in another spelling or not valid at all.
var (
	fuzzStoreFields = [][]string{
		{"ON-LOB-001", "ON-F-1", "QC-F-2", "", "a,b", strings.Repeat("s", 300), `x"y`, "line\nbreak"},
		{"loblaws", "No Frills", "iga", "", "unknown-banner", "Métro"},
		{"ON", "qc", "Ontario", "", "ZZ", "Québec"},
		{"Store", "", "Ünïcode, name", `"quoted"`},
		{"Toronto", "", "Montréal"},
		{"M5V 2T6", "m5v2t6", "", "D5V 2T6", "12345", "H2T 1S4"},
		{"43.64", "45.52", "", "91", "abc", "NaN", "1e400", "43,64"},
		{"-79.37", "-73.58", "79.37", "", "-1e9", "Inf"},
		{"true", "no", "", "maybe"},
	}
	fuzzObsFields = [][]string{
		{"2026-11-18", "2026-11-01", "", "2026-13-01", "2027-01-01", "1999-12-31", "2026-11-19T00", "18/11/2026"},
		{"ON-LOB-001", "QC-IGA-001", "ON-NOF-001", "nope", ""},
		{"loblaws", "no-frills", "iga", "", "metro"},
		{"20001", "NF-77", "", strings.Repeat("k", 300), "a\nb", "ü"},
		{"4.99", "$3.99", "0", "", "4.999", "-1", "1e3", "99999999999", "4,99"},
		{"", "5.99", "1.00", "x"},
		{"", "2026-11-25", "2026-11-10", "bad"},
		{"", "068000000154", "06680000015", "068000000155", "2000000000008", "abc", "7540123456788"},
		{"", "2% Milk", "Lait 2 %"},
		{"", "Natrel"},
		{"", "2 L", "340 g", "lots"},
		{"", "Dairy & Eggs", "Pantry"},
	}
	fuzzErrAt = regexp.MustCompile(`^fuzz\.(csv|jsonl):([0-9]+): `)
)

// fuzzBytes hands out the fuzz input as small choices; past its end every
// choice is 0, the first (valid) variant.
type fuzzBytes []byte

func (b *fuzzBytes) choice(n int) int {
	if len(*b) == 0 {
		return 0
	}
	c := int((*b)[0]) % n
	*b = (*b)[1:]
	return c
}

// fuzzFile builds a whole stores or observations file, CSV or JSON Lines,
// from data: the number of rows and each field's variant.
func fuzzFile(data []byte) (name, content string, rows int, skip bool) {
	b := fuzzBytes(data)
	head := b.choice(16)
	stores, jsonl, skip := head&1 != 0, head&2 != 0, head&4 != 0
	header, fields := strings.Split(obsHeader, ","), fuzzObsFields
	if stores {
		header, fields = strings.Split(storesHeader, ","), fuzzStoreFields
	}
	rows = 1 + b.choice(8)
	var sb strings.Builder
	if !jsonl {
		sb.WriteString(strings.Join(header, ",") + "\n")
	}
	for range rows {
		if jsonl && b.choice(16) == 15 {
			sb.WriteString("{\"date\": not json\n")
			continue
		}
		if jsonl {
			sb.WriteByte('{')
		}
		for i, vs := range fields {
			v := vs[b.choice(len(vs))]
			switch {
			case jsonl:
				if i > 0 {
					sb.WriteByte(',')
				}
				q, _ := json.Marshal(header[i])
				sb.Write(q)
				sb.WriteByte(':')
				if _, err := strconv.ParseFloat(v, 64); err == nil && json.Valid([]byte(v)) && b.choice(2) == 1 {
					sb.WriteString(v) // a number as a JSON number
				} else {
					q, _ := json.Marshal(v)
					sb.Write(q)
				}
			default:
				if i > 0 {
					sb.WriteByte(',')
				}
				if strings.ContainsAny(v, ",\"\n") {
					v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
				}
				sb.WriteString(v)
			}
		}
		if jsonl {
			sb.WriteByte('}')
		}
		sb.WriteByte('\n')
	}
	name = "fuzz.csv"
	if jsonl {
		name = "fuzz.jsonl"
	}
	return name, sb.String(), rows, skip
}

// importState is what a failed import must leave as it was: every
// observation, offer and store in the dates the fuzz files use.
func importState(t *testing.T, svc *Service) string {
	t.Helper()
	var b bytes.Buffer
	for _, ds := range []string{"observations", "offers", "stores"} {
		in := ExportInput{Format: "csv", Dataset: ds}
		if ds == "observations" {
			in.From, in.To = "2026-01-01", "2026-12-31"
		}
		if _, err := svc.Export(context.Background(), in, &b); err != nil && ErrorCode(err) != ENOTFOUND {
			t.Fatalf("export %s: %v", ds, err)
		}
	}
	return b.String()
}

// FuzzImport imports whole files built from the fuzz input (rows of valid
// and invalid field variants, CSV or JSON Lines, stores or observations):
// never a panic; an import succeeds, reading every row, or fails with
// EINVALIDARGUMENT naming the file and a line of it, and then stores nothing.
func FuzzImport(f *testing.F) {
	svc := openImportService(f)
	mustImport(f, svc, "stores.csv", testStoresCSV, nil)
	f.Add([]byte{0})                               // one valid observation, CSV
	f.Add([]byte{1, 2})                            // three valid stores, CSV
	f.Add([]byte{2, 3})                            // four valid observations, JSON Lines
	f.Add([]byte{3, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}) // stores, JSON Lines, other spellings
	f.Add([]byte{0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 6}) // observations, a bad third-row price... after valid rows
	f.Add([]byte{4, 3, 3, 1, 2, 3, 4, 5, 6, 7, 1}) // SkipInvalid, many bad fields
	f.Add([]byte{2, 1, 15})                        // a line that is not JSON
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0}) // a store outside its province's range
	f.Add([]byte{0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0}) // an observation in the future
	f.Fuzz(func(t *testing.T, data []byte) {
		name, content, rows, skip := fuzzFile(data)
		before := importState(t, svc)
		rep, err := svc.Import(context.Background(), name, strings.NewReader(content), &ImportOptions{SkipInvalid: skip})
		if err == nil {
			if rep.Rows != rows {
				t.Fatalf("%s:\n%s\nread %d rows, the file has %d", name, content, rep.Rows, rows)
			}
			return
		}
		m := fuzzErrAt.FindStringSubmatch(ErrorMessage(err))
		if ErrorCode(err) != EINVALIDARGUMENT || m == nil {
			t.Fatalf("%s:\n%s\ngot %v (%s), want EINVALIDARGUMENT naming the file and a line", name, content, err, ErrorCode(err))
		}
		if n, _ := strconv.Atoi(m[2]); n < 1 || n > strings.Count(content, "\n") {
			t.Fatalf("%s:\n%s\nthe error names line %d of %d: %v", name, content, n, strings.Count(content, "\n"), err)
		}
		if after := importState(t, svc); after != before {
			t.Fatalf("%s:\n%s\nfailed (%v) but changed the data", name, content, err)
		}
	})
}
