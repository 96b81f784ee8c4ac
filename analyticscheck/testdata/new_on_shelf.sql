-- new_on_shelf (unchanged by the definitions; README "Market analytics"):
-- "a banner SKU whose first observation in the province's panel falls in the
-- window, with the median price of its first and latest day; the panel's own
-- start is said in the basis note". OpenAPI: "Banner SKUs first observed in
-- the province's panel within the last days days up to the data set's latest
-- day, newest first, with their first price." NewProduct: first_stores
-- "stores that observed it on its first day"; results "newest first, then
-- banner, SKU".
--
-- Medians are the M1 daily prices (exact; written half away from zero).
-- Variables: province, banner ('' for all), category ('' for all), days.
WITH firsts AS (
  SELECT province, banner, sku, min(d) AS first_seen, max(d) AS last_seen
  FROM daily WHERE province = :'province'
    AND (:'banner' = '' OR banner = :'banner')
    AND (:'category' = '' OR lower(category) = lower(:'category'))
  GROUP BY province, banner, sku
)
SELECT coalesce(jsonb_agg(x ORDER BY first_seen DESC, banner, external_sku), '[]')
FROM (
  SELECT f.banner, f.sku AS external_sku, a.upc, a.name, a.brand, a.size, a.category, f.province,
         f.first_seen, a.p AS first_price, a.stores AS first_stores, b.p AS latest_price, f.last_seen
  FROM firsts f, meta,
       daily a, daily b
  WHERE f.first_seen > meta.asof - :'days'::int
    AND a.province = f.province AND a.banner = f.banner AND a.sku = f.sku AND a.d = f.first_seen
    AND b.province = f.province AND b.banner = f.banner AND b.sku = f.sku AND b.d = f.last_seen
) x;
