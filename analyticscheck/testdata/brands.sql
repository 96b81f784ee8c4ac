-- brand_insights (M5. Brands against like products).
--
-- "A brand product g priced by banner B in P (current): its unit price
-- u_B(g) = p_B(g) per its basis (per 100 g, per 100 mL, per unit). Its
-- peers: products h of the same category, the same product type (issue 28:
-- none for a product without one; types compare in any case), another
-- brand, the same unit
-- basis, pack quantity q_h with 1/1.5 <= q_h/q_g <= 1.5, priced currently in
-- P by any banner. Peer median = median of u_X(h) over every (banner X, peer
-- h) current price in P. A product with at least 3 peer barcodes has
-- relative = u_B(g) / peer median; index(row) = 100 * geomean of relatives
-- over the row's products with peers; products_without_peers counted and
-- left out.
-- Promotion over the period (default 30d, up to asOf): promo_share = share
-- of the row's SKU-days (daily prices in the period) on promotion (p < r),
-- percent; promo_depth = mean over those SKU-days of (1 - p/r) * 100; null
-- when none."
-- p_B(g) is M1's current banner price (bcur); sizes per M9 (unit_qty).
--
-- Read here: a row is (province, banner) where the brand has a current
-- price; products = the brand's barcodes priced there; the row's SKU-days
-- are the daily prices of the brand's SKUs at that banner in the last 30
-- days, asOf included; "another brand" compares brands case-insensitively.
-- Variables: brand, province ('' for every province).
WITH types AS (
  SELECT DISTINCT ON (upc) upc, lower(product_type) AS t FROM obs ORDER BY upc, d DESC
),
mine AS (
  SELECT province, banner, upc, category, size, p, unit_price(p, size) AS u
  FROM bcur WHERE lower(brand) = lower(:'brand') AND (:'province' = '' OR province = :'province')
),
peers AS (
  SELECT m.province, m.banner, m.upc,
         count(DISTINCT o.upc) AS peer_barcodes,
         median_exact(array_agg(unit_price(o.p, o.size))) AS peer_median
  FROM mine m
  JOIN types tm ON tm.upc = m.upc AND tm.t <> ''
  JOIN bcur o ON o.province = m.province AND o.category = m.category AND lower(o.brand) <> lower(:'brand')
  JOIN types tp ON tp.upc = o.upc AND tp.t = tm.t
   AND unit_basis(o.size) = unit_basis(m.size) AND unit_basis(m.size) <> ''
   AND unit_qty(o.size) * 1.5 >= unit_qty(m.size) AND unit_qty(o.size) <= unit_qty(m.size) * 1.5
  GROUP BY m.province, m.banner, m.upc
),
rel AS (
  SELECT m.*, p.peer_barcodes, CASE WHEN p.peer_barcodes >= 3 THEN m.u / p.peer_median END AS relative
  FROM mine m LEFT JOIN peers p USING (province, banner, upc)
),
rows AS (
  SELECT province, banner, count(*) AS products,
         100 * exp(avg(ln(relative::float8)) FILTER (WHERE relative IS NOT NULL)) AS index,
         count(*) FILTER (WHERE relative IS NULL) AS products_without_peers
  FROM rel GROUP BY province, banner
),
promo AS (
  SELECT dl.province, dl.banner,
         100.0 * count(*) FILTER (WHERE dl.p < dl.r) / count(*) AS promo_share,
         avg((1 - dl.p / dl.r) * 100) FILTER (WHERE dl.p < dl.r) AS promo_depth
  FROM dayprice dl, meta
  WHERE lower(dl.brand) = lower(:'brand') AND (:'province' = '' OR dl.province = :'province')
    AND dl.d > meta.asof - 30
  GROUP BY dl.province, dl.banner
)
SELECT coalesce(jsonb_agg(x ORDER BY province, banner), '[]')
FROM (SELECT r.*, p.promo_share, p.promo_depth FROM rows r LEFT JOIN promo p USING (province, banner)) x;
