-- The price verdict of current offers (lookup_product's offers, and
-- price_history's verdict of its last day).
--
-- OpenAPI, "Price verdict": for a banner SKU in a province on day D (the
-- data set's latest day), with p(d) and r(d) its price and regular price
-- in force on day d (the offers' rule: over the stores whose latest
-- observation on or before d is less than 14 days old, a promotion past its
-- promo_ends at its regular price, the most common price, the lower on a
-- tie):
--   low_30d = min{ p(d) : D - 30 <= d <= D - 1, a price in force on d }
--             (null when there is none);
--   typical_price = the most common of r(d) over D - 59 <= d <= D, each day
--             with a price in force counted once, the lower on a tie;
--   verdict = the first that holds: lowest_in_30_days when low_30d is not
--             null and p(D) <= low_30d and p(D) < typical_price;
--             on_promotion when p(D) < r(D); above_usual when
--             p(D) > typical_price; else usual_price.
-- Variables: province, upc, banner, sku ('' for any). One row per current
-- offer that matches.
WITH skus AS (
  SELECT province, banner, sku FROM offer
  WHERE province = :'province' AND (:'upc' = '' OR upc = :'upc')
    AND (:'banner' = '' OR banner = :'banner') AND (:'sku' = '' OR sku = :'sku')
),
days AS (
  SELECT (asof - 60 + k)::date AS day FROM meta, generate_series(1, 60) AS k
),
latest AS (
  SELECT DISTINCT ON (s.banner, s.sku, x.day, o.store_id) s.banner, s.sku, x.day,
         CASE WHEN o.pc < o.rc AND o.promo_ends IS NOT NULL AND o.promo_ends < x.day THEN o.rc ELSE o.pc END AS fc, o.rc
  FROM skus s CROSS JOIN days x
  JOIN obs o ON o.province = s.province AND o.banner = s.banner AND o.sku = s.sku
    AND o.d <= x.day AND o.d > x.day - 14
  ORDER BY s.banner, s.sku, x.day, o.store_id, o.d DESC
),
pmode AS (
  SELECT DISTINCT ON (banner, sku, day) banner, sku, day, fc
  FROM (SELECT banner, sku, day, fc, count(*) AS n FROM latest GROUP BY 1, 2, 3, 4) c
  ORDER BY banner, sku, day, n DESC, fc
),
rmode AS (
  SELECT DISTINCT ON (banner, sku, day) banner, sku, day, rc
  FROM (SELECT banner, sku, day, rc, count(*) AS n FROM latest GROUP BY 1, 2, 3, 4) c
  ORDER BY banner, sku, day, n DESC, rc
),
inforce AS (
  SELECT banner, sku, day, p.fc AS p, greatest(r.rc, p.fc) AS r
  FROM pmode p JOIN rmode r USING (banner, sku, day)
),
typical AS (
  SELECT DISTINCT ON (banner, sku) banner, sku, r AS typical_price
  FROM (SELECT banner, sku, r, count(*) AS n FROM inforce GROUP BY 1, 2, 3) c
  ORDER BY banner, sku, n DESC, r
),
figures AS (
  SELECT i.banner, i.sku, i.p, i.r, t.typical_price,
         (SELECT min(b.p) FROM inforce b, meta
          WHERE b.banner = i.banner AND b.sku = i.sku AND b.day BETWEEN meta.asof - 30 AND meta.asof - 1) AS low_30d
  FROM inforce i JOIN typical t USING (banner, sku), meta
  WHERE i.day = meta.asof
)
SELECT coalesce(jsonb_agg(jsonb_build_object(
  'banner', banner, 'external_sku', sku, 'price', p, 'low_30d', low_30d, 'typical_price', typical_price,
  'verdict', CASE
    WHEN low_30d IS NOT NULL AND p <= low_30d AND p < typical_price THEN 'lowest_in_30_days'
    WHEN p < r THEN 'on_promotion'
    WHEN p > typical_price THEN 'above_usual'
    ELSE 'usual_price' END) ORDER BY banner, sku), '[]')
FROM figures;
