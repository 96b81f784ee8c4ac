-- Market-position signals (M6. Signals).
--
-- "priced_above_market / priced_below_market / undercut: compare r_B(g)
-- with the median of other banners' r_X(g) (regular prices), at least 2
-- other banners; threshold 15% on the exact ratio.
-- competitor_promotion: a competitor currently on promotion (p_X < r_X)
-- under B's price: a threat type of its own. assortment_gap: barcode that
-- >= 3 other banners price now and B never priced in the lookback (no daily
-- price of any B SKU of g in the last 90 days). delisted: B priced g in the
-- lookback but has no current price now."
-- p_X(g), r_X(g) are M1's current banner prices (bcur); "price now" is a
-- current price.
--
-- Read here: above when r_B / m >= 1.15, below when r_B / m <= 0.85
-- (SignalMarketGapPct "at least 15%"); "under B's price" is p_X(g) < p_B(g)
-- (B's current shelf price); the last 90 days are asOf - 89 .. asOf.
-- "undercut" has no definition of its own beyond the first line and is not
-- checked.
--
-- Changes (every banner; OpenAPI Signal.type):
-- "price_increase / price_decrease (changes): a current banner SKU's regular
-- price moved by at least 10% since `since`, the whole move, not its last
-- step: its daily regular price r on its latest day against r on its latest
-- day before `since` with a daily price in the 30 days before it (since -
-- 30 .. since - 1); r_now / r_before >= 1.10 or <= 0.90; none when the SKU
-- has no daily price in those 30 days; `date` is the first day of the run of
-- days at r_now."
-- "lowest_in_30_days (changes): a day d >= since on which a current banner
-- SKU's daily price p(d) is under every daily price of the SKU in the 30
-- days before it (d - 30 .. d - 1, at least one day with data); of those
-- days, the lowest p(d) is reported (the latest on a tie), with
-- `previous_price` the lowest daily price of its 30 days before."
-- since: the default, "6 days before the data set's latest day". Only SKUs
-- with a barcode are signalled (a signal names its product).
-- Variables: province, banner.
WITH own AS (SELECT * FROM bcur WHERE province = :'province' AND banner = :'banner'),
other AS (SELECT * FROM bcur WHERE province = :'province' AND banner <> :'banner'),
market AS (
  SELECT o.upc, o.p AS own_p, o.r AS own_r, count(*) AS others,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY x.r)::numeric AS m
  FROM own o JOIN other x USING (upc) GROUP BY o.upc, o.p, o.r
),
gaps AS (
  SELECT x.upc FROM other x GROUP BY x.upc HAVING count(*) >= 3
  EXCEPT
  SELECT dl.upc FROM daily dl, meta WHERE dl.province = :'province' AND dl.banner = :'banner' AND dl.d > meta.asof - 90
),
delisted AS (
  SELECT DISTINCT dl.upc FROM daily dl, meta
  WHERE dl.province = :'province' AND dl.banner = :'banner' AND dl.d > meta.asof - 90
    AND dl.upc <> '' AND NOT restricted(dl.upc)
    AND NOT EXISTS (SELECT 1 FROM own WHERE own.upc = dl.upc)
),
cur_p AS (
  SELECT c.*, meta.asof - 6 AS since FROM cur c, meta
  WHERE c.province = :'province' AND c.upc <> '' AND c.d >= meta.asof - 6
),
moves AS (
  SELECT c.banner, c.sku, c.upc, c.p, c.r AS now_r, b.r AS before_r,
         (SELECT min(x.d) FROM daily x WHERE x.province = c.province AND x.banner = c.banner AND x.sku = c.sku
            AND x.d > coalesce((SELECT max(y.d) FROM daily y WHERE y.province = c.province AND y.banner = c.banner
                                  AND y.sku = c.sku AND y.r <> c.r), '-infinity'::date)) AS from_d
  FROM cur_p c
  JOIN LATERAL (SELECT d.r FROM daily d WHERE d.province = c.province AND d.banner = c.banner AND d.sku = c.sku
                  AND d.d < c.since AND d.d >= c.since - 30 ORDER BY d.d DESC LIMIT 1) b ON true
),
lowdays AS (
  SELECT d.banner, d.sku, d.upc, d.d, d.p,
         (SELECT min(e.p) FROM daily e WHERE e.province = d.province AND e.banner = d.banner AND e.sku = d.sku
            AND e.d BETWEEN d.d - 30 AND d.d - 1) AS m
  FROM daily d JOIN cur_p c USING (province, banner, sku)
  WHERE d.d >= c.since
),
lows AS (
  SELECT DISTINCT ON (banner, sku) * FROM lowdays WHERE m IS NOT NULL AND p < m ORDER BY banner, sku, p, d DESC
)
SELECT coalesce(jsonb_agg(x ORDER BY type, upc, competitor), '[]') FROM (
  SELECT 'priced_above_market' AS type, upc, NULL AS competitor, own_r AS own_price, m AS market_median,
         NULL::numeric AS regular, NULL::numeric AS price, NULL::numeric AS previous, NULL::date AS date
  FROM market WHERE others >= 2 AND own_r / m >= 1.15
  UNION ALL
  SELECT 'priced_below_market', upc, NULL, own_r, m, NULL, NULL, NULL, NULL FROM market WHERE others >= 2 AND own_r / m <= 0.85
  UNION ALL
  SELECT 'competitor_promotion', o.upc, x.banner, o.p, NULL, NULL, NULL, NULL, NULL
  FROM own o JOIN other x USING (upc) WHERE x.p < x.r AND x.p < o.p
  UNION ALL
  SELECT 'assortment_gap', upc, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM gaps
  UNION ALL
  SELECT 'delisted', upc, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM delisted
  UNION ALL
  SELECT CASE WHEN now_r > before_r THEN 'price_increase' ELSE 'price_decrease' END, upc, banner || ' ' || sku,
         now_r, NULL, NULL, p, before_r, from_d
  FROM moves WHERE now_r / before_r >= 1.10 OR now_r / before_r <= 0.90
  UNION ALL
  SELECT 'lowest_in_30_days', upc, banner || ' ' || sku, NULL, NULL, NULL, p, m, d FROM lows
) x;
