-- competitive_benchmark (M3. One comparison between banners).
--
-- "The week: one flyer week (Thursday to Wednesday) for every banner: the
-- flyer week of asOf when every banner with a daily price in the week
-- before has a daily price in it, otherwise the week before. p_B(g),
-- r_B(g): banner B's weekly prices of g: over B's SKUs of g, the lowest
-- daily price (M1') on the SKU's last day with a daily price in the week,
-- and the lowest such regular price.
-- For banner B in P and barcode g that B prices: the market price m_B(g) =
-- median of { p_X(g) : X != B, X prices g } (each other banner once;
-- shelf), m^r_B(g) likewise with r_X(g).
-- G_B = barcodes B prices and at least 2 other banners price.
-- index(B) = 100 * geomean over g in G_B of p_B(g)/m_B(g);  regular_index(B)
-- likewise with r.
-- items(B) = |G_B|. A banner is ranked only when items(B) >= 20
-- (BenchmarkMinItems = 20); ranks order ranked banners by index as written
-- (0.1), ascending (1 = cheapest); equal written indexes share a rank
-- (1, 2, 2, 4); ties listed by banner slug. Categories: the same index over
-- G_B within each category.
-- total / market_cost: the sums of p_B(g) and m_B(g) over G_B (levels, one
-- of each). A banner not in the province's panel (no reference store
-- there, or no current offer) is 404; a banner in it that prices no barcode
-- 2 other banners price has no item: index and regular_index are null
-- (never 0)."
-- (The query gives banner null for a banner with no item; the test tells
-- the two apart by whether the banner has a weekly price.)
-- The week and the weekly prices are derive.sql's flyerweek and weekprice.
--
-- Read here: the categories' rows carry items and regular_index like the
-- banner's; m^r_B(g) is taken over the same other banners as m_B(g).
-- Variables: province, banner.
WITH
b AS (
  SELECT banner, upc, min(category) AS category, min(p) AS p, min(r) AS r FROM weekprice
  WHERE province = :'province' AND upc <> '' AND NOT restricted(upc) GROUP BY banner, upc
),
pairs AS (
  SELECT x.banner, x.upc, x.category, x.p, x.r,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY y.p)::numeric AS m,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY y.r)::numeric AS mr,
         count(*) AS others
  FROM b x JOIN b y ON y.upc = x.upc AND y.banner <> x.banner
  GROUP BY x.banner, x.upc, x.category, x.p, x.r
),
g AS (SELECT * FROM pairs WHERE others >= 2),
idx AS (
  SELECT banner, 100 * exp(avg(ln((p / m)::float8))) AS index, 100 * exp(avg(ln((r / mr)::float8))) AS regular_index,
         count(*) AS items, sum(p) AS total, sum(m) AS market_cost
  FROM g GROUP BY banner
),
ranked AS (
  SELECT banner, rank() OVER (ORDER BY round(index::numeric, 1)) AS rank
  FROM idx WHERE items >= 20
),
cats AS (
  SELECT category, 100 * exp(avg(ln((p / m)::float8))) AS index, 100 * exp(avg(ln((r / mr)::float8))) AS regular_index,
         count(*) AS items, sum(p) AS total, sum(m) AS market_cost
  FROM g WHERE banner = :'banner' GROUP BY category
)
SELECT jsonb_build_object(
  'priced', EXISTS (SELECT 1 FROM weekprice WHERE province = :'province' AND banner = :'banner'),
  'week_from', (SELECT wfrom FROM flyerweek WHERE province = :'province'),
  'week_to', (SELECT wfrom + 6 FROM flyerweek WHERE province = :'province'),
  'banner', (SELECT to_jsonb(x) FROM (SELECT i.*, coalesce(r.rank, 0) AS rank FROM idx i LEFT JOIN ranked r USING (banner)
             WHERE i.banner = :'banner') x),
  'ranking', (SELECT coalesce(jsonb_agg(x ORDER BY rank, banner), '[]') FROM (
                SELECT i.*, r.rank FROM idx i JOIN ranked r USING (banner)) x),
  'unranked', (SELECT coalesce(jsonb_agg(banner ORDER BY banner), '[]') FROM idx WHERE items < 20),
  'categories', (SELECT coalesce(jsonb_agg(x ORDER BY category), '[]') FROM cats x));
