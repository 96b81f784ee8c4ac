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
SELECT coalesce(jsonb_agg(x ORDER BY province, banner, external_sku), '[]')
FROM (
  SELECT province, banner, sku AS external_sku, upc, price_modes, regular_modes,
         min_price, max_price, store_count, observed_at, promos,
         unit_basis(size) AS unit_price_basis,
         CASE unit_basis(size) WHEN '' THEN NULL WHEN 'per unit' THEN 1 / unit_qty(size)
           ELSE 100 / unit_qty(size) END AS unit_factor
  FROM offer
) x;
