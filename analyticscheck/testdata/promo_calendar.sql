-- promo_calendar events (README "Market analytics", unchanged but for
-- ongoing): "a day is on promotion when any reference store saw the SKU
-- under its regular price; an event ends on a day observed at the regular
-- price or after more than 7 days without an observation; its regular and
-- promotional prices are the most common among the stores; events that
-- began more than 56 days before `from` are not listed". OpenAPI: "The
-- promotion events of the province's panel that overlap from..to, by start:
-- one per banner SKU and run of observation days under the regular price";
-- from "default 29 days before to"; to "default the data set's latest day".
-- PromoEvent: start "first day observed on promotion", end "last day
-- observed on promotion", stores "reference stores that observed it on
-- promotion", observation_days "observation days within the event";
-- results "by start, banner, SKU".
--
-- M10. promo_calendar ongoing: "ongoing = the event's observed promo_ends
-- >= asOf, or (no end known) its last day observed on promotion >= asOf - 7."
--
-- Read here: "more than 7 days without an observation" is more than 7 days
-- strictly between two observation days (next - previous - 1 > 7); the
-- most common prices are over the event's store-day observations on
-- promotion (ties: every tied price is returned); the event's observed
-- promo_ends is the latest promo_ends of those observations.
-- Variables: province, banner ('' for all), category ('' for all), from,
-- to ('' for the defaults).
SET enable_nestloop = off; -- the planner misjudges the CTEs' sizes
WITH bounds AS (
  SELECT coalesce(nullif(:'to', '')::date, asof) AS t,
         coalesce(nullif(:'from', '')::date, coalesce(nullif(:'to', '')::date, asof) - 29) AS f, asof
  FROM meta
),
days AS (
  SELECT province, banner, sku, d, any_promo,
         lag(d) OVER w AS prev_d, lag(any_promo) OVER w AS prev_promo
  FROM daily
  WHERE province = :'province' AND (:'banner' = '' OR banner = :'banner')
    AND (:'category' = '' OR lower(category) = lower(:'category'))
  WINDOW w AS (PARTITION BY province, banner, sku ORDER BY d)
),
promo_days AS (
  SELECT *, sum(CASE WHEN prev_promo IS NOT TRUE OR d - prev_d - 1 > 7 THEN 1 ELSE 0 END)
              OVER (PARTITION BY province, banner, sku ORDER BY d) AS ev
  FROM days WHERE any_promo
),
events AS (
  SELECT province, banner, sku, ev, min(d) AS start, max(d) AS "end", count(*) AS observation_days
  FROM promo_days GROUP BY province, banner, sku, ev
),
promo_obs AS (
  -- the store observations on promotion of the event's days (every
  -- observation day of an event is a day on promotion)
  SELECT pd.province, pd.banner, pd.sku, pd.ev, o.store_id, o.pc, o.rc, o.promo_ends
  FROM promo_days pd JOIN obs o ON o.province = pd.province AND o.banner = pd.banner AND o.sku = pd.sku
   AND o.d = pd.d AND o.pc < o.rc
),
pmodes AS (
  SELECT province, banner, sku, ev, json_agg(pc ORDER BY pc) AS modes FROM (
    SELECT province, banner, sku, ev, pc, rank() OVER (PARTITION BY province, banner, sku, ev ORDER BY count(*) DESC) AS rk
    FROM promo_obs GROUP BY province, banner, sku, ev, pc) x WHERE rk = 1 GROUP BY 1, 2, 3, 4
),
rmodes AS (
  SELECT province, banner, sku, ev, json_agg(rc ORDER BY rc) AS modes FROM (
    SELECT province, banner, sku, ev, rc, rank() OVER (PARTITION BY province, banner, sku, ev ORDER BY count(*) DESC) AS rk
    FROM promo_obs GROUP BY province, banner, sku, ev, rc) x WHERE rk = 1 GROUP BY 1, 2, 3, 4
),
per_event AS (
  SELECT province, banner, sku, ev, count(DISTINCT store_id) AS stores, max(promo_ends) AS promo_ends
  FROM promo_obs GROUP BY province, banner, sku, ev
)
SELECT coalesce(jsonb_agg(x ORDER BY start, banner, external_sku), '[]')
FROM (
  SELECT e.banner, e.sku AS external_sku, s.upc, s.name, s.brand, s.category, e.province,
         e.start, e."end", pm.modes AS promo_modes, rm.modes AS regular_modes,
         pe.stores, e.observation_days, pe.promo_ends,
         (pe.promo_ends >= b.asof OR (pe.promo_ends IS NULL AND e."end" >= b.asof - 7)) AS ongoing
  FROM events e
  JOIN pmodes pm USING (province, banner, sku, ev)
  JOIN rmodes rm USING (province, banner, sku, ev)
  JOIN per_event pe USING (province, banner, sku, ev)
  JOIN (SELECT DISTINCT ON (province, banner, sku) province, banner, sku, upc, name, brand, category
        FROM daily WHERE province = :'province' ORDER BY province, banner, sku, d DESC) s USING (province, banner, sku),
  bounds b
  WHERE e."end" >= b.f AND e.start <= b.t AND e.start >= b.f - 56
) x;
