SET client_min_messages = warning;
-- What every analytic shares, from the definitions (analytics-defs.md,
-- README "Market analytics"):
--
-- Notation. An observation is (date d, store t, banner B, province P,
-- external_sku s, price, regular_price, promo_ends). On promotion:
-- price < regular_price. asOf = the data set's latest observation date.
-- All money is integer cents internally; a median of an even count may be a
-- half cent and is kept exact (half-cents). Ratios and logs are float64.
--
-- M1. For banner SKU (B, s) in province P on day d, over the stores of B in
-- P that observed s on d (price_history's points, the promotion events and
-- the shelf records; table daily):
--   median of their prices;   median of their regular prices.
-- M1'. The daily price of banner SKU (B, s) in P on a day d on which one of
-- B's stores observed s (the category report, the brief, the signals and
-- the brands read it; table dayprice): its price in force on d, over every
-- store of B in P whose latest observation of s with d' <= d has
-- d' > d - 14, that observation at its regular price when it is a
-- promotion whose promo_ends is before d:
--   p(B,s,P,d) = the most common of those prices, the lowest on a tie;
--   r(B,s,P,d) = the most common of their regular prices, the lowest on a
--   tie, never below p.
-- Price in force (README, "What the data means"): a store's price in
-- force on asOf is its latest observation of the SKU with d > asOf - 14;
-- when that observation is a promotion whose promo_ends is before asOf,
-- its price in force is its regular price. A banner SKU's current price
-- (its offer) is the most common of its stores' prices in force, the
-- lowest on a tie; its regular price likewise from their regular prices,
-- never below the price. The SKU is current when one of its stores has a
-- price in force.
-- A banner's current price of a barcode g in P: p_B(g) = the lowest current
-- price over B's current SKUs of g; r_B(g) = the lowest current regular
-- price over the same SKUs. Restricted-circulation barcodes (GTIN prefixes 02, 04, 20-29 as
-- 12/13-digit codes) are never compared across banners.
--
-- M9. Any size "N <count noun>" has a per-unit basis.
--
-- Money here is numeric cents: exact, half-cents included. The Go side
-- rounds when it compares, as a figure is rounded when written.

DROP TABLE IF EXISTS obs, meta, daily, storeprice, dayprice, links, flyerweek, weekprice, cur, bcur, populations CASCADE;

CREATE TABLE obs AS
-- A SKU not linked to a barcode (e.g. a restricted-circulation code, which
-- import keeps unlinked) has an empty upc, as the export writes it.
SELECT date AS d, store_id, banner, province, external_sku AS sku, coalesce(upc, '') AS upc, name, brand, size, category,
       coalesce(product_type, '') AS product_type,
       (price * 100)::numeric AS pc,
       -- "RegularPrice: equal to Price (or 0) when not on promotion".
       (CASE WHEN coalesce(regular_price, 0) = 0 THEN price ELSE regular_price END * 100)::numeric AS rc,
       promo_ends
FROM obs_csv;
CREATE INDEX ON obs (province, banner, sku, d);

CREATE TABLE meta AS SELECT max(d) AS asof FROM obs;

-- GTIN prefixes 02, 04, 20-29 of a 12- or 13-digit code (the 12-digit
-- UPC-A is the GTIN-13 with a leading 0: 02, 04 as UPC-A, 2x as EAN-13).
CREATE OR REPLACE FUNCTION restricted(upc text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE length(upc)
    WHEN 12 THEN substr(upc, 1, 1) = '2' OR substr(upc, 1, 1) = '4' -- 02x, 04x as GTIN-13
    WHEN 13 THEN substr(upc, 1, 2) IN ('02', '04') OR substr(upc, 1, 1) = '2'
    ELSE false END
$$;

-- M9: the unit basis and the quantity in it of a size: "12 x 355 mL" is
-- 4260 mL, "1.42 kg" 1420 g, "30 bags" 30 units.
CREATE OR REPLACE FUNCTION unit_basis(size text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN size ~ '^([0-9]+ x )?[0-9.]+ (g|kg)$' THEN 'per 100 g'
    WHEN size ~ '^([0-9]+ x )?[0-9.]+ (mL|L)$' THEN 'per 100 mL'
    WHEN size ~ '^[0-9]+ [[:alpha:]][[:alpha:] ]*$' THEN 'per unit'
    ELSE '' END
$$;
CREATE OR REPLACE FUNCTION unit_qty(size text) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN size ~ '^[0-9]+ x [0-9.]+ [[:alpha:]]+$' THEN
      split_part(size, ' ', 1)::numeric * split_part(size, ' ', 3)::numeric
        * CASE WHEN split_part(size, ' ', 4) IN ('kg', 'L') THEN 1000 ELSE 1 END
    WHEN size ~ '^[0-9.]+ (g|kg|mL|L)$' THEN
      split_part(size, ' ', 1)::numeric
        * CASE WHEN split_part(size, ' ', 2) IN ('kg', 'L') THEN 1000 ELSE 1 END
    WHEN size ~ '^[0-9]+ [[:alpha:]][[:alpha:] ]*$' THEN split_part(size, ' ', 1)::numeric
    END
$$;
-- Cents per basis of a price in cents: per 100 g and per 100 mL, or per unit.
CREATE OR REPLACE FUNCTION unit_price(cents numeric, size text) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE unit_basis(size)
    WHEN 'per unit' THEN cents / unit_qty(size)
    WHEN '' THEN NULL
    ELSE cents * 100 / unit_qty(size) END
$$;

-- The basis and quantity of every size of the export, computed once.
DROP TABLE IF EXISTS sizes;
CREATE TABLE sizes AS
SELECT size, unit_basis(size) AS ub, unit_qty(size) AS uq FROM (SELECT DISTINCT size FROM obs) x;
CREATE UNIQUE INDEX ON sizes (size);

-- M1: one daily price per banner SKU, province and day.
CREATE TABLE daily AS
SELECT province, banner, sku, d,
       min(upc) AS upc, min(category) AS category, min(brand) AS brand, min(size) AS size, min(name) AS name,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY pc)::numeric AS p,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY rc)::numeric AS r,
       min(pc) AS store_min, max(pc) AS store_max,
       count(DISTINCT store_id) AS stores,
       bool_or(pc < rc) AS any_promo
FROM obs GROUP BY province, banner, sku, d;
CREATE INDEX ON daily (province, banner, sku, d);
CREATE INDEX ON daily (province, d);

-- A store's price in force on each day of daily (the day of one of its
-- banner's stores' observations of the SKU): its latest observation with
-- d' <= d and d' > d - 14, a promotion past its promo_ends at its regular
-- price; fc the price, r the regular price, never below fc (rc as
-- observed).
CREATE TABLE storeprice AS
SELECT dl.province, dl.banner, dl.sku, dl.d, o.store_id,
       CASE WHEN o.pc < o.rc AND o.promo_ends IS NOT NULL AND o.promo_ends < dl.d THEN o.rc ELSE o.pc END AS fc, o.rc,
       greatest(o.rc, o.pc) AS r
FROM daily dl CROSS JOIN LATERAL (
  SELECT DISTINCT ON (store_id) * FROM obs o
  WHERE o.province = dl.province AND o.banner = dl.banner AND o.sku = dl.sku AND o.d <= dl.d AND o.d > dl.d - 14
  ORDER BY store_id, d DESC) o;
CREATE INDEX ON storeprice (province, banner, sku, d);

-- M1': the daily price in force on each day of daily.
CREATE TABLE dayprice AS
WITH pmode AS (
  SELECT DISTINCT ON (province, banner, sku, d) province, banner, sku, d, fc
  FROM (SELECT province, banner, sku, d, fc, count(*) AS n FROM storeprice GROUP BY 1, 2, 3, 4, 5) c
  ORDER BY province, banner, sku, d, n DESC, fc
),
rmode AS (
  SELECT DISTINCT ON (province, banner, sku, d) province, banner, sku, d, rc
  FROM (SELECT province, banner, sku, d, rc, count(*) AS n FROM storeprice GROUP BY 1, 2, 3, 4, 5) c
  ORDER BY province, banner, sku, d, n DESC, rc
)
SELECT dl.province, dl.banner, dl.sku, dl.d, dl.upc, dl.category, dl.brand, dl.size, dl.name,
       pm.fc AS p, greatest(rm.rc, pm.fc) AS r, dl.store_min, dl.store_max, dl.stores, dl.any_promo
FROM daily dl JOIN pmode pm USING (province, banner, sku, d) JOIN rmode rm USING (province, banner, sku, d);
CREATE INDEX ON dayprice (province, banner, sku, d);
CREATE INDEX ON dayprice (province, d);

-- M2'. The link of banner SKU (B, s) in P on a day d of dayprice: the
-- move of its matched stores since d', its previous day in dayprice: over
-- the stores t whose price is in force on both d' and d (storeprice),
--   lp = mean of ln(fc(t, d) / fc(t, d')),  lr = mean of ln(r(t, d) / r(t, d'))
-- (the log of the geometric mean of their price relatives); 0 when no
-- store is in force on both, or on the SKU's first day. (storeprice has
-- rows on dayprice's days only: a store is in force on d' and d when its
-- own previous row before d is d'.)
CREATE TABLE links AS
WITH seq AS (
  SELECT province, banner, sku, d, lag(d) OVER (PARTITION BY province, banner, sku ORDER BY d) AS dprev FROM dayprice
),
matched AS (
  SELECT y.province, y.banner, y.sku, y.d,
         avg(ln(y.fc::float8 / y.prev_fc::float8)) AS lp, avg(ln(y.r::float8 / y.prev_r::float8)) AS lr
  FROM (SELECT *, lag(d) OVER w AS prev_d, lag(fc) OVER w AS prev_fc, lag(r) OVER w AS prev_r FROM storeprice
        WINDOW w AS (PARTITION BY province, banner, sku, store_id ORDER BY d)) y
  JOIN seq s USING (province, banner, sku, d)
  WHERE y.prev_d = s.dprev
  GROUP BY 1, 2, 3, 4
)
SELECT s.province, s.banner, s.sku, s.d, coalesce(m.lp, 0) AS lp, coalesce(m.lr, 0) AS lr
FROM seq s LEFT JOIN matched m USING (province, banner, sku, d);
CREATE INDEX ON links (province, banner, sku, d);

-- The flyer week (Thursday to Wednesday) competitive_benchmark and the
-- brief's basket compare every banner of a province on: the week of asOf
-- when every banner with a daily price (M1') in the week before has one
-- in it too, otherwise the week before (isodow: Monday 1 .. Sunday 7, so
-- asOf's Thursday is asOf - (isodow + 3) % 7). weekprice: a banner SKU's
-- weekly price, its daily price on its last day in that week.
CREATE TABLE flyerweek AS
WITH fw0 AS (SELECT asof - ((extract(isodow FROM asof)::int + 3) % 7) AS cur FROM meta),
fwd AS (SELECT DISTINCT dp.province, dp.banner, dp.d >= fw0.cur AS in_cur FROM dayprice dp, fw0 WHERE dp.d >= fw0.cur - 7)
SELECT p.province,
       CASE WHEN EXISTS (SELECT banner FROM fwd WHERE fwd.province = p.province AND NOT in_cur
                         EXCEPT SELECT banner FROM fwd WHERE fwd.province = p.province AND in_cur)
            THEN fw0.cur - 7 ELSE fw0.cur END AS wfrom
FROM (SELECT DISTINCT province FROM dayprice) p, fw0;
CREATE TABLE weekprice AS
SELECT DISTINCT ON (dp.province, dp.banner, dp.sku) dp.province, dp.banner, dp.sku, dp.upc, dp.category, dp.d, dp.p, dp.r
FROM dayprice dp JOIN flyerweek fw ON fw.province = dp.province AND dp.d BETWEEN fw.wfrom AND fw.wfrom + 6
ORDER BY dp.province, dp.banner, dp.sku, dp.d DESC;
CREATE INDEX ON weekprice (province, upc);

-- Offers: each store's latest observation with d > asOf - 14, at its
-- price in force (a promotion past its promo_ends at the regular price);
-- price_modes and regular_modes hold every tied most common price, and
-- price is the lowest of them, regular the lowest regular mode but never
-- below price. promo_ended: when the offer is not on promotion, the
-- latest promo_ends of the stores' promotions that ended.
DROP TABLE IF EXISTS offer;
CREATE TABLE offer AS
WITH latest AS (
  SELECT DISTINCT ON (o.province, o.banner, o.sku, o.store_id) o.*
  FROM obs o, meta
  WHERE o.d > meta.asof - 14
  ORDER BY o.province, o.banner, o.sku, o.store_id, o.d DESC
),
inforce AS (
  SELECT l.*, l.pc < l.rc AND l.promo_ends IS NOT NULL AND l.promo_ends < m.asof AS ended,
         CASE WHEN l.pc < l.rc AND l.promo_ends IS NOT NULL AND l.promo_ends < m.asof THEN l.rc ELSE l.pc END AS fc
  FROM latest l, meta m
),
pc_counts AS (
  SELECT province, banner, sku, fc, count(*) AS n,
         rank() OVER (PARTITION BY province, banner, sku ORDER BY count(*) DESC) AS rk
  FROM inforce GROUP BY province, banner, sku, fc
),
rc_counts AS (
  SELECT province, banner, sku, rc, count(*) AS n,
         rank() OVER (PARTITION BY province, banner, sku ORDER BY count(*) DESC) AS rk
  FROM inforce GROUP BY province, banner, sku, rc
),
pm AS (SELECT province, banner, sku, json_agg(fc ORDER BY fc) AS modes FROM pc_counts WHERE rk = 1 GROUP BY 1, 2, 3),
rm AS (SELECT province, banner, sku, json_agg(rc ORDER BY rc) AS modes FROM rc_counts WHERE rk = 1 GROUP BY 1, 2, 3),
agg AS (
  SELECT l.province, l.banner, l.sku, min(l.upc) AS upc,
         min(l.fc) AS min_price, max(l.fc) AS max_price,
         count(DISTINCT l.store_id) AS store_count, max(l.d) AS observed_at,
         -- the promotion end dates seen at each price on promotion, in force
         json_agg(DISTINCT jsonb_build_object('pc', l.fc, 'ends', l.promo_ends)) FILTER (WHERE l.fc < l.rc) AS promos,
         max(l.promo_ends) FILTER (WHERE l.ended) AS ended,
         min(l.size) AS size, min(l.category) AS category, min(l.brand) AS brand
  FROM inforce l
  GROUP BY l.province, l.banner, l.sku
)
SELECT a.province, a.banner, a.sku, a.upc, a.size, a.category, a.brand, pm.modes AS price_modes, rm.modes AS regular_modes,
       (pm.modes->>0)::numeric AS price, greatest((rm.modes->>0)::numeric, (pm.modes->>0)::numeric) AS regular,
       json_array_length(pm.modes) > 1 AS price_tied,
       a.min_price, a.max_price, a.store_count, a.observed_at, a.promos,
       CASE WHEN (pm.modes->>0)::numeric >= greatest((rm.modes->>0)::numeric, (pm.modes->>0)::numeric) THEN a.ended END AS promo_ended
FROM agg a JOIN pm USING (province, banner, sku) JOIN rm USING (province, banner, sku);
CREATE INDEX ON offer (province, upc);

-- cur: each current banner SKU's price in force (the offer's), p and r,
-- and its latest observation day d.
CREATE TABLE cur AS
SELECT province, banner, sku, upc, category, brand, size, price AS p, regular AS r, observed_at AS d FROM offer;

-- p_B(g), r_B(g): a banner's current price of a barcode, restricted codes
-- left out (they are never compared across banners).
CREATE TABLE bcur AS
SELECT province, banner, upc, min(category) AS category, min(brand) AS brand, min(size) AS size,
       min(p) AS p, min(r) AS r
FROM cur WHERE upc <> '' AND NOT restricted(upc)
GROUP BY province, banner, upc;
CREATE INDEX ON bcur (province, upc);

-- M4: w_P = population (thousands, Statistics Canada July 1 2024).
CREATE TABLE populations (province text PRIMARY KEY, w numeric);
INSERT INTO populations VALUES ('ON', 16124), ('QC', 9056), ('BC', 5698), ('AB', 4889), ('MB', 1494),
  ('SK', 1240), ('NS', 1076), ('NB', 854), ('NL', 546), ('PE', 179), ('YT', 47), ('NT', 45), ('NU', 41);


ANALYZE obs; ANALYZE daily; ANALYZE dayprice; ANALYZE cur; ANALYZE bcur; ANALYZE offer;

-- median(X): the middle value of X sorted; for an even count the mean of
-- the two middle values (exact, in numeric).
CREATE OR REPLACE FUNCTION median_exact(numeric[]) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT avg(v) FROM (SELECT v, row_number() OVER (ORDER BY v) AS i, count(*) OVER () AS n FROM unnest($1) AS v) x
  WHERE i IN ((n + 1) / 2, (n + 2) / 2)
$$;
