-- price_history: points and stats.
--
-- README: "daily min/median/max across the province's reference stores,
-- and stats". PricePoint: "one day of a price series: the spread of observed
-- shelf prices across the reference stores that were observed that day".
-- M1. "p(B,s,P,d) = median of their prices" (the points' median).
-- M11. price_history stats: "min, max, latest, change_pct from the daily
-- medians (points' median); store_min / store_max the store-level extremes."
-- in_force (README, "A price in force"): for every day D of the window,
-- each store's latest observation with d <= D and d > D - 14, at its
-- regular price when it is a promotion whose promo_ends is before D; the
-- most common such price (the lowest on a tie), the regular price likewise
-- (never below the price), on_promo when the price is under it, and the
-- stores counted; days with no store in force are left out.
-- Window: the period's days up to the data set's latest day.
-- Variables: province, banner, sku, days.
WITH pts AS (
  SELECT daily.* FROM daily, meta
  WHERE province = :'province' AND banner = :'banner' AND sku = :'sku'
    AND d > meta.asof - :'days'::int
),
days AS (
  SELECT (asof - :'days'::int + k)::date AS day FROM meta, generate_series(1, :'days'::int) AS k
),
latest AS (
  SELECT DISTINCT ON (x.day, o.store_id) x.day, o.store_id,
         CASE WHEN o.pc < o.rc AND o.promo_ends IS NOT NULL AND o.promo_ends < x.day THEN o.rc ELSE o.pc END AS fc, o.rc
  FROM days x JOIN obs o ON o.province = :'province' AND o.banner = :'banner' AND o.sku = :'sku'
    AND o.d <= x.day AND o.d > x.day - 14
  ORDER BY x.day, o.store_id, o.d DESC
),
pmode AS (
  SELECT DISTINCT ON (day) day, fc FROM (SELECT day, fc, count(*) AS n FROM latest GROUP BY day, fc) c ORDER BY day, n DESC, fc
),
rmode AS (
  SELECT DISTINCT ON (day) day, rc FROM (SELECT day, rc, count(*) AS n FROM latest GROUP BY day, rc) c ORDER BY day, n DESC, rc
),
inforce AS (
  SELECT p.day, p.fc AS price, greatest(r.rc, p.fc) AS regular, (SELECT count(*) FROM latest l WHERE l.day = p.day) AS stores
  FROM pmode p JOIN rmode r USING (day)
)
SELECT jsonb_build_object(
  'from', (SELECT asof - :'days'::int + 1 FROM meta),
  'to', (SELECT asof FROM meta),
  'points', (SELECT coalesce(jsonb_agg(jsonb_build_object('date', d, 'min', store_min, 'median', p,
               'max', store_max, 'store_count', stores) ORDER BY d), '[]') FROM pts),
  'stats', (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE jsonb_build_object(
               'min', min(p), 'max', max(p),
               'latest', (SELECT p FROM pts ORDER BY d DESC LIMIT 1),
               'change_pct', ((SELECT p FROM pts ORDER BY d DESC LIMIT 1)::float8
                              / (SELECT p FROM pts ORDER BY d LIMIT 1)::float8 - 1) * 100,
               'store_min', min(store_min), 'store_max', max(store_max)) END FROM pts),
  'in_force', (SELECT coalesce(jsonb_agg(jsonb_build_object('date', day, 'price', price, 'regular_price', regular,
               'on_promo', price < regular, 'store_count', stores) ORDER BY day), '[]') FROM inforce));
