package mcpserver

// Input and output schemas of the tools (JSON Schema 2020-12). The output
// schemas describe exactly the JSON of the grocery result types.

const provinceEnum = `["AB","BC","MB","NB","NL","NS","NT","NU","ON","PE","QC","SK","YT"]`

const (
	provinceArg = `{"type":"string","enum":` + provinceEnum + `,"description":"Province or territory, two-letter code (English and French names are also accepted)"}`
	limitArg    = `{"type":"integer","minimum":1,"maximum":50,"default":10,"description":"At most this many results (1 to 50, default 10)"}`
	bannerArg   = `{"type":"string","description":"Banner (store chain) slug from an offer or result, e.g. no-frills, loblaws, metro, iga, save-on-foods"}`
	money       = `{"type":"number","description":"CAD"}`
	date        = `{"type":"string","format":"date"}`
)

const lookupInput = `{
	"type":"object",
	"properties":{
		"upc":{"type":"string","description":"UPC/EAN/GTIN barcode: 8, 12, 13 or 14 digits as a string (spaces and hyphens allowed)","pattern":"^[0-9 -]{8,20}$"},
		"province":` + provinceArg + `,
		"limit":` + limitArg + `
	},
	"required":["upc","province"],
	"additionalProperties":false
}`

const searchInput = `{
	"type":"object",
	"properties":{
		"query":{"type":"string","minLength":1,"description":"Words of a product name or brand, e.g. \"2% milk\" or \"Natrel\""},
		"province":` + provinceArg + `,
		"limit":` + limitArg + `
	},
	"required":["query","province"],
	"additionalProperties":false
}`

const historyInput = `{
	"type":"object",
	"properties":{
		"sku":{"type":"string","minLength":1,"description":"The external_sku of an offer or search result (the retailer's own SKU, never a barcode)"},
		"banner":` + bannerArg + `,
		"province":` + provinceArg + `,
		"period":{"type":"string","enum":["7d","14d","30d","90d","180d","365d"],"default":"30d","description":"Lookback window"}
	},
	"required":["sku","banner","province"],
	"additionalProperties":false
}`

const storesInput = `{
	"type":"object",
	"properties":{
		"province":` + provinceArg + `,
		"banner":` + bannerArg + `,
		"limit":` + limitArg + `
	},
	"additionalProperties":false
}`

const lookupOutput = `{
	"type":"object",
	"properties":{
		"product":{
			"type":"object",
			"properties":{
				"upc":{"type":"string"},"gtin":{"type":"string"},"name":{"type":"string"},
				"brand":{"type":"string"},"size":{"type":"string"},"category":{"type":"string"}
			},
			"required":["upc","gtin","name","brand","size","category"]
		},
		"province":{"type":"string"},
		"offers":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"banner":{"type":"string"},"banner_name":{"type":"string"},"external_sku":{"type":"string"},
					"price":` + money + `,"regular_price":` + money + `,"on_promo":{"type":"boolean"},
					"promo_ends":{"type":["string","null"],"format":"date"},
					"min_price":` + money + `,"max_price":` + money + `,
					"unit_price":{"type":["number","null"]},"unit_price_basis":{"type":"string"},
					"store_count":{"type":"integer"},"observed_at":` + date + `
				},
				"required":["banner","banner_name","external_sku","price","regular_price","on_promo","promo_ends","min_price","max_price","unit_price","unit_price_basis","store_count","observed_at"]
			}
		},
		"currency":{"type":"string","const":"CAD"}
	},
	"required":["product","province","offers","currency"]
}`

const searchOutput = `{
	"type":"object",
	"properties":{
		"query":{"type":"string"},
		"province":{"type":"string"},
		"results":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"upc":{"type":"string"},"name":{"type":"string"},"brand":{"type":"string"},"size":{"type":"string"},
					"banner":{"type":"string"},"banner_name":{"type":"string"},"external_sku":{"type":"string"},
					"price":` + money + `,"regular_price":` + money + `,"on_promo":{"type":"boolean"},"observed_at":` + date + `
				},
				"required":["upc","name","brand","size","banner","banner_name","external_sku","price","regular_price","on_promo","observed_at"]
			}
		},
		"currency":{"type":"string","const":"CAD"}
	},
	"required":["query","province","results","currency"]
}`

const historyOutput = `{
	"type":"object",
	"properties":{
		"sku":{"type":"string"},"banner":{"type":"string"},"province":{"type":"string"},
		"period":{"type":"string"},"from":` + date + `,"to":` + date + `,
		"upc":{"type":"string"},"name":{"type":"string"},
		"points":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"date":` + date + `,"min":` + money + `,"median":` + money + `,"max":` + money + `,"store_count":{"type":"integer"}
				},
				"required":["date","min","median","max","store_count"]
			}
		},
		"stats":{
			"type":["object","null"],
			"properties":{"min":` + money + `,"max":` + money + `,"latest":` + money + `,"change_pct":{"type":"number"}},
			"required":["min","max","latest","change_pct"]
		},
		"currency":{"type":"string","const":"CAD"}
	},
	"required":["sku","banner","province","period","from","to","points","stats","currency"]
}`

const storesOutput = `{
	"type":"object",
	"properties":{
		"stores":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"store_id":{"type":"string"},"banner":{"type":"string"},"banner_name":{"type":"string"},
					"province":{"type":"string"},"name":{"type":"string"},"city":{"type":"string"},
					"postal_code":{"type":"string"},"latitude":{"type":"number"},"longitude":{"type":"number"},
					"observations_30d":{"type":"integer"}
				},
				"required":["store_id","banner","banner_name","province","name","city","postal_code","latitude","longitude","observations_30d"]
			}
		},
		"total":{"type":"integer"}
	},
	"required":["stores","total"]
}`
