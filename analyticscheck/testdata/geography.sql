-- geographic_prices and regional_comparison (M4. Geography), banner for
-- banner.
--
-- "A pair (X, g) is banner X's current price of barcode g in province P:
-- p_X,P(g) on shelf prices, r_X,P(g) on regular prices.
-- The pair's national prices: n_X(g) = sum_P w_P p_X,P(g) / sum_P w_P and
-- m_X(g) likewise with r, over the provinces P where X prices g,
-- w_P = population (thousands, Statistics Canada July 1 2024:
-- ON 16124 QC 9056 BC 5698 AB 4889 MB 1494 SK 1240 NS 1076 NB 854 NL 546
-- PE 179 YT 47 NT 45 NU 41).
-- Province index I_P = 100 * geomean over the pairs (X, g) of the selection
-- priced in P and in at least one other province of r_X,P(g) / m_X(g);
-- shelf_index likewise with p and n; null on no such pair (nothing to compare).
-- regional delta_pct = I_P - 100, shelf_delta_pct = shelf_index - 100
-- (from the exact indexes, then rounded). National row: index 100.
-- pairs, banners, products: the pairs compared, their banners and
-- barcodes. stores = active reference stores in P of those banners;
-- thin = stores < 3; low_sample = products < 5 (1 with a upc) or
-- stores < 3 or banners < 2.
-- Levels per province: average (with a upc only; null for a category) =
-- mean of the current banner prices p_X,P(g), min / max = the lowest /
-- highest of them over the selection."
-- p and r are M1's current banner prices (table bcur, derive.sql); active
-- reference stores are the rows of the stores export.
--
-- Read here: a pair's national prices are over every province where the
-- banner prices the barcode, whatever the selection (the selection only
-- chooses the barcodes).
-- Variables: upc, category (both '' for the whole panel).
WITH sel AS (
  SELECT * FROM bcur
  WHERE (:'upc' = '' OR upc = :'upc') AND (:'category' = '' OR lower(category) = lower(:'category'))
),
nat AS (
  SELECT b.banner, b.upc, sum(w.w * b.p) / sum(w.w) AS n, sum(w.w * b.r) / sum(w.w) AS m, count(*) AS provinces
  FROM bcur b JOIN populations w USING (province) GROUP BY b.banner, b.upc
),
cmp AS (
  SELECT sel.* , nat.n, nat.m FROM sel JOIN nat USING (banner, upc) WHERE nat.provinces >= 2
),
idx AS (
  SELECT province, 100 * exp(avg(ln((r / m)::float8))) AS index, 100 * exp(avg(ln((p / n)::float8))) AS shelf_index,
         count(*) AS pairs, count(DISTINCT banner) AS banners, count(DISTINCT upc) AS products
  FROM cmp GROUP BY province
),
lv AS (
  SELECT province, CASE WHEN :'upc' <> '' THEN avg(p) END AS average, min(p) AS min, max(p) AS max FROM sel GROUP BY province
),
st AS (
  SELECT s.province, count(*) AS stores FROM stores_csv s
  WHERE s.active AND EXISTS (SELECT 1 FROM cmp WHERE cmp.province = s.province AND cmp.banner = s.banner)
  GROUP BY s.province
)
SELECT coalesce(jsonb_agg(x ORDER BY province), '[]')
FROM (
  SELECT province, index, index - 100 AS delta_pct, shelf_index, shelf_index - 100 AS shelf_delta_pct,
         pairs, banners, products, average, min, max, stores, stores < 3 AS thin,
         products < CASE WHEN :'upc' <> '' THEN 1 ELSE 5 END OR stores < 3 OR banners < 2 AS low_sample
  FROM (
    SELECT lv.province, i.index AS index, i.shelf_index AS shelf_index,
           coalesce(i.pairs, 0) AS pairs, coalesce(i.banners, 0) AS banners, coalesce(i.products, 0) AS products,
           lv.average, lv.min, lv.max, coalesce(st.stores, 0) AS stores
    FROM lv LEFT JOIN idx i USING (province) LEFT JOIN st USING (province)
  ) y
) x;
