SET client_min_messages = warning;
-- The tables the product's CSV exports are loaded into (psql \copy, header
-- row), exactly as README's "Exporting data" lists their columns:
--   observations: date, store_id, banner, province, external_sku, upc, name,
--     name_fr, brand, size, category, product_type, price, regular_price, on_promo,
--     promo_ends, currency
--   stores: store_id, banner, banner_name, province, name, city, postal_code,
--     latitude, longitude, observations_30d, active (every store: active false
--     for one that left the reference panel)
DROP TABLE IF EXISTS obs_csv, stores_csv CASCADE;
CREATE TABLE obs_csv (
  date date, store_id text, banner text, province text, external_sku text, upc text,
  name text, name_fr text, brand text, size text, category text, product_type text, price numeric, regular_price numeric,
  on_promo boolean, promo_ends date, currency text, source text);
CREATE TABLE stores_csv (
  store_id text, banner text, banner_name text, province text, name text, city text,
  postal_code text, latitude float8, longitude float8, observations_30d int, active boolean, source text);
