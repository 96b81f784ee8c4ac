package sqlitefile

import (
	"errors"
	"fmt"
	"strings"
)

// Table is a table of the schema.
type Table struct {
	Name     string
	RootPage uint32
	// SQL is its CREATE TABLE statement, as the schema keeps it.
	SQL     string
	Columns []Column
	// WithoutRowID is set for a WITHOUT ROWID table, whose rows this
	// reader does not read.
	WithoutRowID bool
	err          error // why its rows cannot be read
}

// Column is a column of a table.
type Column struct {
	Name string
	// Type is the declared type, dequoted, its words joined by one space
	// ("INTEGER", "VARCHAR(10)"); "" when none.
	Type string
	// RowID is set for the INTEGER PRIMARY KEY column, whose value is the
	// row's rowid.
	RowID bool
	// Virtual is set for a VIRTUAL generated column: not in the file,
	// read as NULL.
	Virtual bool
	// real is set for a column of REAL affinity, whose integers are
	// reals stored as integers to save space, read back as reals.
	real bool
}

// realAffinity reports whether a column of declared type typ has REAL
// affinity, by SQLite's rules in their order: a type containing "INT" is
// INTEGER; "CHAR", "CLOB" or "TEXT", TEXT; "BLOB" or none, BLOB; then
// "REAL", "FLOA" or "DOUB", REAL.
func realAffinity(typ string) bool {
	t := strings.ToUpper(typ)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(t, s) {
				return true
			}
		}
		return false
	}
	return !has("INT", "CHAR", "CLOB", "TEXT", "BLOB") && t != "" && has("REAL", "FLOA", "DOUB")
}

// ColumnNames returns the names of t's columns, in order.
func (t *Table) ColumnNames() []string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	return names
}

// schemaTable is sqlite_schema, the table b-tree on page 1.
var schemaTable = &Table{Name: "sqlite_schema", RootPage: 1, Columns: []Column{
	{Name: "type"}, {Name: "name"}, {Name: "tbl_name"}, {Name: "rootpage"}, {Name: "sql"},
}}

// Tables lists the database's tables, as its schema table lists them
// (indexes, views and triggers left out). A table whose rows this reader
// cannot read (WITHOUT ROWID, virtual, its CREATE TABLE not understood)
// is listed: Rows says why.
func (db *DB) Tables() ([]*Table, error) {
	var out []*Table
	rows := db.Rows(schemaTable)
	for rows.Next() {
		v := rows.Values()
		if v[0].Kind != Text || string(v[0].Bytes) != "table" {
			continue
		}
		t := &Table{Name: string(v[1].Bytes), SQL: string(v[4].Bytes)}
		if v[3].Kind == Integer && v[3].Int > 0 && v[3].Int <= int64(db.pages) {
			t.RootPage = uint32(v[3].Int)
		}
		t.Columns, t.WithoutRowID, t.err = parseCreateTable(t.SQL)
		switch {
		case t.err != nil:
			t.err = fmt.Errorf("table %s: its CREATE TABLE statement %q: %w", t.Name, t.SQL, t.err)
		case t.WithoutRowID:
			t.err = fmt.Errorf("table %s is WITHOUT ROWID: its rows are in an index b-tree, which this reader does not read", t.Name)
		case t.RootPage == 0:
			t.err = fmt.Errorf("%w: table %s has root page %s: want a page of the database's %d", ErrCorrupt, t.Name, v[3].String(), db.pages)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the schema table: %w", err)
	}
	return out, nil
}

// Table returns the table named name (matched case-insensitively), an
// error listing the tables there are when there is none.
func (db *DB) Table(name string) (*Table, error) {
	tables, err := db.Tables()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range tables {
		if strings.EqualFold(t.Name, name) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return nil, fmt.Errorf("no table %s: the database has %s", name, listOrNone(names))
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// errVirtual is why a virtual table is not read.
var errVirtual = errors.New("a virtual table: its rows are not in the database file")

// parseCreateTable reads the columns of a CREATE TABLE statement as the
// schema table keeps it, and whether the table is WITHOUT ROWID.
func parseCreateTable(sql string) ([]Column, bool, error) {
	toks, err := tokenize(sql)
	if err != nil {
		return nil, false, err
	}
	open := -1
	for i, t := range toks {
		if t.is("VIRTUAL") {
			return nil, false, errVirtual
		}
		if t.kind == '(' {
			open = i
			break
		}
	}
	if len(toks) < 3 || !toks[0].is("CREATE") || open < 0 {
		return nil, false, errors.New("want CREATE TABLE name (columns)")
	}
	defs, rest, err := splitDefs(toks[open+1:])
	if err != nil {
		return nil, false, err
	}
	var cols []Column
	var pk []string
	for _, d := range defs {
		if len(d) == 0 {
			return nil, false, errors.New("an empty column definition")
		}
		if d[0].kind == 'w' && d[0].isAny("CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN") {
			pk = append(pk, tablePrimaryKey(d)...)
			continue
		}
		cols = append(cols, parseColumn(d))
	}
	withoutRowID := false
	for i := 0; i+1 < len(rest); i++ {
		withoutRowID = withoutRowID || rest[i].is("WITHOUT") && rest[i+1].is("ROWID")
	}
	markRowID(cols, pk, withoutRowID)
	return cols, withoutRowID, nil
}

// splitDefs splits the tokens after the opening parenthesis of a CREATE
// TABLE statement at its top-level commas, up to the closing parenthesis,
// and returns the definitions and the tokens after it.
func splitDefs(toks []token) ([][]token, []token, error) {
	var defs [][]token
	depth, start := 0, 0
	for i, t := range toks {
		switch {
		case t.kind == '(':
			depth++
		case t.kind == ')' && depth > 0:
			depth--
		case t.kind == ')':
			return append(defs, toks[start:i]), toks[i+1:], nil
		case t.kind == ',' && depth == 0:
			defs = append(defs, toks[start:i])
			start = i + 1
		}
	}
	return nil, nil, errors.New("no closing parenthesis after the columns")
}

// constraintWords are the words that end a column's type name.
var constraintWords = []string{"CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS"}

// parseColumn reads a column definition: its name, its type name (words
// and a parenthesized size), then its constraints, of which PRIMARY KEY
// and GENERATED ALWAYS AS matter here.
func parseColumn(d []token) Column {
	c := Column{Name: d[0].text}
	i := 1
	var typ []string
	for ; i < len(d) && d[i].kind == 'w' && !(!d[i].quoted && d[i].isAny(constraintWords...)); i++ {
		typ = append(typ, d[i].text)
	}
	c.Type = strings.Join(typ, " ")
	if i < len(d) && d[i].kind == '(' {
		j := i
		for j < len(d) && d[j].kind != ')' {
			j++
		}
		c.Type += joinTokens(d[i:min(j+1, len(d))])
		i = j + 1
	}
	pk, desc, generated, stored := false, false, false, false
	depth := 0
	for k := i; k < len(d); k++ {
		t := d[k]
		switch {
		case t.kind == '(':
			depth++
		case t.kind == ')':
			depth--
		case depth != 0 || t.quoted:
		case t.is("PRIMARY") && k+1 < len(d) && d[k+1].is("KEY"):
			pk, desc = true, k+2 < len(d) && d[k+2].is("DESC")
		case t.is("AS"):
			generated = true
		case t.is("STORED"):
			stored = true
		}
	}
	c.Virtual = generated && !stored
	c.real = realAffinity(c.Type)
	// SQLite's documented quirk: "INTEGER PRIMARY KEY DESC" in a column's
	// definition is not the rowid.
	c.RowID = pk && !desc && strings.EqualFold(c.Type, "INTEGER")
	return c
}

// tablePrimaryKey returns the columns of a table constraint PRIMARY KEY
// (col [ASC|DESC], ...), none for another constraint.
func tablePrimaryKey(d []token) []string {
	for i := 0; i+2 < len(d); i++ {
		if d[i].is("PRIMARY") && d[i+1].is("KEY") && d[i+2].kind == '(' {
			var cols []string
			depth, first := 0, true
			for _, t := range d[i+2:] {
				switch {
				case t.kind == '(':
					depth++
				case t.kind == ')':
					depth--
				case t.kind == ',' && depth == 1:
					first = true
				case first && depth == 1:
					cols, first = append(cols, t.text), false
				}
			}
			return cols
		}
	}
	return nil
}

// markRowID sets RowID on the column a one-column table constraint
// PRIMARY KEY names when it is declared INTEGER, and clears it everywhere
// in a WITHOUT ROWID table.
func markRowID(cols []Column, pk []string, withoutRowID bool) {
	for i := range cols {
		c := &cols[i]
		if withoutRowID {
			c.RowID = false
		} else if len(pk) == 1 && strings.EqualFold(c.Name, pk[0]) && strings.EqualFold(c.Type, "INTEGER") {
			c.RowID = true
		}
	}
}

func joinTokens(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}
