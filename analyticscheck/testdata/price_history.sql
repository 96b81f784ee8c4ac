-- price_history: points and stats.
--
-- README: "daily min/median/max across the province's reference stores,
-- and stats". PricePoint: "one day of a price series: the spread of observed
-- shelf prices across the reference stores that were observed that day".
-- M1. "p(B,s,P,d) = median of their prices" (the points' median).
-- M11. price_history stats: "min, max, latest, change_pct from the daily
-- medians (points' median); store_min / store_max the store-level extremes."
-- Window: the period's days up to the data set's latest day.
-- Variables: province, banner, sku, days.
WITH pts AS (
  SELECT daily.* FROM daily, meta
  WHERE province = :'province' AND banner = :'banner' AND sku = :'sku'
    AND d > meta.asof - :'days'::int
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
               'store_min', min(store_min), 'store_max', max(store_max)) END FROM pts));
