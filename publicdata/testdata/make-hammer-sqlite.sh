#!/usr/bin/env bash
# Writes hammer.sqlite, Project Hammer's SQLite file holding the rows of
# hammer-4-product.csv and hammer-4-raw.csv (the same rows, corruptions
# and all), with Debian's sqlite3 CLI (apt-get install sqlite3; made with
# 3.40.1):
#
#	bash publicdata/testdata/make-hammer-sqlite.sh
#
# The tables are typed as a database would type them: product.id an
# INTEGER PRIMARY KEY (the rowid), the prices REAL (a price that is not a
# number, a shifted column, stays text), product_id INTEGER, and the
# empty fields NULL.
set -euo pipefail
cd "$(dirname "$0")"
rm -f hammer.sqlite
sqlite3 hammer.sqlite <<'SQL'
CREATE TABLE product(id INTEGER PRIMARY KEY, concatted TEXT, vendor TEXT, product_name TEXT, units TEXT, brand TEXT, detail_url TEXT, sku TEXT, upc TEXT);
CREATE TABLE raw(nowtime TEXT, current_price REAL, old_price REAL, price_per_unit TEXT, other TEXT, product_id INTEGER);
.import --csv --skip 1 hammer-4-product.csv product
.import --csv --skip 1 hammer-4-raw.csv raw
UPDATE product SET brand = NULLIF(brand, ''), sku = NULLIF(sku, ''), upc = NULLIF(upc, '');
UPDATE raw SET old_price = NULLIF(old_price, ''), price_per_unit = NULLIF(price_per_unit, ''), other = NULLIF(other, '');
VACUUM;
SQL
ls -l hammer.sqlite
