-- Offers (lookup_product, the offers export, the basket's prices).
--
-- README, "What the data means": an offer is a banner SKU's price in force
-- on the data set's latest day (asOf): over the banner's reference stores
-- in the province, each store's latest observation of the last 14 days
-- (d > asOf - 14), a promotion whose promo_ends is before asOf counting at
-- its regular price; the most common such price (the lowest on a tie),
-- minimum, maximum, store count, promotion and its end date, the end of a
-- promotion that ended (promo_ended), unit price. (derive.sql, offer.)
-- OpenAPI: price "The typical shelf price in dollars across the province's
-- reference stores"; Offer.RegularPrice "most common regular (non-promotional)
-- price"; OnPromo "Price is a promotional price".
--
-- The tie-break of "most common" is not documented: every tied price is
-- returned (price_modes, regular_modes) and any of them is accepted.
-- Variables: none. One row per current offer.
SELECT coalesce(jsonb_agg(x ORDER BY province, banner, external_sku), '[]')
FROM (
  SELECT province, banner, sku AS external_sku, upc, price_modes, regular_modes,
         min_price, max_price, store_count, observed_at, promos, promo_ended,
         unit_basis(size) AS unit_price_basis,
         CASE unit_basis(size) WHEN '' THEN NULL WHEN 'per unit' THEN 1 / unit_qty(size)
           ELSE 100 / unit_qty(size) END AS unit_factor
  FROM offer
) x;
