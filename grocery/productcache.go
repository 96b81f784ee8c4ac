package grocery

import (
	"github.com/grocerydata/grocery/storage"
)

// productCache reads the product of banner SKUs once per call.
type productCache struct {
	tx *storage.Tx
	m  map[string]Product
}

func (c *productCache) get(banner, sku string) (Product, error) {
	k := banner + "\x00" + sku
	if p, ok := c.m[k]; ok {
		return p, nil
	}
	var out Product
	var rec storage.SKU
	if found, err := c.tx.SKU(banner, sku, &rec); err != nil {
		return out, err
	} else if found && rec.GTIN != "" {
		var p storage.Product
		if found, err := c.tx.Product(rec.GTIN, &p); err != nil {
			return out, err
		} else if found {
			out = product(&p, LangEnglish)
		} else {
			out = Product{UPC: GTIN(rec.GTIN).UPC(), GTIN: rec.GTIN}
		}
	}
	c.m[k] = out
	return out, nil
}
