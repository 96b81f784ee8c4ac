-- executive_brief: movers, promotion intensity, basket (M7) and the week
-- and four-week inflation (M2).
--
-- M7. "Week W = the 7 days up to asOf; W1 = the 7 days before. A SKU's
-- weekly price = its daily price on its last day with data in the week
-- (shelf p and regular r). Movers = banner SKUs with a weekly regular price
-- in both weeks whose regular price changed the same way as its stores'
-- own regular prices between the two days (I_r, M2, moved the same way):
-- change_pct = (r_W / r_W1 - 1) * 100; up and down lists by |change|
-- descending, ties by banner then sku.
-- Brief promotion intensity per banner: of its SKUs with a weekly price in
-- W, on_promotion = those with p < r; share_pct; avg_discount_pct = mean
-- (1 - p/r) * 100 over them.
-- Brief basket: the 25 barcodes priced by the most banners in the flyer
-- week (ties by barcode), each banner's index per M3 on its weekly prices
-- of that week (competitive_benchmark's week and prices, benchmark.sql);
-- cheapest / dearest among banners with >= 20 items."
-- M2. "category_report's change and the brief's week and four-week
-- inflation are matched-model Jevons indexes" (see category_report.sql),
-- each SKU's index I chained from its first day of the 56 days read.
-- "week_banners: the banners of the week_series SKUs; week_stores: the
-- province's active reference stores of those banners; low_sample:
-- week_series < 5 or week_stores < 3 or week_banners < 2."
--
-- Read here: the basket's candidates are the barcodes at least 3 banners
-- price (the fewest a comparison with the other banners' median needs, as
-- the OpenAPI document says); the four-week inflation is M2 with C the 28 days up to asOf
-- and Q the 28 days before them;
-- a banner's basket price of a barcode is the lowest weekly price over
-- its SKUs of it (as M3's p_B(g): derive.sql's weekprice); the basket's total is
-- M3's sum of p_B(g) over G_B; avg_discount_pct is 0 when none is promoted.
-- Variables: province.
SET enable_nestloop = off; -- the planner misjudges the CTEs' sizes
WITH wk0 AS (
  SELECT dl.*, l.lp, l.lr, CASE WHEN dl.d > m.asof - 7 THEN 0 WHEN dl.d > m.asof - 14 THEN 1 END AS week,
         CASE WHEN dl.d > m.asof - 28 THEN 0 ELSE 1 END AS four
  FROM dayprice dl JOIN links l USING (province, banner, sku, d), meta m WHERE dl.province = :'province' AND dl.d > m.asof - 56
),
-- ln I and ln I_r: the links chained from the SKU's first day read.
wk AS (
  SELECT wk0.*, sum(lp) OVER w - first_value(lp) OVER w AS lnp, sum(lr) OVER w - first_value(lr) OVER w AS lnr
  FROM wk0 WINDOW w AS (PARTITION BY banner, sku ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
weekly AS (
  SELECT DISTINCT ON (banner, sku, week) banner, sku, upc, category, week, d, p, r, lnr
  FROM wk WHERE week IS NOT NULL ORDER BY banner, sku, week, d DESC
),
movers AS (
  SELECT a.banner, a.sku AS external_sku, a.upc, b.r AS before, b.d AS before_date, a.r AS now, a.d AS now_date,
         (a.r::float8 / b.r::float8 - 1) * 100 AS change_pct
  FROM weekly a JOIN weekly b ON b.banner = a.banner AND b.sku = a.sku AND b.week = 1
  WHERE a.week = 0 AND a.r <> b.r AND sign(a.lnr - b.lnr) = sign(a.r - b.r)
),
promos AS (
  SELECT banner, count(*) AS products, count(*) FILTER (WHERE p < r) AS on_promotion,
         100.0 * count(*) FILTER (WHERE p < r) / count(*) AS share_pct,
         coalesce(avg((1 - p / r) * 100) FILTER (WHERE p < r), 0) AS avg_discount_pct
  FROM weekly WHERE week = 0 GROUP BY banner
),
skus AS (
  SELECT category, banner, sku,
         avg(exp(lnp)) FILTER (WHERE week = 0) AS p0, avg(exp(lnp)) FILTER (WHERE week = 1) AS p1,
         avg(exp(lnp)) FILTER (WHERE four = 0) AS f0, avg(exp(lnp)) FILTER (WHERE four = 1) AS f1
  FROM wk WHERE category IS NOT NULL GROUP BY category, banner, sku
),
infl AS (
  SELECT CASE WHEN grouping(category) = 1 THEN 'All categories' ELSE category END AS category,
         (exp(avg(ln((p0 / p1)::float8)) FILTER (WHERE p0 IS NOT NULL AND p1 IS NOT NULL)) - 1) * 100 AS week_pct,
         count(*) FILTER (WHERE p0 IS NOT NULL AND p1 IS NOT NULL) AS week_series,
         (exp(avg(ln((f0 / f1)::float8)) FILTER (WHERE f0 IS NOT NULL AND f1 IS NOT NULL)) - 1) * 100 AS four_week_pct,
         count(*) FILTER (WHERE f0 IS NOT NULL AND f1 IS NOT NULL) AS four_week_series,
         count(DISTINCT banner) FILTER (WHERE p0 IS NOT NULL AND p1 IS NOT NULL) AS week_banners,
         array_agg(DISTINCT banner) FILTER (WHERE p0 IS NOT NULL AND p1 IS NOT NULL) AS wb
  FROM skus GROUP BY GROUPING SETS ((category), ())
),
-- Small samples: week_stores = the province's active reference stores of
-- the week_banners; low_sample = week_series < 5 or week_stores < 3 or
-- week_banners < 2 (the documented minimums).
infl2 AS (
  SELECT i.category, i.week_pct, i.week_series, i.four_week_pct, i.four_week_series, i.week_banners, st.week_stores,
         i.week_series < 5 OR st.week_stores < 3 OR i.week_banners < 2 AS low_sample
  FROM infl i CROSS JOIN LATERAL (
    SELECT count(*) AS week_stores FROM stores_csv s
    WHERE s.active AND s.province = :'province' AND s.banner = ANY (coalesce(i.wb, '{}'))
  ) st
),
bw AS (
  SELECT banner, upc, min(p) AS p FROM weekprice
  WHERE province = :'province' AND upc <> '' AND NOT restricted(upc) GROUP BY banner, upc
),
basket AS (
  SELECT upc FROM bw GROUP BY upc HAVING count(*) >= 3 ORDER BY count(*) DESC, upc LIMIT 25
),
pairs AS (
  SELECT x.banner, x.upc, x.p, percentile_cont(0.5) WITHIN GROUP (ORDER BY y.p)::numeric AS m, count(*) AS others
  FROM bw x JOIN bw y ON y.upc = x.upc AND y.banner <> x.banner
  WHERE x.upc IN (SELECT upc FROM basket)
  GROUP BY x.banner, x.upc, x.p
),
costs AS (
  SELECT banner, 100 * exp(avg(ln((p / m)::float8))) AS index, count(*) AS items, sum(p) AS total
  FROM pairs WHERE others >= 2 GROUP BY banner
)
SELECT jsonb_build_object(
  'movers_up', (SELECT coalesce(jsonb_agg(x ORDER BY abs(change_pct) DESC, banner, external_sku), '[]') FROM movers x WHERE change_pct > 0),
  'movers_down', (SELECT coalesce(jsonb_agg(x ORDER BY abs(change_pct) DESC, banner, external_sku), '[]') FROM movers x WHERE change_pct < 0),
  'promotions', (SELECT coalesce(jsonb_agg(x ORDER BY banner), '[]') FROM promos x),
  'categories', (SELECT coalesce(jsonb_agg(x ORDER BY category), '[]') FROM infl2 x WHERE category <> 'All categories'),
  'overall', (SELECT to_jsonb(x) FROM infl2 x WHERE category = 'All categories'),
  'basket_items', (SELECT count(*) FROM basket),
  'basket_week_from', (SELECT wfrom FROM flyerweek WHERE province = :'province'),
  'basket_week_to', (SELECT wfrom + 6 FROM flyerweek WHERE province = :'province'),
  'basket', (SELECT coalesce(jsonb_agg(x ORDER BY banner), '[]') FROM costs x));
