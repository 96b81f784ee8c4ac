-- category_report: levels per category, and the like-for-like change (M2).
--
-- README: "every observation of the period (each store's price of each day
-- once) up to the data set's latest day"; CategoryStats: products
-- "distinct barcodes observed in the period", stores "reference stores that
-- observed the category", promo_share_pct "observations on promotion,
-- percent"; the unit price "is in the category's most observed basis".
--
-- M2. "Period C (current) and Q (previous, same length, the days just
-- before C). For each banner SKU in the selection with at least one daily
-- price in C and one in Q, its index I on each of its days with data in
-- Q and C: 1 on the first, then the product of its links (M2', derive.sql:
-- the geometric mean of the price relatives of its stores in force on the
-- day and on its day before) up to the day;
--   ratio = mean over C's days with data of I / mean over Q's days with data of I   (shelf)
--   ratio_r likewise with I_r, from the regular prices' links                      (regular)
-- change_pct = Jevons(ratios) (percent), regular_change_pct =
-- Jevons(ratios_r); null when no SKU matched. Each answer carries matched
-- (SKUs matched), matched_banners (their banners), low_sample (matched < 5
-- or stores < 3 or matched_banners < 2, the documented minimums), days_with_data and previous_days_with_data (distinct days
-- of C and of Q on which some SKU of the selection has a daily price), and a
-- note when previous_days_with_data < days_with_data ("the previous period
-- has data on N of its D days"). The levels (average, min, median, max over
-- every store observation of the period) stay as levels, computed exactly
-- and rounded when written; previous_average_price likewise."
-- Jevons(ratios) as a percent change = (geomean(ratios) - 1) * 100.
--
-- Read here: the selection of a category row is the row's category within
-- the request's province and banner; unit prices are each observation's
-- exact price per its size's basis (M9), in the basis most observations of
-- the category have (ties: the basis name first in order).
-- Variables: province, banner ('' for all), category ('' for all), days.
WITH sel AS (
  SELECT o.*, (o.d > m.asof - :'days'::int) AS cur, z.ub,
         CASE z.ub WHEN '' THEN NULL WHEN 'per unit' THEN o.pc / z.uq ELSE o.pc * 100 / z.uq END AS u
  FROM obs o JOIN sizes z USING (size), meta m
  WHERE o.province = :'province' AND (:'banner' = '' OR o.banner = :'banner')
    AND (:'category' = '' OR lower(o.category) = lower(:'category'))
    AND o.d > m.asof - 2 * :'days'::int
),
levels AS (
  SELECT category, avg(pc) AS average_price, min(pc) AS min_price, max(pc) AS max_price,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY pc)::numeric AS median_price,
         count(DISTINCT upc) AS products, count(DISTINCT store_id) AS stores, count(*) AS observations,
         100.0 * count(*) FILTER (WHERE pc < rc) / count(*) AS promo_share_pct
  FROM sel WHERE cur GROUP BY category
),
prev AS (SELECT category, avg(pc) AS previous_average_price FROM sel WHERE NOT cur GROUP BY category),
basis AS (
  SELECT DISTINCT ON (category) category, ub AS basis
  FROM sel WHERE cur AND ub <> ''
  GROUP BY category, ub ORDER BY category, count(*) DESC, ub
),
units AS (
  SELECT s.category, b.basis, avg(s.u) AS average, min(s.u) AS min, max(s.u) AS max,
         count(*) AS observations
  FROM sel s JOIN basis b ON b.category = s.category AND s.ub = b.basis
  WHERE s.cur GROUP BY s.category, b.basis
),
-- the exact median of the unit prices (numeric: percentile_cont is float8)
unit_ranked AS (
  SELECT s.category, s.u,
         row_number() OVER (PARTITION BY s.category ORDER BY s.u) AS i,
         count(*) OVER (PARTITION BY s.category) AS n
  FROM sel s JOIN basis b ON b.category = s.category AND s.ub = b.basis
  WHERE s.cur
),
unit_median AS (
  SELECT category, avg(u) AS median FROM unit_ranked
  WHERE i IN ((n + 1) / 2, (n + 2) / 2) GROUP BY category
),
dp0 AS (
  SELECT dl.category, dl.banner, dl.sku, dl.d, l.lp, l.lr, (dl.d > m.asof - :'days'::int) AS cur
  FROM dayprice dl JOIN links l USING (province, banner, sku, d), meta m
  WHERE dl.province = :'province' AND (:'banner' = '' OR dl.banner = :'banner')
    AND (:'category' = '' OR lower(dl.category) = lower(:'category'))
    AND dl.d > m.asof - 2 * :'days'::int
),
-- I and I_r: the links chained from the SKU's first day here (whose own
-- link, from a day before Q, is left out).
dp AS (
  SELECT category, banner, sku, d, cur,
         exp(sum(lp) OVER w - first_value(lp) OVER w) AS p,
         exp(sum(lr) OVER w - first_value(lr) OVER w) AS r
  FROM dp0 WINDOW w AS (PARTITION BY banner, sku ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
skus AS (
  SELECT category, banner, sku,
         avg(p) FILTER (WHERE cur) AS pc_mean, avg(p) FILTER (WHERE NOT cur) AS pq_mean,
         avg(r) FILTER (WHERE cur) AS rc_mean, avg(r) FILTER (WHERE NOT cur) AS rq_mean
  FROM dp GROUP BY category, banner, sku
),
jevons AS (
  SELECT category, count(*) AS matched, count(DISTINCT banner) AS matched_banners,
         (exp(avg(ln((pc_mean / pq_mean)::float8))) - 1) * 100 AS change_pct,
         (exp(avg(ln((rc_mean / rq_mean)::float8))) - 1) * 100 AS regular_change_pct
  FROM skus WHERE pc_mean IS NOT NULL AND pq_mean IS NOT NULL GROUP BY category
),
days AS (
  SELECT category, count(DISTINCT d) FILTER (WHERE cur) AS days_with_data,
         count(DISTINCT d) FILTER (WHERE NOT cur) AS previous_days_with_data
  FROM dp GROUP BY category
)
SELECT coalesce(jsonb_agg(x ORDER BY category), '[]')
FROM (
  SELECT l.*, p.previous_average_price,
         coalesce(j.matched, 0) AS matched, j.change_pct, j.regular_change_pct,
         coalesce(j.matched_banners, 0) AS matched_banners,
         coalesce(j.matched, 0) < 5 OR l.stores < 3 OR coalesce(j.matched_banners, 0) < 2 AS low_sample,
         coalesce(dd.days_with_data, 0) AS days_with_data, coalesce(dd.previous_days_with_data, 0) AS previous_days_with_data,
         CASE WHEN u.category IS NULL THEN NULL ELSE jsonb_build_object('basis', u.basis, 'average', u.average, 'min', u.min,
           'max', u.max, 'observations', u.observations, 'median', um.median) END AS unit_price
  FROM levels l
  LEFT JOIN prev p USING (category)
  LEFT JOIN jevons j USING (category)
  LEFT JOIN days dd USING (category)
  LEFT JOIN units u USING (category)
  LEFT JOIN unit_median um USING (category)
) x;
