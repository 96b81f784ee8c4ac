package rowfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"
)

// JSONLines reads a JSON Lines file: one JSON object per line, blank
// lines skipped. The first object's field names are the header; later
// objects may leave fields out, and name them in another order.
type JSONLines struct {
	sc      *bufio.Scanner
	limit   int
	line    int
	header  []string
	pending map[string]json.RawMessage // the first object, not yet returned by Next

	array  bool // a JSON array, one object per line (OpenJSON)
	opened bool // its [ is read
	closed bool // its ] is read
}

// TooLongError is a line longer than the limit given to OpenJSONL: the
// file cannot be read past it.
type TooLongError struct {
	Pos   int // the line
	Limit int // bytes
}

func (e *TooLongError) Error() string { return "line too long" }

// FieldError is a field whose value is not a JSON string, number,
// boolean or null.
type FieldError struct {
	Field  string
	Reason string // "is a JSON array: want a string or a number"
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// UnknownFieldError is a field that the caller's columns do not name (the
// first in sorted order when there are several).
type UnknownFieldError struct {
	Field string
}

func (e *UnknownFieldError) Error() string { return "unknown field " + e.Field }

// OpenJSONL reads br, just past Sniff, up to its first object; no line
// may be longer than limit bytes. It returns io.EOF when the file holds no
// object, a *RecordError when its first non-blank line is not a JSON
// object, a *TooLongError, and the reader's own errors.
func OpenJSONL(br *bufio.Reader, limit int) (*JSONLines, error) {
	return openJSON(br, limit, false)
}

// OpenJSON is OpenJSONL for a JSON array written one object per line, as
// '[', then each object on a line of its own followed by a comma but the
// last, then ']' (the brackets may share a line with the first and the
// last object). An object written over several lines is a *RecordError
// on its first line; so is an array that the file does not close (cut
// short) and anything after its end.
func OpenJSON(br *bufio.Reader, limit int) (*JSONLines, error) {
	return openJSON(br, limit, true)
}

func openJSON(br *bufio.Reader, limit int, array bool) (*JSONLines, error) {
	j := &JSONLines{sc: bufio.NewScanner(br), limit: limit, array: array}
	j.sc.Buffer(make([]byte, min(64<<10, limit)), limit)
	obj, err := j.object()
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, &RecordError{Pos: j.line, Reason: "not a JSON object"}
	}
	j.header = make([]string, 0, len(obj))
	for k := range obj {
		j.header = append(j.header, k)
	}
	sort.Strings(j.header)
	j.pending = obj
	return j, nil
}

// Header returns the first object's field names, sorted.
func (j *JSONLines) Header() []string { return j.header }

// HeaderPos returns the line of the first object.
func (j *JSONLines) HeaderPos() int { return j.line }

// object reads the next non-blank line: its object, or nil when it is not
// a JSON object.
func (j *JSONLines) object() (map[string]json.RawMessage, error) {
	for j.sc.Scan() {
		j.line++
		b := bytes.TrimSpace(j.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if j.array {
			var err error
			if b, err = j.element(b); err != nil {
				return nil, err
			}
			if len(b) == 0 {
				continue
			}
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) != nil {
			obj = nil
		}
		return obj, nil
	}
	switch err := j.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, &TooLongError{Pos: j.line + 1, Limit: j.limit}
	case err != nil:
		return nil, err
	}
	if j.array && !j.closed {
		j.closed = true // said once: the next call ends the file
		return nil, &RecordError{Pos: j.line, Reason: "the JSON array does not end with ]: the file is cut short"}
	}
	return nil, io.EOF
}

// element takes the array's punctuation off a line of a JSON array: the
// opening [, the closing ] and the comma after an object.
func (j *JSONLines) element(b []byte) ([]byte, error) {
	if j.closed {
		return nil, &RecordError{Pos: j.line, Reason: "text after the end of the JSON array"}
	}
	if !j.opened {
		// Sniff saw the [ first.
		b, j.opened = bytes.TrimSpace(b[1:]), true
	}
	if rest, ok := bytes.CutSuffix(b, []byte("]")); ok && (len(rest) == 0 || bytes.HasSuffix(bytes.TrimSpace(rest), []byte("}"))) {
		b, j.closed = bytes.TrimSpace(rest), true
	} else if rest, ok := bytes.CutSuffix(b, []byte(",")); ok {
		b = bytes.TrimSpace(rest)
	}
	if len(b) > 0 && b[0] != '{' || len(b) > 0 && b[len(b)-1] != '}' {
		return nil, &RecordError{Pos: j.line, Reason: "not a JSON object on one line: a JSON array is read with one object per line, as the export writes it"}
	}
	return b, nil
}

// Next sets rec from the next object, the first one included, and
// returns its line: each field goes to rec[column(name)] (strings as they
// are, numbers as written, with the trailing zeros of a fraction removed,
// booleans as true or false, null and absent fields as ""). A field that
// column does not know is looked up again trimmed and in lower case.
//
// It returns io.EOF after the last object, a *TooLongError, and the
// reader's own errors; and for an object it cannot set rec from (the next
// call goes on with the one after it) a *RecordError for a line that is
// not a JSON object, a *FieldError, or an *UnknownFieldError.
func (j *JSONLines) Next(rec []string, column func(name string) (int, bool)) (int, error) {
	obj := j.pending
	j.pending = nil
	if obj == nil {
		var err error
		if obj, err = j.object(); err != nil {
			return j.line, err
		}
		if obj == nil {
			return j.line, &RecordError{Pos: j.line, Reason: "not a JSON object"}
		}
	}
	for i := range rec {
		rec[i] = ""
	}
	var unknown []string
	for k, v := range obj {
		c, ok := column(k)
		if !ok {
			if c, ok = column(strings.ToLower(strings.TrimSpace(k))); !ok {
				unknown = append(unknown, k)
				continue
			}
		}
		s, err := scalar(k, v)
		if err != nil {
			return j.line, err
		}
		rec[c] = s
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return j.line, &UnknownFieldError{Field: unknown[0]}
	}
	return j.line, nil
}

// scalar returns a field's value as text.
func scalar(field string, v json.RawMessage) (string, error) {
	if len(v) == 0 {
		return "", nil
	}
	switch c := v[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", &FieldError{field, "is not a valid JSON string"}
		}
		return s, nil
	case c == 'n':
		return "", nil
	case c == 't' || c == 'f':
		return string(v), nil
	case c == '-' || '0' <= c && c <= '9':
		s := string(v)
		if strings.Contains(s, ".") && !strings.ContainsAny(s, "eE") {
			// 4.990 is the same number as 4.99.
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s, nil
	}
	kind := "object"
	if v[0] == '[' {
		kind = "array"
	}
	return "", &FieldError{field, "is a JSON " + kind + ": want a string or a number"}
}
