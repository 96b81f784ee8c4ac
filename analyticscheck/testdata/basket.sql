-- POST /b2b/basket: the prices of a basket at every banner of a province.
--
-- M1 (analytics-defs.md): "The basket (POST /b2b/basket) is the one
-- exception: it prices what a shopper pays at the till, the offer's price
-- (the most common current store price), as today."
-- OpenAPI: "A banner's price is its cheapest current offer of the barcode;
-- a banner without one gets a substitute when the panel has one (same
-- category and unit basis, size from half to twice the item's, the closest
-- in size, then the cheapest by unit price) ...; else the item is lacking
-- there: not observed in the panel."
-- Issue 28: "A substitute must share the product type (and the unit basis
-- and the size range); where a product has no type, it has no substitute:
-- the line is 'not carried'." Types compare in any case.
-- M8. Basket substitutes: whole packs. "A lacking item (quantity k of size
-- S) gets a substitute of the same category and unit basis; packs =
-- ceil(k * S / S_sub); line price = packs * the substitute's shelf price;
-- the line says packs, amount covered (packs * S_sub) and the unit price."
--
-- Read here: the substitute is chosen as the OpenAPI document says (M8
-- changes its price, not its choice); "closest in size" is the smallest
-- |S_sub - S| in the basis's quantity; the most common price's ties are
-- returned (price_modes) and any is accepted.
-- Variables: province, items (JSON: [{"upc": "...", "quantity": 2}, ...]).
WITH items AS (
  SELECT (ord - 1)::int AS item, e->>'upc' AS upc, (e->>'quantity')::int AS quantity
  FROM json_array_elements(:'items'::json) WITH ORDINALITY AS t(e, ord)
),
products AS (
  SELECT DISTINCT ON (upc) upc, category, size, lower(product_type) AS product_type FROM obs ORDER BY upc, d DESC
),
banners AS (SELECT DISTINCT banner FROM offer WHERE province = :'province'),
direct AS (
  SELECT DISTINCT ON (b.banner, i.item) b.banner, i.item, o.sku, o.price_modes, o.price, o.store_count
  FROM banners b CROSS JOIN items i
  JOIN offer o ON o.province = :'province' AND o.banner = b.banner AND o.upc = i.upc
  ORDER BY b.banner, i.item, o.price, o.sku
),
subst AS (
  SELECT DISTINCT ON (b.banner, i.item) b.banner, i.item, i.quantity, o.sku, o.upc AS sub_upc, o.price_modes, o.price,
         o.price_tied, unit_qty(p.size) AS s, unit_qty(o.size) AS s_sub,
         ceil(i.quantity * unit_qty(p.size) / unit_qty(o.size)) AS packs
  FROM banners b CROSS JOIN items i
  JOIN products p ON p.upc = i.upc
  JOIN products q ON q.category = p.category AND q.product_type = p.product_type AND p.product_type <> ''
   AND unit_basis(q.size) = unit_basis(p.size) AND unit_basis(p.size) <> ''
   AND q.upc <> i.upc AND unit_qty(q.size) BETWEEN unit_qty(p.size) / 2 AND unit_qty(p.size) * 2
  JOIN offer o ON o.province = :'province' AND o.banner = b.banner AND o.upc = q.upc
  WHERE NOT EXISTS (SELECT 1 FROM direct dd WHERE dd.banner = b.banner AND dd.item = i.item)
  ORDER BY b.banner, i.item, abs(unit_qty(o.size) - unit_qty(p.size)), o.price / unit_qty(o.size), o.upc
)
SELECT coalesce(jsonb_agg(x ORDER BY banner), '[]')
FROM (
  SELECT b.banner,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('item', d.item, 'external_sku', d.sku, 'price_modes', d.price_modes,
                  'store_count', d.store_count) ORDER BY d.item), '[]') FROM direct d WHERE d.banner = b.banner) AS direct,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('item', s.item, 'external_sku', s.sku, 'upc', s.sub_upc,
                  'price', s.price, 'price_tied', s.price_tied, 'price_modes', s.price_modes, 'packs', s.packs,
                  'line_total', s.packs * s.price) ORDER BY s.item), '[]') FROM subst s WHERE s.banner = b.banner) AS substitutes,
         (SELECT coalesce(jsonb_agg(i.item ORDER BY i.item), '[]') FROM items i
           WHERE NOT EXISTS (SELECT 1 FROM direct d WHERE d.banner = b.banner AND d.item = i.item)
             AND NOT EXISTS (SELECT 1 FROM subst s WHERE s.banner = b.banner AND s.item = i.item)) AS lacking
  FROM banners b
) x;
