// Reads Parquet exports with DuckDB (an independent Parquet reader) and
// compares each with the CSV export of the same request: the same row
// count, the same rows (as multisets, each value as text), and each
// column of the Parquet type the OpenAPI document promises.
//
//   node parquet-duckdb.mjs CSV PARQUET [CSV PARQUET]...
//
// With --write, it writes the columns of a CSV file to a Parquet file as
// DuckDB types them (DATE, DOUBLE, VARCHAR; snappy), for an import of a
// file written by another program:
//
//   node parquet-duckdb.mjs --write OUT.parquet IN.csv COLUMN,COLUMN,...
//
// It sits beside the node_modules holding @duckdb/node-api.
import { DuckDBInstance } from '@duckdb/node-api';

const types = {
  date: 'DATE', promo_ends: 'DATE', promo_ended: 'DATE', observed_at: 'DATE',
  price: 'DECIMAL(18,2)', regular_price: 'DECIMAL(18,2)', min_price: 'DECIMAL(18,2)',
  max_price: 'DECIMAL(18,2)', unit_price: 'DECIMAL(18,2)',
  on_promo: 'BOOLEAN', active: 'BOOLEAN', store_count: 'BIGINT', observations_30d: 'BIGINT',
  latitude: 'DOUBLE', longitude: 'DOUBLE',
};

const args = process.argv.slice(2);
if (args[0] === '--write') {
  const [, out, csv, columns] = args;
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const q = (s) => "'" + s.replaceAll("'", "''") + "'";
  const cols = columns.split(',').map((n) => `"${n}"`).join(', ');
  await c.run(`COPY (SELECT ${cols} FROM read_csv(${q(csv)}, header = true)) TO ${q(out)} (FORMAT parquet)`);
  const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(out)})`)).getRowObjectsJson();
  console.log(`${out}: ${types.map((r) => `${r.column_name} ${r.column_type}`).join(', ')}`);
  process.exit(0);
}
if (args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: node parquet-duckdb.mjs CSV PARQUET [CSV PARQUET]...');
  process.exit(2);
}
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const q = (s) => "'" + s.replaceAll("'", "''") + "'";
const rows = async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJson();
let failed = false;
for (let i = 0; i < args.length; i += 2) {
  const [csv, pq] = [args[i], args[i + 1]];
  const fail = (msg) => { console.error(`${pq}: ${msg}`); failed = true; };
  const cols = await rows(`DESCRIBE SELECT * FROM read_parquet(${q(pq)})`);
  const csvCols = await rows(`DESCRIBE SELECT * FROM read_csv(${q(csv)}, header = true, all_varchar = true)`);
  const names = cols.map((r) => r.column_name);
  if (names.join(',') !== csvCols.map((r) => r.column_name).join(',')) {
    fail(`columns ${names} differ from the CSV's ${csvCols.map((r) => r.column_name)}`);
    continue;
  }
  for (const r of cols) {
    const want = types[r.column_name] ?? 'VARCHAR';
    if (r.column_type !== want) fail(`column ${r.column_name} is ${r.column_type}, want ${want}`);
  }
  // Each value as the CSV writes it: an empty field for a null, and the
  // CSV's apostrophe before a formula-like text (OWASP) taken off.
  const pqText = names.map((n) => `coalesce(CAST("${n}" AS VARCHAR), '') AS "${n}"`).join(', ');
  const csvText = names.map((n) => `coalesce(regexp_replace("${n}", '^''(''*[=+\\-@\\t\\r])', '\\1'), '') AS "${n}"`).join(', ');
  const p = `SELECT ${pqText} FROM read_parquet(${q(pq)})`;
  const t = `SELECT ${csvText} FROM read_csv(${q(csv)}, header = true, all_varchar = true)`;
  const [{ n: pn }] = await rows(`SELECT count(*) AS n FROM read_parquet(${q(pq)})`);
  const [{ n: cn }] = await rows(`SELECT count(*) AS n FROM read_csv(${q(csv)}, header = true, all_varchar = true)`);
  if (pn !== cn) fail(`${pn} rows, the CSV ${cn}`);
  const [{ n: onlyP }] = await rows(`SELECT count(*) AS n FROM (${p} EXCEPT ALL ${t})`);
  const [{ n: onlyC }] = await rows(`SELECT count(*) AS n FROM (${t} EXCEPT ALL ${p})`);
  if (onlyP !== '0' || onlyC !== '0') {
    fail(`${onlyP} rows only in the Parquet file, ${onlyC} only in the CSV; for example:`);
    console.error(JSON.stringify(await rows(`(${p} EXCEPT ALL ${t}) LIMIT 2`)));
    console.error(JSON.stringify(await rows(`(${t} EXCEPT ALL ${p}) LIMIT 2`)));
  }
  const [{ g }] = await rows(`SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata(${q(pq)})`);
  if (!failed) console.log(`${pq}: ${pn} rows in ${g} row group(s), ${names.length} typed columns, the same as ${csv}`);
}
process.exit(failed ? 1 : 0);
