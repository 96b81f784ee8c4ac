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
-- "A change is a store's change: a price_increase or price_decrease is kept
-- only when a store whose price is in force on both days compared moved its
-- own regular price in force the same way; a 30-day low only when a store
-- whose price is in force on the day and on the SKU's previous day with a
-- daily price has a lower price in force on the day."
-- since: the default, "6 days before the data set's latest day". Only SKUs
-- with a barcode are signalled (a signal names its product).
--
-- Threats (OpenAPI Signal.type and severity): "one per barcode g you price
-- now, naming in `competitors` every competitor X whose move puts it under
-- you ... A move is a promotion in force, p_X(g) < r_X(g) in the
-- competitor's offer, which is its price in force on the data set's
-- latest day ..., under your shelf price, p_X < p_B: from r_X to p_X,
-- compared with yours y = p_B ...; or, for a competitor with no promotion
-- in force, a regular price cut since `since` (the whole move, as
-- price_decrease reads it, of its SKU with the lowest price) under your
-- regular price: from r_X before to r_X now < r_B, compared with y = r_B."
-- "each move is high when it is at least 10% (now <= 0.90 x before) and
-- takes the competitor from at or above your price (before >= y) to at
-- least 5% under it (now <= 0.95 x y), medium when it is at least 5% (now
-- <= 0.95 x before), else low; the threat is as severe as its most severe
-- move." The type is the leading move's: "the most severe, then the
-- largest undercut, then by banner".
-- Read here: "its regular price now" is the regular price in force of X's
-- SKU with the lowest price (ties by SKU).
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
  SELECT dl.upc FROM dayprice dl, meta WHERE dl.province = :'province' AND dl.banner = :'banner' AND dl.d > meta.asof - 90
),
delisted AS (
  SELECT DISTINCT dl.upc FROM dayprice dl, meta
  WHERE dl.province = :'province' AND dl.banner = :'banner' AND dl.d > meta.asof - 90
    AND dl.upc <> '' AND NOT restricted(dl.upc)
    AND NOT EXISTS (SELECT 1 FROM own WHERE own.upc = dl.upc)
),
-- The current SKUs seen since since, with their daily prices of their
-- latest day (changes follow the daily series).
cur_p AS (
  SELECT c.province, c.banner, c.sku, c.upc, c.d, dl.p, dl.r, meta.asof - 6 AS since
  FROM cur c JOIN dayprice dl USING (province, banner, sku, d), meta
  WHERE c.province = :'province' AND c.upc <> '' AND c.d >= meta.asof - 6
),
moves AS (
  SELECT c.banner, c.sku, c.upc, c.p, c.r AS now_r, b.r AS before_r,
         (SELECT min(x.d) FROM dayprice x WHERE x.province = c.province AND x.banner = c.banner AND x.sku = c.sku
            AND x.d > coalesce((SELECT max(y.d) FROM dayprice y WHERE y.province = c.province AND y.banner = c.banner
                                  AND y.sku = c.sku AND y.r <> c.r), '-infinity'::date)) AS from_d
  FROM cur_p c
  JOIN LATERAL (SELECT d.r, d.d FROM dayprice d WHERE d.province = c.province AND d.banner = c.banner AND d.sku = c.sku
                  AND d.d < c.since AND d.d >= c.since - 30 ORDER BY d.d DESC LIMIT 1) b ON true
  -- A store's change: one in force on both days moved its regular price
  -- the same way. (OFFSET 0 keeps the test per SKU, on its two days:
  -- pulled up into a join, it would pair every store's days.)
  WHERE EXISTS (SELECT 1 FROM storeprice x JOIN storeprice y USING (province, banner, sku, store_id)
                WHERE x.province = c.province AND x.banner = c.banner AND x.sku = c.sku AND x.d = b.d AND y.d = c.d
                  AND (c.r < b.r AND y.r < x.r OR c.r > b.r AND y.r > x.r) OFFSET 0)
),
-- Each day since since of a current SKU, with the SKU's previous day with
-- a daily price (pd) and its lowest daily price of the 30 days before (m).
lowdays AS (
  SELECT d.banner, d.sku, d.upc, d.d, d.p, lm.m
  FROM cur_p c JOIN dayprice d USING (province, banner, sku)
  JOIN LATERAL (SELECT max(e.d) AS pd FROM dayprice e
                WHERE e.province = d.province AND e.banner = d.banner AND e.sku = d.sku AND e.d < d.d) pv ON true
  JOIN LATERAL (SELECT min(e.p) AS m FROM dayprice e
                WHERE e.province = d.province AND e.banner = d.banner AND e.sku = d.sku
                  AND e.d BETWEEN d.d - 30 AND d.d - 1) lm ON true
  WHERE d.d >= c.since
    -- A store's low: one in force on d and on the SKU's previous day has a
    -- lower price in force on d.
    AND EXISTS (SELECT 1 FROM storeprice x JOIN storeprice y USING (province, banner, sku, store_id)
                WHERE x.province = d.province AND x.banner = d.banner AND x.sku = d.sku AND x.d = pv.pd
                  AND y.d = d.d AND y.fc < x.fc OFFSET 0)
),
lows AS (
  SELECT DISTINCT ON (banner, sku) * FROM lowdays WHERE m IS NOT NULL AND p < m ORDER BY banner, sku, p, d DESC
),
-- The lowest-priced current SKU of each banner's barcode.
csku AS (
  SELECT DISTINCT ON (banner, upc) banner, upc, sku, d AS observed FROM cur
  WHERE province = :'province' AND upc <> '' AND NOT restricted(upc)
  ORDER BY banner, upc, p, sku
),
tmoves AS (
  SELECT o.upc, x.banner, true AS promo, x.r AS before, x.p AS now, o.p AS y
  FROM own o JOIN other x USING (upc)
  WHERE x.p < x.r AND x.p < o.p
  UNION ALL
  SELECT o.upc, x.banner, false, m.before_r, m.now_r, o.r
  FROM own o JOIN other x USING (upc) JOIN csku s ON s.banner = x.banner AND s.upc = x.upc
  JOIN moves m ON m.banner = s.banner AND m.sku = s.sku
  WHERE m.now_r < m.before_r AND m.now_r < o.r
    AND NOT (x.p < x.r AND x.p < o.p)
),
tsev AS (
  SELECT *, CASE WHEN now <= 0.90 * before AND before >= y AND now <= 0.95 * y THEN 'high'
                 WHEN now <= 0.95 * before THEN 'medium' ELSE 'low' END AS severity
  FROM tmoves
),
threats AS (
  SELECT DISTINCT ON (upc) upc, banner AS leader, promo, severity,
         (SELECT jsonb_agg(t2.banner || ' ' || t2.severity ORDER BY t2.banner) FROM tsev t2 WHERE t2.upc = t.upc) AS behind
  FROM tsev t
  ORDER BY upc, CASE severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, now / y, banner
)
SELECT coalesce(jsonb_agg(x ORDER BY type, upc, competitor), '[]') FROM (
  SELECT 'priced_above_market' AS type, upc, NULL AS competitor, own_r AS own_price, m AS market_median,
         NULL::numeric AS regular, NULL::numeric AS price, NULL::numeric AS previous, NULL::date AS date,
         NULL::jsonb AS behind
  FROM market WHERE others >= 2 AND own_r / m >= 1.15
  UNION ALL
  SELECT 'priced_below_market', upc, NULL, own_r, m, NULL, NULL, NULL, NULL, NULL FROM market WHERE others >= 2 AND own_r / m <= 0.85
  UNION ALL
  SELECT CASE WHEN promo THEN 'competitor_promotion' ELSE 'competitor_price_cut' END, upc, leader || ' ' || severity,
         NULL, NULL, NULL, NULL, NULL, NULL, behind
  FROM threats
  UNION ALL
  SELECT 'assortment_gap', upc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM gaps
  UNION ALL
  SELECT 'delisted', upc, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM delisted
  UNION ALL
  SELECT CASE WHEN now_r > before_r THEN 'price_increase' ELSE 'price_decrease' END, upc, banner || ' ' || sku,
         now_r, NULL, NULL, p, before_r, from_d, NULL
  FROM moves WHERE now_r / before_r >= 1.10 OR now_r / before_r <= 0.90
  UNION ALL
  SELECT 'lowest_in_30_days', upc, banner || ' ' || sku, NULL, NULL, NULL, p, m, d, NULL FROM lows
) x;
