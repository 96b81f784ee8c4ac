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
)
SELECT coalesce(jsonb_agg(x ORDER BY type, upc, competitor), '[]') FROM (
  SELECT 'priced_above_market' AS type, upc, NULL AS competitor, own_r AS own_price, m AS market_median
  FROM market WHERE others >= 2 AND own_r / m >= 1.15
  UNION ALL
  SELECT 'priced_below_market', upc, NULL, own_r, m FROM market WHERE others >= 2 AND own_r / m <= 0.85
  UNION ALL
  SELECT 'competitor_promotion', o.upc, x.banner, o.p, NULL
  FROM own o JOIN other x USING (upc) WHERE x.p < x.r AND x.p < o.p
  UNION ALL
  SELECT 'assortment_gap', upc, NULL, NULL, NULL FROM gaps
  UNION ALL
  SELECT 'delisted', upc, NULL, NULL, NULL FROM delisted
) x;
