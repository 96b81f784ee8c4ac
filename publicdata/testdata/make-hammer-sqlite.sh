#!/usr/bin/env bash
# Writes DIR/hammer.sqlite, Project Hammer's SQLite file holding the rows
# of DIR/hammer-4-product.csv and DIR/hammer-4-raw.csv (the same rows,
# corruptions and all), with Debian's sqlite3 CLI (apt-get install
# sqlite3; made with 3.40.1). DIR is this directory when not given:
#
#	bash publicdata/testdata/make-hammer-sqlite.sh [DIR]
#
# The tables are typed as a database would type them: product.id an
# INTEGER PRIMARY KEY (the rowid), the prices REAL (a price that is not a
# number, a shifted column, stays text), product_id INTEGER, and the
# empty fields NULL.
set -euo pipefail
cd "${1:-$(dirname "$0")}"
rm -f hammer.sqlite
sqlite3 hammer.sqlite <<'SQL'
CREATE TABLE product(id INTEGER PRIMARY KEY, concatted TEXT, vendor TEXT, product_name TEXT, units TEXT, brand TEXT, detail_url TEXT, sku TEXT, upc TEXT);
CREATE TABLE raw(nowtime TEXT, current_price REAL, old_price REAL, price_per_unit TEXT, other TEXT, product_id INTEGER);
.import --csv --schema temp hammer-4-product.csv product_csv
.import --csv --schema temp hammer-4-raw.csv raw_csv
INSERT INTO product SELECT id, concatted, vendor, product_name, units, NULLIF(brand, ''), detail_url, NULLIF(sku, ''), NULLIF(upc, '') FROM product_csv;
INSERT INTO raw SELECT nowtime, current_price, NULLIF(old_price, ''), NULLIF(price_per_unit, ''), NULLIF(other, ''), product_id FROM raw_csv;
SQL
ls -l hammer.sqlite
