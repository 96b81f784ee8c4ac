package mcpserver

// Input and output schemas of the tools (JSON Schema 2020-12). They hold
// what a model needs and no more: tools/list is read into the model's
// context (TestToolsListBudget keeps it small). An input schema accepts
// everything the tool accepts; the output schemas describe the JSON of
// the grocery result types, with the top-level fields required.

// The tools' limit argument: 1..toolMaxLimit, toolDefaultLimit when not
// given (limitArg tells the model the same; grocery itself allows up to
// grocery.MaxLimit).
const (
	toolDefaultLimit = 10
	toolMaxLimit     = 50
)

// province accepts what grocery.ParseProvince accepts: codes in any case
// and English or French names. No enum could list those forms, so the
// codes are in the description.
const (
	provinceArg = `{"type":"string","description":"AB BC MB NB NL NS NT NU ON PE QC SK YT, or its name"}`
	limitArg    = `{"type":"integer","minimum":1,"maximum":50,"default":10}`
	offsetArg   = `{"type":"integer","minimum":0}`
	bannerArg   = `{"type":"string","description":"Slug from an offer, e.g. no-frills"}`
	langArg     = `{"type":"string","enum":["en","fr"],"default":"en"}`
	str         = `{"type":"string"}`
	integer     = `{"type":"integer"}`
	money       = `{"type":"number"}`
	date        = `{"type":"string"}` // YYYY-MM-DD

	// A nullable value is an anyOf, never a type array
	// (["string","null"]), which some model providers refuse
	// (TestSchemasPortable).
	nullDate  = `{"anyOf":[{"type":"string"},{"type":"null"}]}`
	nullMoney = `{"anyOf":[{"type":"number"},{"type":"null"}]}`

	verdict = `{"enum":["lowest_in_30_days","on_promotion","usual_price","above_usual"]}`
)

const lookupInput = `{
	"type":"object",
	"properties":{
		"upc":{"type":"string","pattern":"^[0-9 -]{8,20}$","description":"Barcode, 8 to 14 digits, as a string"},
		"province":` + provinceArg + `,
		"limit":` + limitArg + `,
		"offset":` + offsetArg + `,
		"lang":` + langArg + `
	},
	"required":["upc","province"],
	"additionalProperties":false
}`

const searchInput = `{
	"type":"object",
	"properties":{
		"query":{"type":"string","minLength":1,"description":"Name or brand words, and a size"},
		"province":` + provinceArg + `,
		"limit":` + limitArg + `,
		"offset":` + offsetArg + `,
		"lang":` + langArg + `
	},
	"required":["query","province"],
	"additionalProperties":false
}`

const historyInput = `{
	"type":"object",
	"properties":{
		"sku":{"type":"string","minLength":1},
		"banner":` + bannerArg + `,
		"province":` + provinceArg + `,
		"period":{"type":"string","enum":["7d","14d","30d","90d","180d","365d"],"default":"30d"},
		"lang":` + langArg + `
	},
	"required":["sku","banner","province"],
	"additionalProperties":false
}`

const storesInput = `{
	"type":"object",
	"properties":{
		"province":` + provinceArg + `,
		"banner":` + bannerArg + `,
		"limit":` + limitArg + `,
		"offset":` + offsetArg + `,
		"near":{"type":"string","description":"Postal code: nearest first"}
	},
	"additionalProperties":false
}`

const lookupOutput = `{
	"type":"object",
	"properties":{
		"product":{
			"type":"object",
			"properties":{"upc":` + str + `,"gtin":` + str + `,"name":` + str + `,"brand":` + str + `,"size":` + str + `,"category":` + str + `,"product_type":` + str + `}
		},
		"province":` + str + `,
		"offers":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"banner":` + str + `,"banner_name":` + str + `,"external_sku":` + str + `,
					"price":` + money + `,"regular_price":` + money + `,"on_promo":{"type":"boolean"},
					"promo_ends":` + nullDate + `,"promo_ended":` + nullDate + `,
					"min_price":` + money + `,"max_price":` + money + `,
					"unit_price":` + nullMoney + `,"unit_price_basis":` + str + `,
					"store_count":` + integer + `,"observed_at":` + date + `,
					"low_30d":` + nullMoney + `,"typical_price":` + money + `,"verdict":` + verdict + `
				}
			}
		},
		"total":` + integer + `,
		"currency":{"const":"CAD"}
	},
	"required":["product","province","offers","total","currency"]
}`

const searchOutput = `{
	"type":"object",
	"properties":{
		"query":` + str + `,
		"province":` + str + `,
		"results":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"upc":` + str + `,"name":` + str + `,"brand":` + str + `,"size":` + str + `,
					"banner":` + str + `,"banner_name":` + str + `,"external_sku":` + str + `,"price":` + money + `,
					"regular_price":` + money + `,"on_promo":{"type":"boolean"},"observed_at":` + str + `,
					"offer_count":` + integer + `,
					"offers":{
						"type":"array",
						"items":{
							"type":"object",
							"properties":{
								"banner":` + str + `,"external_sku":` + str + `,"price":` + money + `,
								"regular_price":` + money + `,"on_promo":{"const":true}
							}
						}
					}
				}
			}
		},
		"total":` + integer + `,
		"next_offset":` + integer + `,
		"hint":` + str + `,
		"currency":{"const":"CAD"}
	},
	"required":["query","province","results","total","currency"]
}`

const historyOutput = `{
	"type":"object",
	"properties":{
		"sku":` + str + `,"banner":` + str + `,"province":` + str + `,
		"period":` + str + `,"from":` + date + `,"to":` + date + `,
		"upc":` + str + `,"name":` + str + `,
		"points":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{"date":` + date + `,"min":` + money + `,"median":` + money + `,"max":` + money + `,"store_count":` + integer + `}
			}
		},
		"stats":{"anyOf":[{
			"type":"object",
			"properties":{"min":` + money + `,"max":` + money + `,"latest":` + money + `,"change_pct":{"type":"number"},"store_min":` + money + `,"store_max":` + money + `}
		},{"type":"null"}]},
		"in_force":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{"date":` + date + `,"price":` + money + `,"regular_price":` + money + `,"on_promo":{"type":"boolean"},"store_count":` + integer + `}
			}
		},
		"verdict":{"anyOf":[{
			"type":"object",
			"properties":{"price":` + money + `,"low_30d":` + nullMoney + `,"typical_price":` + money + `,"verdict":` + str + `}
		},{"type":"null"}]},
		"currency":{"const":"CAD"}
	},
	"required":["sku","banner","province","period","from","to","points","stats","in_force","verdict","currency"]
}`

const storesOutput = `{
	"type":"object",
	"properties":{
		"stores":{
			"type":"array",
			"items":{
				"type":"object",
				"properties":{
					"store_id":` + str + `,"banner":` + str + `,"banner_name":` + str + `,
					"province":` + str + `,"name":` + str + `,"city":` + str + `,
					"postal_code":` + str + `,"latitude":{"type":"number"},"longitude":{"type":"number"},
					"observations_30d":` + integer + `
				}
			}
		},
		"total":` + integer + `,
		"next_offset":` + integer + `
	},
	"required":["stores","total"]
}`
