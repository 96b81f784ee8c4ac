-- geographic_prices and regional_comparison (M4. Geography).
--
-- "Province price of barcode g: pv_P(g) = median over banners X pricing g
-- currently in P of p_X(g).
-- National price: n(g) = sum_P w_P pv_P(g) / sum_P w_P over the provinces P
-- that price g, w_P = population (thousands, Statistics Canada July 1 2024:
-- ON 16124 QC 9056 BC 5698 AB 4889 MB 1494 SK 1240 NS 1076 NB 854 NL 546
-- PE 179 YT 47 NT 45 NU 41).
-- Province index I_P = 100 * geomean over g priced in P (in the selection)
-- of pv_P(g)/n(g).
-- regional delta_pct = I_P - 100 (from the exact index, then rounded).
-- National row: index 100.
-- Levels per province: average = mean of the current banner prices p_X(g)
-- over (X, g) in the selection, min / max = the lowest / highest of them.
-- products = barcodes priced. stores = active reference stores in P of the
-- banners that price the selection there; thin = stores < 3."
-- p_X(g) is M1's current banner price (table bcur, derive.sql); active
-- reference stores are the rows of the stores export.
--
-- Read here: n(g) is over every province that prices g, whatever the
-- selection (the selection only chooses the barcodes).
-- Variables: upc, category (both '' for the whole panel).
WITH sel AS (
  SELECT * FROM bcur
  WHERE (:'upc' = '' OR upc = :'upc') AND (:'category' = '' OR lower(category) = lower(:'category'))
),
pv AS (
  SELECT province, upc, percentile_cont(0.5) WITHIN GROUP (ORDER BY p)::numeric AS pv
  FROM bcur GROUP BY province, upc
),
nat AS (
  SELECT pv.upc, sum(w.w * pv.pv) / sum(w.w) AS n FROM pv JOIN populations w USING (province) GROUP BY pv.upc
),
idx AS (
  SELECT pv.province, 100 * exp(avg(ln((pv.pv / nat.n)::float8))) AS index, count(*) AS products
  FROM pv JOIN nat USING (upc)
  WHERE pv.upc IN (SELECT upc FROM sel) GROUP BY pv.province
),
lv AS (
  SELECT province, avg(p) AS average, min(p) AS min, max(p) AS max FROM sel GROUP BY province
),
st AS (
  SELECT s.province, count(*) AS stores FROM stores_csv s
  WHERE s.active AND EXISTS (SELECT 1 FROM sel WHERE sel.province = s.province AND sel.banner = s.banner)
  GROUP BY s.province
)
SELECT coalesce(jsonb_agg(x ORDER BY province), '[]')
FROM (
  SELECT i.province, i.index, i.index - 100 AS delta_pct, i.products, lv.average, lv.min, lv.max,
         coalesce(st.stores, 0) AS stores, coalesce(st.stores, 0) < 3 AS thin
  FROM idx i JOIN lv USING (province) LEFT JOIN st USING (province)
) x;
