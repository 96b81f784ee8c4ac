#!/usr/bin/env bash
# Writes the test fixtures of package sqlitefile with Debian's sqlite3 CLI
# (apt-get install sqlite3; made with 3.40.1), into this directory:
#
#	bash internal/sqlitefile/testdata/make.sh
#
# The expected values are written by hand in sqlitefile_test.go; big's
# rows follow a formula the test computes too (bigN, bigKey, bigValue,
# bigText there). The larger files are kept gzipped.
set -euo pipefail
cd "$(dirname "$0")"
rm -f tiny.sqlite types.sqlite big.sqlite big.sqlite.gz page64k.sqlite page64k.sqlite.gz reserved.sqlite utf16.sqlite wal.sqlite

# types: every storage class and integer size, an INTEGER PRIMARY KEY, a
# text spilling over several overflow pages, quoted names and types,
# generated columns, a column added by ALTER TABLE, an index, a view and
# a WITHOUT ROWID table; 512-byte pages.
sqlite3 types.sqlite <<'SQL'
PRAGMA page_size=512;
CREATE TABLE t(id INTEGER PRIMARY KEY, i, r REAL, s TEXT, b BLOB);
INSERT INTO t VALUES(1, NULL, NULL, NULL, NULL);
INSERT INTO t VALUES(2, 0, 0.0, '', x'');
INSERT INTO t VALUES(3, 1, 4.99, 'héllo, "world"', x'00ff');
INSERT INTO t VALUES(4, -1, -0.5, '4.99', x'01');
INSERT INTO t VALUES(5, 127, 1e21, 'a
b', NULL);
INSERT INTO t VALUES(6, -128, 6, NULL, NULL);
INSERT INTO t VALUES(7, 32767, 1.5e-7, NULL, NULL);
INSERT INTO t VALUES(8, -32768, NULL, NULL, NULL);
INSERT INTO t VALUES(9, 8388607, NULL, NULL, NULL);
INSERT INTO t VALUES(10, -8388608, NULL, NULL, NULL);
INSERT INTO t VALUES(11, 2147483647, NULL, NULL, NULL);
INSERT INTO t VALUES(12, -2147483648, NULL, NULL, NULL);
INSERT INTO t VALUES(13, 140737488355327, NULL, NULL, NULL);
INSERT INTO t VALUES(14, -140737488355328, NULL, NULL, NULL);
INSERT INTO t VALUES(15, 9223372036854775807, NULL, NULL, NULL);
INSERT INTO t VALUES(16, -9223372036854775808, NULL, NULL, NULL);
INSERT INTO t VALUES(17, 2.5, 'text in a REAL column', 42, 'text in a BLOB column');
-- Payloads of U-35 bytes (the most kept on a 512-byte page), U-34 (the
-- least that spills: M bytes kept, K being over U-35), 647 (K bytes kept)
-- and 985 (K is U-35: kept).
INSERT INTO t VALUES(18, NULL, NULL, printf('%.470c', 'a'), NULL);
INSERT INTO t VALUES(19, NULL, NULL, printf('%.471c', 'b'), NULL);
INSERT INTO t VALUES(20, NULL, NULL, printf('%.640c', 'c'), NULL);
INSERT INTO t VALUES(21, NULL, NULL, printf('%.978c', 'd'), NULL);
INSERT INTO t VALUES(9000000000, 'long', NULL, printf('%.2000c', 'x') || 'end', zeroblob(700));
CREATE INDEX t_s ON t(s);
CREATE VIEW v AS SELECT id FROM t;
CREATE TABLE "Odd ""Name""" (
  [first col] "VARCHAR"(10) NOT NULL DEFAULT 'x', -- a comment
  `second` "INTEGER" CHECK (second > 0 AND CAST(second AS TEXT) <> ''),
  'third',
  "Key" INTEGER,
  fourth INT GENERATED ALWAYS AS (second * 2) VIRTUAL,
  fifth TEXT AS (upper("first col")) STORED,
  /* a table constraint */ CONSTRAINT pk PRIMARY KEY ("Key" DESC)
);
INSERT INTO "Odd ""Name"""([first col], second, third, "Key") VALUES('a', 1, 'z', -5), ('b', 2, NULL, 7);
CREATE TABLE desc_pk(id INTEGER PRIMARY KEY DESC, x);
INSERT INTO desc_pk VALUES(3, 'three');
CREATE TABLE alt(a);
INSERT INTO alt VALUES(1);
ALTER TABLE alt ADD COLUMN b DEFAULT 7;
INSERT INTO alt VALUES(2, 3);
CREATE TABLE wr(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO wr VALUES('a', 1);
SQL

# tiny: two 512-byte pages, a seed the fuzzer minimizes fast.
sqlite3 tiny.sqlite <<'SQL'
PRAGMA page_size=512;
CREATE TABLE t(id INTEGER PRIMARY KEY, v);
INSERT INTO t VALUES(1, NULL), (2, -300), (3, 2.5), (4, 'text'), (5, x'beef');
SQL

# big: a b-tree of four levels (512-byte pages, rowids of 6-byte varints).
sqlite3 big.sqlite <<'SQL'
PRAGMA page_size=512;
CREATE TABLE big(k INTEGER PRIMARY KEY, v INTEGER, s TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 8000)
INSERT INTO big SELECT i * 1000000007, (i * 7919) % 100003 - 50000, printf('%0*d', 100 + i % 50, i) FROM c;
SQL
gzip -9n big.sqlite

# page64k: 65536-byte pages (the header's 1), a text over two overflow pages.
sqlite3 page64k.sqlite <<'SQL'
PRAGMA page_size=65536;
CREATE TABLE t(a, b);
INSERT INTO t VALUES(1, printf('%.150000c', 'y'));
INSERT INTO t VALUES(2, 'short');
SQL
gzip -9n page64k.sqlite

# reserved: 1024-byte pages with 32 reserved bytes each (usable 992), rows
# enough for an interior page and one spilling to overflow pages.
sqlite3 reserved.sqlite <<'SQL'
.filectrl reserve_bytes 32
PRAGMA page_size=1024;
CREATE TABLE r(n INTEGER, s TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 300)
INSERT INTO r SELECT i, printf('row %d', i) FROM c;
INSERT INTO r VALUES(301, printf('%.3000c', 'z'));
SQL

# utf16: a UTF-16le database.
sqlite3 utf16.sqlite <<'SQL'
PRAGMA encoding='UTF-16le';
CREATE TABLE "tëxt"(s TEXT, n);
INSERT INTO "tëxt" VALUES('héllo wörld', 1), ('日本語', 2), ('𝄞 clef', 3);
SQL

# wal: a database in WAL mode (header bytes 18 and 19 are 2), checkpointed
# when the CLI closes it.
sqlite3 wal.sqlite <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE w(a);
INSERT INTO w VALUES('in the main file');
SQL
ls -l tiny.sqlite types.sqlite big.sqlite.gz page64k.sqlite.gz reserved.sqlite utf16.sqlite wal.sqlite
