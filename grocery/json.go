package grocery

import (
	"strconv"

	"github.com/grocerydata/grocery/internal/jsontext"
)

// The query results are encoded on every MCP and REST call, so they encode
// themselves: AppendJSON writes exactly what encoding/json writes for their
// struct tags, without HTML escaping (TestAppendJSONMatchesReflection holds
// them to it), in a fraction of the time and without an allocation per
// field.

// AppendJSON appends the JSON of r to b.
func (r *LookupResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"product":`...)
	b = r.Product.appendJSON(b)
	b = append(b, `,"province":`...)
	b = jsontext.AppendString(b, r.Province)
	b = append(b, `,"offers":`...)
	b = jsontext.AppendList(b, r.Offers, (*Offer).appendJSON)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"currency":`...)
	b = jsontext.AppendString(b, r.Currency)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r *LookupResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func (p *Product) appendJSON(b []byte) []byte {
	b = append(b, `{"upc":`...)
	b = jsontext.AppendString(b, p.UPC)
	b = append(b, `,"gtin":`...)
	b = jsontext.AppendString(b, p.GTIN)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, p.Name)
	b = append(b, `,"brand":`...)
	b = jsontext.AppendString(b, p.Brand)
	b = append(b, `,"size":`...)
	b = jsontext.AppendString(b, p.Size)
	b = append(b, `,"category":`...)
	b = jsontext.AppendString(b, p.Category)
	b = append(b, `,"product_type":`...)
	b = jsontext.AppendString(b, p.Type)
	return append(b, '}')
}

func (o *Offer) appendJSON(b []byte) []byte {
	b = append(b, `{"banner":`...)
	b = jsontext.AppendString(b, o.Banner)
	b = append(b, `,"banner_name":`...)
	b = jsontext.AppendString(b, o.BannerName)
	b = append(b, `,"external_sku":`...)
	b = jsontext.AppendString(b, o.ExternalSKU)
	b = append(b, `,"price":`...)
	b = o.Price.appendJSON(b)
	b = append(b, `,"regular_price":`...)
	b = o.RegularPrice.appendJSON(b)
	b = append(b, `,"on_promo":`...)
	b = strconv.AppendBool(b, o.OnPromo)
	b = append(b, `,"promo_ends":`...)
	if o.PromoEnds == nil {
		b = append(b, "null"...)
	} else {
		b = o.PromoEnds.appendJSON(b)
	}
	b = append(b, `,"promo_ended":`...)
	if o.PromoEnded == nil {
		b = append(b, "null"...)
	} else {
		b = o.PromoEnded.appendJSON(b)
	}
	b = append(b, `,"min_price":`...)
	b = o.MinPrice.appendJSON(b)
	b = append(b, `,"max_price":`...)
	b = o.MaxPrice.appendJSON(b)
	b = append(b, `,"unit_price":`...)
	if o.UnitPrice == nil {
		b = append(b, "null"...)
	} else {
		b = o.UnitPrice.appendJSON(b)
	}
	b = append(b, `,"unit_price_basis":`...)
	b = jsontext.AppendString(b, o.UnitPriceBasis)
	b = append(b, `,"store_count":`...)
	b = strconv.AppendInt(b, int64(o.StoreCount), 10)
	b = append(b, `,"observed_at":`...)
	b = o.ObservedAt.appendJSON(b)
	b = append(b, `,"low_30d":`...)
	if o.Low30d == nil {
		b = append(b, "null"...)
	} else {
		b = o.Low30d.appendJSON(b)
	}
	b = append(b, `,"typical_price":`...)
	b = o.TypicalPrice.appendJSON(b)
	b = append(b, `,"verdict":`...)
	b = jsontext.AppendString(b, o.Verdict)
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b.
func (r *SearchResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"query":`...)
	b = jsontext.AppendString(b, r.Query)
	b = append(b, `,"province":`...)
	b = jsontext.AppendString(b, r.Province)
	b = append(b, `,"results":`...)
	b = jsontext.AppendList(b, r.Results, (*SearchProduct).appendJSON)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	if r.NextOffset != 0 {
		b = append(b, `,"next_offset":`...)
		b = strconv.AppendInt(b, int64(r.NextOffset), 10)
	}
	if r.Hint != "" {
		b = append(b, `,"hint":`...)
		b = jsontext.AppendString(b, r.Hint)
	}
	b = append(b, `,"currency":`...)
	b = jsontext.AppendString(b, r.Currency)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r *SearchResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func (p *SearchProduct) appendJSON(b []byte) []byte {
	b = append(b, `{"upc":`...)
	b = jsontext.AppendString(b, p.UPC)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, p.Name)
	b = append(b, `,"brand":`...)
	b = jsontext.AppendString(b, p.Brand)
	b = append(b, `,"size":`...)
	b = jsontext.AppendString(b, p.Size)
	b = append(b, `,"banner":`...)
	b = jsontext.AppendString(b, p.Banner)
	b = append(b, `,"banner_name":`...)
	b = jsontext.AppendString(b, p.BannerName)
	b = append(b, `,"external_sku":`...)
	b = jsontext.AppendString(b, p.ExternalSKU)
	b = append(b, `,"price":`...)
	b = p.Price.appendJSON(b)
	b = append(b, `,"regular_price":`...)
	b = p.RegularPrice.appendJSON(b)
	b = strconv.AppendBool(append(b, `,"on_promo":`...), p.OnPromo)
	b = append(b, `,"observed_at":`...)
	b = p.ObservedAt.appendJSON(b)
	b = append(b, `,"offer_count":`...)
	b = strconv.AppendInt(b, int64(p.OfferCount), 10)
	b = append(b, `,"offers":`...)
	b = jsontext.AppendList(b, p.Offers, (*SearchOffer).appendJSON)
	return append(b, '}')
}

func (o *SearchOffer) appendJSON(b []byte) []byte {
	b = append(b, `{"banner":`...)
	b = jsontext.AppendString(b, o.Banner)
	b = append(b, `,"external_sku":`...)
	b = jsontext.AppendString(b, o.ExternalSKU)
	b = append(b, `,"price":`...)
	b = o.Price.appendJSON(b)
	if o.OnPromo {
		b = append(b, `,"regular_price":`...)
		b = o.RegularPrice.appendJSON(b)
		b = append(b, `,"on_promo":true`...)
	}
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b.
func (r *HistoryResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"sku":`...)
	b = jsontext.AppendString(b, r.SKU)
	b = append(b, `,"banner":`...)
	b = jsontext.AppendString(b, r.Banner)
	b = append(b, `,"province":`...)
	b = jsontext.AppendString(b, r.Province)
	b = append(b, `,"period":`...)
	b = jsontext.AppendString(b, r.Period.String())
	b = append(b, `,"from":`...)
	b = r.From.appendJSON(b)
	b = append(b, `,"to":`...)
	b = r.To.appendJSON(b)
	if r.UPC != "" {
		b = append(b, `,"upc":`...)
		b = jsontext.AppendString(b, r.UPC)
	}
	if r.Name != "" {
		b = append(b, `,"name":`...)
		b = jsontext.AppendString(b, r.Name)
	}
	b = append(b, `,"points":`...)
	b = jsontext.AppendList(b, r.Points, (*PricePoint).appendJSON)
	b = append(b, `,"stats":`...)
	if r.Stats == nil {
		b = append(b, "null"...)
	} else {
		s := r.Stats
		b = append(b, `{"min":`...)
		b = s.Min.appendJSON(b)
		b = append(b, `,"max":`...)
		b = s.Max.appendJSON(b)
		b = append(b, `,"latest":`...)
		b = s.Latest.appendJSON(b)
		b = append(b, `,"change_pct":`...)
		b = jsontext.AppendFloat(b, s.ChangePct)
		b = append(b, `,"store_min":`...)
		b = s.StoreMin.appendJSON(b)
		b = append(b, `,"store_max":`...)
		b = s.StoreMax.appendJSON(b)
		b = append(b, '}')
	}
	b = append(b, `,"in_force":`...)
	b = jsontext.AppendList(b, r.InForce, (*DayInForce).appendJSON)
	b = append(b, `,"verdict":`...)
	if r.Verdict == nil {
		b = append(b, "null"...)
	} else {
		b = r.Verdict.appendJSON(b)
	}
	b = append(b, `,"currency":`...)
	b = jsontext.AppendString(b, r.Currency)
	return append(b, '}')
}

func (v *PriceVerdict) appendJSON(b []byte) []byte {
	b = append(b, `{"price":`...)
	b = v.Price.appendJSON(b)
	b = append(b, `,"low_30d":`...)
	if v.Low30d == nil {
		b = append(b, "null"...)
	} else {
		b = v.Low30d.appendJSON(b)
	}
	b = append(b, `,"typical_price":`...)
	b = v.TypicalPrice.appendJSON(b)
	b = append(b, `,"verdict":`...)
	b = jsontext.AppendString(b, v.Verdict)
	return append(b, '}')
}

func (d *DayInForce) appendJSON(b []byte) []byte {
	b = append(b, `{"date":`...)
	b = d.Date.appendJSON(b)
	b = append(b, `,"price":`...)
	b = d.Price.appendJSON(b)
	b = append(b, `,"regular_price":`...)
	b = d.RegularPrice.appendJSON(b)
	b = append(b, `,"on_promo":`...)
	b = strconv.AppendBool(b, d.OnPromo)
	b = append(b, `,"store_count":`...)
	b = strconv.AppendInt(b, int64(d.StoreCount), 10)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r *HistoryResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func (p *PricePoint) appendJSON(b []byte) []byte {
	b = append(b, `{"date":`...)
	b = p.Date.appendJSON(b)
	b = append(b, `,"min":`...)
	b = p.Min.appendJSON(b)
	b = append(b, `,"median":`...)
	b = p.Median.appendJSON(b)
	b = append(b, `,"max":`...)
	b = p.Max.appendJSON(b)
	b = append(b, `,"store_count":`...)
	b = strconv.AppendInt(b, int64(p.StoreCount), 10)
	return append(b, '}')
}

// AppendJSON appends the JSON of r to b.
func (r *StoresResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"stores":`...)
	b = jsontext.AppendList(b, r.Stores, (*Store).appendJSON)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	if r.NextOffset > 0 {
		b = append(b, `,"next_offset":`...)
		b = strconv.AppendInt(b, int64(r.NextOffset), 10)
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r *StoresResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func (s *Store) appendJSON(b []byte) []byte {
	b = append(b, `{"store_id":`...)
	b = jsontext.AppendString(b, s.ID)
	b = append(b, `,"banner":`...)
	b = jsontext.AppendString(b, s.Banner)
	b = append(b, `,"banner_name":`...)
	b = jsontext.AppendString(b, s.BannerName)
	b = append(b, `,"province":`...)
	b = jsontext.AppendString(b, s.Province)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, s.Name)
	b = append(b, `,"city":`...)
	b = jsontext.AppendString(b, s.City)
	b = append(b, `,"postal_code":`...)
	b = jsontext.AppendString(b, s.PostalCode)
	b = append(b, `,"latitude":`...)
	b = jsontext.AppendFloat(b, s.Latitude)
	b = append(b, `,"longitude":`...)
	b = jsontext.AppendFloat(b, s.Longitude)
	b = append(b, `,"observations_30d":`...)
	b = strconv.AppendInt(b, int64(s.Observations30d), 10)
	return append(b, '}')
}

func (c Cents) appendJSON(b []byte) []byte { return jsontext.AppendCents(b, int64(c)) }

func (d Date) appendJSON(b []byte) []byte {
	b = append(b, '"')
	b = jsontext.AppendISODate(b, int64(d))
	return append(b, '"')
}

// AppendJSON appends the JSON of p to b.
func (p *StorePrice) AppendJSON(b []byte) []byte {
	b = append(b, `{"banner":`...)
	b = jsontext.AppendString(b, p.Banner)
	b = append(b, `,"store_id":`...)
	b = jsontext.AppendString(b, p.StoreID)
	b = append(b, `,"external_sku":`...)
	b = jsontext.AppendString(b, p.ExternalSKU)
	b = append(b, `,"upc":`...)
	b = jsontext.AppendString(b, p.UPC)
	b = append(b, `,"product_name":`...)
	b = jsontext.AppendString(b, p.ProductName)
	b = append(b, `,"name":`...)
	b = jsontext.AppendString(b, p.Name)
	b = append(b, `,"price":`...)
	b = p.Price.appendJSON(b)
	b = append(b, `,"regular_price":`...)
	b = p.RegularPrice.appendJSON(b)
	b = append(b, `,"on_promo":`...)
	b = strconv.AppendBool(b, p.OnPromo)
	b = append(b, `,"promo_ends":`...)
	if p.PromoEnds == nil {
		b = append(b, "null"...)
	} else {
		b = p.PromoEnds.appendJSON(b)
	}
	b = append(b, `,"promo_ended":`...)
	if p.PromoEnded == nil {
		b = append(b, "null"...)
	} else {
		b = p.PromoEnded.appendJSON(b)
	}
	b = append(b, `,"observed_at":`...)
	b = p.ObservedAt.appendJSON(b)
	b = append(b, `,"currency":`...)
	b = jsontext.AppendString(b, p.Currency)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (p *StorePrice) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil), nil }

// AppendJSON appends the JSON of r to b.
func (r *StorePricesResult) AppendJSON(b []byte) []byte {
	b = append(b, `{"results":`...)
	b = jsontext.AppendList(b, r.Results, (*StorePrice).AppendJSON)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"limit":`...)
	b = strconv.AppendInt(b, int64(r.Limit), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(r.Offset), 10)
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler.
func (r *StorePricesResult) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }
