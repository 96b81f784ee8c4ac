-- Offers (lookup_product, the offers export, the basket's prices).
--
-- README, "What the data means": "An offer is the current price of a product
-- under one banner in one province: the summary of the latest observation of
-- each of that banner's reference stores in the province within 14 days
-- (most common price, minimum, maximum, store count, promotion and its end
-- date, unit price). An offer is current while its newest observation is
-- less than 14 days older than the data set's latest observation."
-- OpenAPI: price "The typical shelf price in dollars across the province's
-- reference stores"; Offer.RegularPrice "most common regular (non-promotional)
-- price"; OnPromo "Price is a promotional price".
--
-- The tie-break of "most common" is not documented: every tied price is
-- returned (price_modes, regular_modes) and any of them is accepted.
-- Variables: none. One row per current offer.
WITH latest AS (
  SELECT DISTINCT ON (o.province, o.banner, o.sku, o.store_id) o.*
  FROM obs o, meta
  WHERE o.d > meta.asof - 14
  ORDER BY o.province, o.banner, o.sku, o.store_id, o.d DESC
),
pc_counts AS (
  SELECT province, banner, sku, pc, count(*) AS n,
         rank() OVER (PARTITION BY province, banner, sku ORDER BY count(*) DESC) AS rk
  FROM latest GROUP BY province, banner, sku, pc
),
rc_counts AS (
  SELECT province, banner, sku, rc, count(*) AS n,
         rank() OVER (PARTITION BY province, banner, sku ORDER BY count(*) DESC) AS rk
  FROM latest GROUP BY province, banner, sku, rc
),
pm AS (SELECT province, banner, sku, json_agg(pc ORDER BY pc) AS modes FROM pc_counts WHERE rk = 1 GROUP BY 1, 2, 3),
rm AS (SELECT province, banner, sku, json_agg(rc ORDER BY rc) AS modes FROM rc_counts WHERE rk = 1 GROUP BY 1, 2, 3),
agg AS (
  SELECT l.province, l.banner, l.sku, min(l.upc) AS upc,
         min(l.pc) AS min_price, max(l.pc) AS max_price,
         count(DISTINCT l.store_id) AS store_count, max(l.d) AS observed_at,
         -- the promotion end dates seen at each price on promotion
         json_agg(DISTINCT jsonb_build_object('pc', l.pc, 'ends', l.promo_ends)) FILTER (WHERE l.pc < l.rc) AS promos,
         min(l.size) AS size
  FROM latest l
  GROUP BY l.province, l.banner, l.sku
)
SELECT coalesce(jsonb_agg(x ORDER BY province, banner, external_sku), '[]')
FROM (
  SELECT a.province, a.banner, a.sku AS external_sku, a.upc, pm.modes AS price_modes, rm.modes AS regular_modes,
         a.min_price, a.max_price, a.store_count, a.observed_at, a.promos,
         unit_basis(a.size) AS unit_price_basis,
         CASE unit_basis(a.size) WHEN '' THEN NULL WHEN 'per unit' THEN 1 / unit_qty(a.size)
           ELSE 100 / unit_qty(a.size) END AS unit_factor
  FROM agg a JOIN pm USING (province, banner, sku) JOIN rm USING (province, banner, sku)
) x;
