// Package sqlitefile reads the tables of a SQLite 3 database file, read
// only, from the published file format (https://www.sqlite.org/fileformat2.html),
// without SQLite itself: for reading a data set published as a SQLite
// file (Project Hammer's) the way its CSV files are read.
//
// Open checks the 100-byte header (the magic string, the page size from
// 512 to 65536, the reserved bytes at the end of each page, the payload
// fractions, the text encoding and the page count) and returns a DB.
// DB.Tables lists the tables of the schema table (sqlite_schema, once
// sqlite_master, the b-tree on page 1) with their columns, parsed from
// each table's CREATE TABLE statement: names matched case-insensitively,
// quoted identifiers and type names ("x", `x`, [x], 'x') dequoted. DB.Rows
// streams a table's rows in rowid order, walking its table b-tree (interior
// pages 0x05, leaf pages 0x0D) one page at a time: it holds one page per
// level of the tree (20 levels at most, as SQLite) and the record being
// read, never the table. Each row's values come in the table's column
// order, with the storage class each value has in the file (SQLite is
// dynamically typed: any column may hold NULL, an integer, a real, text or
// a blob); Value.AppendText renders one as a CSV file carries it.
//
// A column declared INTEGER PRIMARY KEY is the rowid: its value is the
// row's rowid (the record holds NULL there). A column of REAL affinity
// (a declared type such as REAL, FLOAT or DOUBLE) reads an integer as a
// real, as SQLite does: it stores a real without a fraction there as an
// integer. A record with fewer values
// than the table has columns (columns added by ALTER TABLE since it was
// written) reads NULL for the missing ones: their DEFAULT is not applied.
// A VIRTUAL generated column is not in the file and reads NULL; a STORED
// one is read as stored. Text in a UTF-16 database is returned as UTF-8.
//
// Not read: index b-trees (a table is read through its own b-tree, in
// rowid order), WITHOUT ROWID tables (their rows are in an index b-tree:
// reading one is refused by its name), virtual tables (no rows in the
// file), views, the freelist and pointer-map pages (never reached from a
// table's b-tree). A database in WAL mode (header bytes 18 and 19 are 2)
// is read as of its last checkpoint: the rows still only in its -wal file
// are not seen, since only the main file is read; checkpoint it first
// (sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)') to read them. A hot
// rollback journal is not applied either.
//
// A file that is not a SQLite 3 database is refused with ErrNotSQLite, and
// a corrupt one with ErrCorrupt, each with a message naming what is wrong
// (the page, the cell, what was expected): a page number beyond the file,
// a page of the wrong type, a cell or a record running past its page or
// payload, an overflow chain ending early or coming back to a page, a
// b-tree deeper than 20 levels, visiting a page twice or out of rowid
// order. Every walk is bounded by the file's page count, and every
// allocation by the page size, the tree's depth and the size of the
// record being read (itself bounded by the file's size): a corrupt file
// cannot make the reader loop, panic or allocate without bound.
package sqlitefile
