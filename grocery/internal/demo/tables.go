package demo

import (
	"strings"
	"time"
)

// Static tables of the demo data generator (generator.go): brands, product
// lines, banner behaviour, provinces and cities. They are facts and
// plausible inventions for a realistic Canadian data set, not real prices.

// demoScaleSpec sizes one demo scale.
type demoScaleSpec struct {
	days     int        // days of history, ending at asOf
	stores   int        // reference stores, and one more in each province left without any
	products int        // catalogue products
	depthBP  int        // multiplier of every banner's assortment depth, per 10000
	minima   []demoSeat // panels that always get stores (the territories)
	daily    bool       // every store is read every day, not on its banner's two days a week
	variants bool       // the catalogue holds the items' pack sizes and variants (variants.go)
}

// demoSeat is a number of stores for one (banner, province) panel.
type demoSeat struct {
	banner, province string
	stores           int
}

var demoScales = map[string]demoScaleSpec{
	"small": {days: 120, stores: 60, products: 300, depthBP: 15500, minima: []demoSeat{
		{"walmart", "YT", 1}, {"walmart", "NT", 1}, {"northern", "NU", 1},
	}},
	"medium": {days: 200, stores: 160, products: 650, depthBP: 15500, minima: []demoSeat{
		{"walmart", "YT", 1}, {"walmart", "NT", 1}, {"save-on-foods", "YT", 1},
		{"northern", "NU", 2}, {"northern", "NT", 1},
	}},
	"large": {days: 365, stores: 300, products: 1100, depthBP: 13900, minima: []demoSeat{
		{"walmart", "YT", 1}, {"walmart", "NT", 1}, {"save-on-foods", "YT", 1},
		{"northern", "NU", 3}, {"northern", "NT", 2}, {"northern", "MB", 1},
	}},
	// A national panel: every store read every day, a catalogue of tens
	// of thousands of products and a shallower sample of each banner's
	// assortment; over a hundred million observations.
	"national": {days: 365, stores: 320, products: 20000, depthBP: 5000, daily: true, variants: true, minima: []demoSeat{
		{"walmart", "YT", 1}, {"walmart", "NT", 1}, {"save-on-foods", "YT", 1},
		{"northern", "NU", 3}, {"northern", "NT", 2}, {"northern", "MB", 1},
	}},
}

// demoScaleNames lists the scales for error messages, smallest first.
const demoScaleNames = "small, medium, large, national"

// demoBannerInfo is how one banner behaves in the demo data.
type demoBannerInfo struct {
	slug      string
	idPrefix  string // store ID prefix, e.g. "nofrills" in "nofrills-on-0123"
	storeName string // store name prefix; "" means the banner's display name
	levelBP   int64  // regular price level, per 10000 of an Ontario full-service banner
	depthBP   int    // assortment depth: share of a typical national product carried, per 10000
	weight    int    // relative number of stores in each province where it operates
	days      [2]time.Weekday
	skuGroup  string // banners of one group share their SKU numbers
	skuFormat string // fmt verb for the SKU number
	skuBase   int64  // first SKU number of the group
	endings   []int64
	alt       []int64 // endings of the minority of stores priced off the zone
	promo     []int64 // endings of flyer prices
	cities    string  // preferred cities, "PROV:City,City;PROV:City", or ""
}

var (
	demoEndings      = []int64{29, 49, 79, 97, 99}
	demoAltEndings   = []int64{19, 39, 59, 69, 89}
	demoPromoEndings = []int64{0, 44, 47, 49, 50, 88, 97, 99}
	demoWalmartEnd   = []int64{27, 47, 77, 97}
	demoWalmartAlt   = []int64{37, 57, 67, 87}
	demoWalmartPromo = []int64{0, 47, 50, 97}
	demoCostcoEnd    = []int64{49, 79, 89, 99}
	demoCostcoAlt    = []int64{39, 59, 69, 97}
	demoCheapEndings = []int64{29, 39, 49, 59, 69, 79, 89, 99} // under one dollar
)

var (
	monThu = [2]time.Weekday{time.Monday, time.Thursday}
	tueFri = [2]time.Weekday{time.Tuesday, time.Friday}
	wedSat = [2]time.Weekday{time.Wednesday, time.Saturday}
	thuSun = [2]time.Weekday{time.Thursday, time.Sunday}
	monFri = [2]time.Weekday{time.Monday, time.Friday}
	tueSat = [2]time.Weekday{time.Tuesday, time.Saturday}
)

// demoBannerTable has one row per banner of the banners table.
var demoBannerTable = []demoBannerInfo{
	// Loblaw: one article number per product across its banners, "21034567_EA".
	{slug: "loblaws", idPrefix: "loblaws", levelBP: 10300, depthBP: 6000, weight: 4, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "real-canadian-superstore", idPrefix: "rcss", levelBP: 9700, depthBP: 6200, weight: 5, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "no-frills", idPrefix: "nofrills", levelBP: 8900, depthBP: 4600, weight: 6, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "zehrs", idPrefix: "zehrs", levelBP: 10100, depthBP: 5500, weight: 2, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000, cities: "ON:Kitchener,Guelph,London"},
	{slug: "fortinos", idPrefix: "fortinos", levelBP: 10300, depthBP: 5500, weight: 2, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000, cities: "ON:Hamilton,Mississauga,Brampton"},
	{slug: "valu-mart", idPrefix: "valumart", levelBP: 10200, depthBP: 4000, weight: 2, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000, cities: "ON:Toronto,Ottawa,Kingston,Sudbury"},
	{slug: "your-independent-grocer", idPrefix: "yig", levelBP: 10100, depthBP: 4500, weight: 3, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "provigo", idPrefix: "provigo", levelBP: 10200, depthBP: 5200, weight: 3, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "maxi", idPrefix: "maxi", levelBP: 9000, depthBP: 4600, weight: 5, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "atlantic-superstore", idPrefix: "atlsuperstore", levelBP: 9800, depthBP: 5600, weight: 4, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "dominion", idPrefix: "dominion", levelBP: 10200, depthBP: 5000, weight: 3, days: monThu, skuGroup: "loblaw", skuFormat: "%08d_EA", skuBase: 20100000},
	{slug: "t-and-t", idPrefix: "tnt", storeName: "T&T Supermarket", levelBP: 10000, depthBP: 1500, weight: 2, days: tueSat, skuGroup: "t-and-t", skuFormat: "TT%06d", skuBase: 100000,
		cities: "ON:Toronto,Mississauga;BC:Vancouver,Burnaby,Surrey;AB:Calgary,Edmonton;QC:Montréal"},
	// Empire: banner letters and one number per product, "SOB-1045521".
	{slug: "sobeys", idPrefix: "sobeys", levelBP: 10300, depthBP: 5600, weight: 6, days: tueFri, skuGroup: "empire", skuFormat: "SOB-%07d", skuBase: 1000000},
	{slug: "safeway", idPrefix: "safeway", levelBP: 10300, depthBP: 5600, weight: 5, days: tueFri, skuGroup: "empire", skuFormat: "SAF-%07d", skuBase: 1000000},
	{slug: "iga", idPrefix: "iga", levelBP: 10200, depthBP: 5200, weight: 6, days: tueFri, skuGroup: "empire", skuFormat: "IGA-%07d", skuBase: 1000000},
	{slug: "foodland", idPrefix: "foodland", levelBP: 10100, depthBP: 4000, weight: 2, days: tueFri, skuGroup: "empire", skuFormat: "FDL-%07d", skuBase: 1000000},
	{slug: "freshco", idPrefix: "freshco", levelBP: 8900, depthBP: 4200, weight: 4, days: tueFri, skuGroup: "empire", skuFormat: "FCO-%07d", skuBase: 1000000},
	{slug: "thrifty-foods", idPrefix: "thrifty", levelBP: 10500, depthBP: 5000, weight: 2, days: tueFri, skuGroup: "empire", skuFormat: "THF-%07d", skuBase: 1000000, cities: "BC:Victoria,Nanaimo"},
	{slug: "farm-boy", idPrefix: "farmboy", levelBP: 10600, depthBP: 3000, weight: 2, days: tueFri, skuGroup: "empire", skuFormat: "FBY-%07d", skuBase: 1000000, cities: "ON:Ottawa,Toronto,Kingston,London"},
	{slug: "longos", idPrefix: "longos", levelBP: 10700, depthBP: 4500, weight: 2, days: tueFri, skuGroup: "empire", skuFormat: "LON-%07d", skuBase: 1000000, cities: "ON:Toronto,Mississauga,Brampton"},
	// Metro: banner letters glued to the number, "MET0123456".
	{slug: "metro", idPrefix: "metro", levelBP: 10200, depthBP: 5600, weight: 6, days: thuSun, skuGroup: "metro", skuFormat: "MET%07d", skuBase: 100000},
	{slug: "super-c", idPrefix: "superc", levelBP: 9000, depthBP: 4200, weight: 4, days: thuSun, skuGroup: "metro", skuFormat: "SUC%07d", skuBase: 100000},
	{slug: "food-basics", idPrefix: "foodbasics", levelBP: 9000, depthBP: 4200, weight: 4, days: thuSun, skuGroup: "metro", skuFormat: "FBA%07d", skuBase: 100000},
	// Walmart: "WM" and a ten-digit item number.
	{slug: "walmart", idPrefix: "walmart", storeName: "Walmart Supercentre", levelBP: 8800, depthBP: 5000, weight: 10, days: wedSat, skuGroup: "walmart", skuFormat: "WM%010d", skuBase: 6000100000,
		endings: demoWalmartEnd, alt: demoWalmartAlt, promo: demoWalmartPromo, cities: "YT:Whitehorse;NT:Yellowknife"},
	// Pattison.
	{slug: "save-on-foods", idPrefix: "saveon", levelBP: 10300, depthBP: 5600, weight: 5, days: monThu, skuGroup: "pattison", skuFormat: "SOF-%06d", skuBase: 100000, cities: "YT:Whitehorse"},
	{slug: "pricesmart-foods", idPrefix: "pricesmart", levelBP: 9300, depthBP: 4000, weight: 1, days: monThu, skuGroup: "pattison", skuFormat: "PSF-%06d", skuBase: 100000, cities: "BC:Vancouver,Burnaby,Surrey"},
	{slug: "buy-low-foods", idPrefix: "buylow", levelBP: 10100, depthBP: 4500, weight: 2, days: monThu, skuGroup: "pattison", skuFormat: "BLF-%06d", skuBase: 100000},
	{slug: "co-op", idPrefix: "coop", levelBP: 10200, depthBP: 5000, weight: 3, days: monFri, skuGroup: "co-op", skuFormat: "FCL%07d", skuBase: 1000000},
	{slug: "giant-tiger", idPrefix: "gianttiger", levelBP: 9200, depthBP: 2500, weight: 3, days: wedSat, skuGroup: "giant-tiger", skuFormat: "GT%07d", skuBase: 1000000},
	// Costco item numbers are six or seven digits: never a barcode length.
	{slug: "costco", idPrefix: "costco", levelBP: 8600, depthBP: 1100, weight: 3, days: tueSat, skuGroup: "costco", skuFormat: "%07d", skuBase: 1000000,
		endings: demoCostcoEnd, alt: demoCostcoAlt, promo: demoCostcoEnd},
	// Banners known for imported public data (Project Hammer's vendors),
	// not in the demo's panel (weight 0).
	{slug: "voila", idPrefix: "voila", storeName: "Voilà", levelBP: 10600, depthBP: 3000, weight: 0, days: tueFri, skuGroup: "empire", skuFormat: "VOI-%07d", skuBase: 1000000},
	{slug: "galleria", idPrefix: "galleria", storeName: "Galleria Supermarket", levelBP: 10500, depthBP: 2500, weight: 0, days: tueFri, skuGroup: "galleria", skuFormat: "GAL-%06d", skuBase: 100000},
	// The North West Company: only where a scale seats it (weight 0).
	{slug: "northern", idPrefix: "northern", storeName: "Northern", levelBP: 10900, depthBP: 3200, weight: 0, days: tueFri, skuGroup: "northern", skuFormat: "NWC-%06d", skuBase: 100000,
		cities: "NU:Iqaluit,Rankin Inlet,Cambridge Bay;NT:Hay River,Inuvik;MB:Thompson;YT:Whitehorse"},
}

// demoProvince is a province's place in the demo: how many stores it gets
// and how its prices compare with Ontario.
type demoProvince struct {
	code    string
	weight  int   // share of stores (population^0.8, rounded); 0 for the territories
	levelBP int64 // price level, per 10000 of Ontario
	spread  int64 // per-product spread above levelBP (the territories vary most)
}

var demoProvinceTable = []demoProvince{
	{"AB", 351, 10300, 0},
	{"BC", 397, 10500, 0},
	{"MB", 138, 10400, 0},
	{"NB", 88, 10500, 0},
	{"NL", 61, 10800, 0},
	{"NS", 108, 10500, 0},
	{"NT", 0, 13000, 3000},
	{"NU", 0, 15000, 3000},
	{"ON", 900, 10000, 0},
	{"PE", 24, 10600, 0},
	{"QC", 575, 9900, 0},
	{"SK", 116, 10400, 0},
	{"YT", 0, 12500, 2000},
}

// demoCity is a city with reference stores: its coordinates (micro-degrees),
// how far stores scatter around it, its weight among the province's cities,
// and neighbourhoods with their postal FSAs ("Name:FSA FSA|Name:FSA").
type demoCity struct {
	name, province string
	lat, lon       int64
	jitter         int64 // micro-degrees of latitude; longitude scatters 1.4 times as far
	weight         int   // 0: only banners that prefer it
	hoods          string
}

var demoCityTable = []demoCity{
	{"Toronto", "ON", 43653200, -79383200, 50000, 60, "Danforth:M4J M4K|Leslieville:M4M|The Beaches:M4E|The Annex:M5R|Liberty Village:M6K|Roncesvalles:M6R|The Junction:M6P|Yonge and Eglinton:M4P|North York Centre:M2N|Scarborough Town Centre:M1P|Agincourt:M1S|Etobicoke:M9B M9C|Don Mills:M3B M3C|Leaside:M4G|St. Lawrence:M5E|Little Italy:M6G|Dufferin Grove:M6H|Bloor West Village:M6S|Yorkdale:M6A|Thorncliffe Park:M4H|Stockyards:M6N|Willowdale:M2M|York Mills:M2P|Parkdale:M6K|Cabbagetown:M4X"},
	{"Ottawa", "ON", 45421500, -75697200, 50000, 20, "Glebe:K1S|Westboro:K1Z|ByWard Market:K1N|Centretown:K2P|Kanata:K2K K2L K2M K2T|Barrhaven:K2J|Orléans:K1C K1E K4A|Alta Vista:K1G K1H|South Keys:K1V|Bayshore:K2B|Vanier:K1L|Hintonburg:K1Y|Merivale:K2E"},
	{"Hamilton", "ON", 43255700, -79871100, 40000, 10, "Westdale:L8S|Hamilton Mountain:L9A L9B L9C|Stoney Creek:L8G L8J|Ancaster:L9G|Dundas:L9H|Downtown Hamilton:L8P L8R|Waterdown:L8B|East Hamilton:L8K"},
	{"Mississauga", "ON", 43589000, -79644100, 40000, 14, "City Centre:L5B|Erin Mills:L5L|Meadowvale:L5N|Port Credit:L5G L5H|Streetsville:L5M|Malton:L4T|Cooksville:L5A L5C|Churchill Meadows:L5M"},
	{"Brampton", "ON", 43731500, -79762400, 40000, 12, "Bramalea:L6S L6T|Springdale:L6R|Downtown Brampton:L6V L6W|Mount Pleasant:L7A|Castlemore:L6P|Heart Lake:L6Z"},
	{"Kitchener", "ON", 43451600, -80492500, 30000, 9, "Downtown Kitchener:N2G N2H|Forest Heights:N2N|Doon:N2P|Stanley Park:N2A|Laurentian Hills:N2E|Williamsburg:N2R|Highland West:N2M"},
	{"London", "ON", 42984900, -81245300, 40000, 9, "Masonville:N6G|Byron:N6K|Westmount:N6J|Old East Village:N5W|Argyle:N5V|White Oaks:N6E|Hyde Park:N6H|Wortley Village:N6C|Downtown London:N6A N6B"},
	{"Kingston", "ON", 44231200, -76486000, 25000, 4, "Downtown Kingston:K7L|Cataraqui:K7P|Kingston East:K7K|Portsmouth:K7M"},
	{"Sudbury", "ON", 46491700, -80993000, 30000, 4, "Downtown Sudbury:P3C P3E|New Sudbury:P3A|Minnow Lake:P3B|Val Caron:P3N|South End:P3E"},
	{"Guelph", "ON", 43544800, -80248200, 25000, 4, "Stone Road:N1G|Clair-Maltby:N1L|Willow West:N1H|Guelph East:N1E"},
	{"Montréal", "QC", 45501900, -73567400, 50000, 48, "Plateau-Mont-Royal:H2J H2T|Rosemont:H1X H2G|Villeray:H2R|Hochelaga:H1W|Côte-des-Neiges:H3S H3T|Notre-Dame-de-Grâce:H4A H4B|Saint-Henri:H4C|Verdun:H4G H4H|Ahuntsic:H2C H3L|Saint-Laurent:H4L H4M|Anjou:H1K|Montréal-Nord:H1G H1H|LaSalle:H8N H8P|Pointe-Claire:H9R|Mercier:H1L H1M|Outremont:H2V|Saint-Michel:H1Z|Rivière-des-Prairies:H1E"},
	{"Laval", "QC", 45606600, -73712400, 30000, 11, "Chomedey:H7W H7V|Sainte-Rose:H7L|Vimont:H7M|Laval-des-Rapides:H7N|Fabreville:H7P|Duvernay:H7E"},
	{"Longueuil", "QC", 45531200, -73518100, 30000, 10, "Vieux-Longueuil:J4H J4J J4K|Saint-Hubert:J3Y J4T|Greenfield Park:J4V|Lemoyne:J4P"},
	{"Québec", "QC", 46813900, -71208000, 45000, 20, "Saint-Roch:G1K|Limoilou:G1L|Sainte-Foy:G1V G1W G1X|Charlesbourg:G1G G1H|Beauport:G1C G1E|Lebourgneuf:G2K|Les Saules:G1P|Cap-Rouge:G1Y|Vanier:G1M|Sillery:G1S|Montcalm:G1R"},
	{"Gatineau", "QC", 45476500, -75701300, 35000, 9, "Hull:J8X J8Y J8Z|Aylmer:J9H J9J|Le Plateau:J9A|Buckingham:J8L|Gatineau-Est:J8P J8T"},
	{"Sherbrooke", "QC", 45404200, -71892900, 25000, 5, "Fleurimont:J1E J1G|Jacques-Cartier:J1J|Mont-Bellevue:J1H|Rock Forest:J1N|Lennoxville:J1M"},
	{"Trois-Rivières", "QC", 46343000, -72543000, 25000, 5, "Cap-de-la-Madeleine:G8T|Trois-Rivières-Ouest:G8Y G9A|Pointe-du-Lac:G9B|Centre-ville:G9A"},
	{"Vancouver", "BC", 49282700, -123120700, 35000, 30, "Kitsilano:V6K V6J|Mount Pleasant:V5T|Commercial Drive:V5L V5N|West End:V6E V6G|Kerrisdale:V6M|Dunbar:V6S|Marpole:V6P|Cambie Village:V5Z|Hastings-Sunrise:V5K|Killarney:V5S|Downtown Vancouver:V6B V6Z|Point Grey:V6R|Renfrew:V5M|Fraserview:V5P"},
	{"Burnaby", "BC", 49248800, -122980500, 25000, 12, "Metrotown:V5H|Brentwood:V5C|Edmonds:V3N|Lougheed:V3J|Capitol Hill:V5C|Royal Oak:V5J|Burnaby Heights:V5C"},
	{"Surrey", "BC", 49191300, -122849000, 35000, 18, "Guildford:V3R|Fleetwood:V3S V4N|Newton:V3W|Cloverdale:V3S|South Surrey:V4A V4P|Whalley:V3T|Panorama Ridge:V3X"},
	{"Victoria", "BC", 48428400, -123365600, 30000, 13, "James Bay:V8V|Fernwood:V8T|Oak Bay:V8R V8S|Saanich:V8N V8P V8X|Esquimalt:V9A|Langford:V9B|Cook Street Village:V8V|Gordon Head:V8N|Uptown:V8Z"},
	{"Nanaimo", "BC", 49165900, -123940100, 25000, 4, "Nanaimo North:V9T V9V|Downtown Nanaimo:V9R|Departure Bay:V9S"},
	{"Kelowna", "BC", 49888000, -119496000, 30000, 6, "Rutland:V1X|Glenmore:V1V|Downtown Kelowna:V1Y|Mission:V1W"},
	{"Calgary", "AB", 51044700, -114071900, 60000, 30, "Beltline:T2R|Kensington:T2N|Inglewood:T2G|Marda Loop:T2T|Bridgeland:T2E|Signal Hill:T3H|Shawnessy:T2Y|Country Hills:T3K|Crowfoot:T3G|Brentwood:T2L|McKenzie Towne:T2Z|Sage Hill:T3R|Forest Lawn:T2A|Macleod Trail:T2H|Tuscany:T3L|Deer Valley:T2J|Westhills:T3H"},
	{"Edmonton", "AB", 53546100, -113493800, 60000, 30, "Old Strathcona:T6E|Oliver:T5K|Summerside:T6X|Windermere:T6W|Terwillegar:T6R|Clareview:T5A|Castle Downs:T5X|West Edmonton:T5T|Mill Woods:T6K T6L|Capilano:T6A|Belvedere:T5B|Kingsway:T5G|South Edmonton Common:T6N|Meadowlark:T5R|Callingwood:T5T"},
	{"Red Deer", "AB", 52268100, -113811200, 25000, 4, "Downtown Red Deer:T4N|Clearview:T4P|Gasoline Alley:T4E|Bower:T4R"},
	{"Lethbridge", "AB", 49693500, -112841800, 25000, 4, "West Lethbridge:T1K|North Lethbridge:T1H|South Lethbridge:T1J"},
	{"Winnipeg", "MB", 49895100, -97138400, 50000, 20, "St. Vital:R2M|Osborne Village:R3L|St. Boniface:R2H|Transcona:R2C|River Heights:R3N|Kildonan:R2G R2K|St. James:R3J|Polo Park:R3G|Fort Garry:R3T|Garden City:R2V|Charleswood:R3R|Exchange District:R3B|Sage Creek:R3X|Tuxedo:R3P|Waverley West:R3Y|Westwood:R3K"},
	{"Thompson", "MB", 55743500, -97855800, 8000, 0, "Thompson:R8N"},
	{"Regina", "SK", 50445200, -104618900, 35000, 10, "Cathedral:S4T|Harbour Landing:S4W|Normanview:S4R|Lakeview:S4S|Glencairn:S4V|Eastgate:S4Z|Downtown Regina:S4P|Uplands:S4R"},
	{"Saskatoon", "SK", 52133200, -106670000, 35000, 11, "Broadway:S7H|Stonebridge:S7T|Lawson Heights:S7K|Confederation:S7L|Market Mall:S7J|Riversdale:S7M|Evergreen:S7W|Preston Crossing:S7N|University Heights:S7V"},
	{"Halifax", "NS", 44648800, -63575200, 35000, 10, "South End:B3H|North End:B3K|Clayton Park:B3M|Bedford:B4A|Spryfield:B3R|Quinpool:B3L|Bayers Lake:B3S|Fairview:B3N"},
	{"Dartmouth", "NS", 44671300, -63577200, 25000, 5, "Dartmouth Crossing:B3B|Penhorn:B2W|Downtown Dartmouth:B2Y|Cole Harbour:B2V"},
	{"Moncton", "NB", 46087800, -64778200, 25000, 10, "Mountain Road:E1C|Dieppe:E1A|Trinity Drive:E1G|Main Street:E1C|Northwest Moncton:E1E"},
	{"Saint John", "NB", 45273300, -66063300, 25000, 8, "Uptown Saint John:E2L|West Saint John:E2M|East Saint John:E2J|Millidgeville:E2K"},
	{"Fredericton", "NB", 45963600, -66643100, 25000, 7, "Downtown Fredericton:E3B|Northside:E3A|Uptown Fredericton:E3C|Skyline Acres:E3B"},
	{"Charlottetown", "PE", 46238200, -63131100, 20000, 10, "Downtown Charlottetown:C1A|West Royalty:C1E|East Royalty:C1C|Stratford:C1B|Sherwood:C1A"},
	{"St. John's", "NL", 47561500, -52712600, 25000, 10, "Downtown St. John's:A1C|Kenmount Road:A1B|Stavanger Drive:A1A|Torbay Road:A1A|Topsail Road:A1E|Elizabeth Avenue:A1B|Mount Pearl:A1N"},
	{"Whitehorse", "YT", 60720000, -135060000, 10000, 1, "Downtown Whitehorse:Y1A|Riverdale:Y1A|Porter Creek:Y1A|Qwanlin:Y1A"},
	{"Yellowknife", "NT", 62450000, -114370000, 8000, 1, "Downtown Yellowknife:X1A|Range Lake:X1A|Frame Lake:X1A"},
	{"Hay River", "NT", 60815600, -115799900, 6000, 0, "Hay River:X0E"},
	{"Inuvik", "NT", 68360700, -133723000, 6000, 0, "Inuvik:X0E"},
	{"Iqaluit", "NU", 63750000, -68520000, 6000, 1, "Iqaluit:X0A"},
	{"Rankin Inlet", "NU", 62809000, -92085300, 5000, 0, "Rankin Inlet:X0C"},
	{"Cambridge Bay", "NU", 69116900, -105059700, 5000, 0, "Cambridge Bay:X0B"},
}

// demoBrand rows: "Brand|company prefix|private-label owner|provinces|price level".
// The prefix is six digits of a 0-prefixed UPC-A or seven of a GS1 Canada
// EAN-13 (754/755). A private label is carried only by its owner's banners;
// a brand with provinces is sold only there.
var demoBrandRows = []string{
	// Private labels.
	"President's Choice|060383|Loblaw||9200",
	"no name|060383|Loblaw||7200",
	"Compliments|055742|Empire||8400",
	"Selection|059749|Metro||8000",
	"Irresistibles|059749|Metro||9500",
	"Great Value|062891|Walmart||7600",
	"Western Family|062639|Pattison||8400",
	"Kirkland Signature|096619|Costco||8000",
	"Giant Value|057836|Giant Tiger||7500",
	"Co-op Gold|059319|Federated Co-operatives||8600",
	// Dairy.
	"Natrel|064420|||10400",
	"Québon|064420||QC|10000",
	"Sealtest|064420||ON|10000",
	"Farmers|064420||NS NB PE NL|10100",
	"Lactantia|066013||QC ON|10500",
	"Beatrice|066013||ON|9900",
	"Black Diamond|066013|||10000",
	"Balderson|066013|||10600",
	"Astro|066013|||9800",
	"Neilson|068700||ON|10000",
	"Dairyland|068700||BC AB SK MB|10000",
	"Armstrong|068700|||9900",
	"Island Farms|064721||BC|10300",
	"Foothills Creamery|7548621||AB BC SK|10800",
	"Gay Lea|062050|||10000",
	"Nordica|062050|||10000",
	"Cracker Barrel|068100|||10400",
	"Philadelphia|068100|||10200",
	"Kraft|068100|||10000",
	"Yoplait|065633|||10000",
	"Danone|056800|||10100",
	"Oikos|056800|||10800",
	"iögo|064420|||9900",
	"Liberté|065684|||10700",
	"Olympic|062672||BC AB|10200",
	"Babybel|057389|||10000",
	"Oka|7541298||QC|10000",
	"Damafro|7541298||QC|10000",
	"Burnbrae Farms|062209|||10000",
	"Naturegg|062209|||10600",
	"Gray Ridge|061179||ON|9800",
	"Becel|056800|||10000",
	"Imperial|056810|||9000",
	// Bakery.
	"Dempster's|068721|||10000",
	"Wonder|068721|||9600",
	"Villaggio|068721|||10200",
	"D'Italiano|068721||ON|10200",
	"POM|068721||QC NB NS PE NL|9800",
	"Bon Matin|068721||QC|9800",
	"Country Harvest|057864|||10300",
	"Silver Hills|062821||BC AB SK MB ON|11000",
	"Ben's|056163||NS NB PE NL|9800",
	"Gadoua|058396||QC|9700",
	"Boulangerie St-Méthode|7557390||QC|10100",
	"Vachon|064853|||10000",
	// Snacks.
	"Lay's|060410|||10000",
	"Miss Vickie's|060410|||10300",
	"Ruffles|060410|||10000",
	"Doritos|060410|||10000",
	"Cheetos|060410|||10000",
	"Tostitos|060410|||10000",
	"Old Dutch|057100||BC AB SK MB ON|9800",
	"Humpty Dumpty|057100||QC NB NS PE NL|9800",
	"Covered Bridge|7553988||NB NS PE NL|10400",
	"Pringles|064100|||10000",
	"Oreo|066721|||10000",
	"Ritz|066721|||10000",
	"Triscuit|066721|||10000",
	"Chips Ahoy!|066721|||10000",
	"Christie|066721|||10000",
	"Dare|055712|||10000",
	"Leclerc|058340|||10000",
	"Coffee Crisp|055000|||10000",
	"Kit Kat|055000|||10000",
	"Aero|055000|||10000",
	"Caramilk|068240|||10000",
	"Crispy Crunch|068240|||10000",
	"Mr. Big|068240|||10000",
	"Oh Henry!|056600|||10000",
	"Ganong|7553146||NB NS PE NL|10000",
	"Maynards|068240|||10000",
	"Orville Redenbacher|064300|||10000",
	"Nature Valley|065633|||10000",
	"Made Good|7556120|||10600",
	"Sun-Rype|060465||BC AB SK MB|10000",
	"Planters|068100|||10000",
	// Beverages.
	"Tropicana|068120|||10200",
	"Oasis|067311|||9900",
	"Allen's|057800|||9500",
	"Simply|067000|||10300",
	"Minute Maid|067000|||9800",
	"Rougemont|057800||QC|9700",
	"Canada Dry|069000|||10000",
	"Schweppes|069000|||10000",
	"Coca-Cola|067000|||10000",
	"Pepsi|069000|||10000",
	"7UP|069000|||10000",
	"Sprite|067000|||10000",
	"Crush|069000|||10000",
	"A&W|069000|||10000",
	"Brio|063346||ON QC|10200",
	"Bubly|069000|||10000",
	"Perrier|068274|||10000",
	"Eska|063012||QC ON|10000",
	"Naya|063012||QC|9800",
	"Nestlé Pure Life|068274|||9800",
	"Ice River Springs|062118||ON|9500",
	"Gatorade|055577|||10000",
	"Lipton|068700|||10000",
	"Nestea|068274|||10000",
	"Tim Hortons|062911|||10000",
	"Nabob|057600|||9900",
	"Maxwell House|068100|||9400",
	"Folgers|063530|||9500",
	"Van Houtte|059876||QC ON|10400",
	"Kicking Horse|062662|||11200",
	"Starbucks|076210|||11500",
	"McCafé|063530|||10200",
	"Red Rose|056000|||10000",
	"Tetley|057000|||10000",
	"Salada|056000|||9900",
	"King Cole|7552254||NB NS PE NL|9800",
	"Carnation|055000|||10000",
	"Nesquik|055000|||10000",
	// Pantry.
	"Kraft Dinner|068100|||10000",
	"Catelli|064200|||10000",
	"Primo|058320|||9800",
	"Unico|058160|||9600",
	"Barilla|076808|||10400",
	"Italpasta|062356||ON QC|9200",
	"Classico|068100|||10300",
	"Prego|063211|||10000",
	"Ragú|056200|||9800",
	"Aylmer|064200|||10000",
	"Hunt's|064200|||9800",
	"Clark|064200|||9800",
	"Heinz|057000|||10000",
	"Habitant|063211|||10000",
	"Campbell's|063211|||10000",
	"Clover Leaf|064124|||10000",
	"Gold Seal|064124|||10400",
	"Kellogg's|064100|||10000",
	"Post|062809|||10000",
	"General Mills|065633|||10000",
	"Quaker|055577|||10000",
	"Robin Hood|063451|||10000",
	"Five Roses|063451||QC|9800",
	"Nature's Path|058449|||10800",
	"Redpath|059158||ON QC NB NS PE NL|10000",
	"Rogers|055759||BC AB SK MB YT NT|10000",
	"Lantic|059158||QC NB NS PE NL|10000",
	"Crosby's|056345|||10000",
	"Arm & Hammer|066047|||10000",
	"Chipits|056600|||10000",
	"Club House|066200|||10000",
	"Mazola|063352|||10000",
	"Crisco|066340|||10000",
	"Bertolli|064125|||10800",
	"French's|066200|||10000",
	"Hellmann's|068400|||10000",
	"Miracle Whip|068100|||10000",
	"Bick's|066340|||10000",
	"Diana|057000|||10000",
	"VH|068400|||10000",
	"Kikkoman|061390|||10000",
	"Old El Paso|065633|||10000",
	"Skippy|063352|||10000",
	"Nutella|062020|||10000",
	"E.D. Smith|066340|||10000",
	"Smucker's|066340|||10000",
	"Billy Bee|062353|||10000",
	"Bee Maid|062353||BC AB SK MB|9800",
	"Jakeman's|7556304||ON|10000",
	"Citadelle|7552731||QC|9900",
	"Ben's Original|054800|||10000",
	"Dainty|068233|||9800",
	// Frozen.
	"McCain|055000|||10000",
	"Cavendish Farms|057163|||9700",
	"Delissio|069700|||10000",
	"Dr. Oetker|057121|||10400",
	"Pizza Pops|065633|||10000",
	"Green Giant|063211|||10000",
	"Europe's Best|062356|||10300",
	"High Liner|062312|||10000",
	"Chapman's|066441|||10000",
	"Breyers|068400|||10100",
	"Häagen-Dazs|074570|||11000",
	"Drumstick|055000|||10000",
	"Kawartha Dairy|7550172||ON|10600",
	"Coaticook|7541547||QC|10500",
	"Ben & Jerry's|076840|||11000",
	"Stouffer's|055000|||10000",
	"Michelina's|060620|||9500",
	"Eggo|064100|||10000",
	"Janes|062700|||10000",
	"Pinty's|062456||ON|10200",
	"Tenderflake|066340|||10000",
	// Meat & Deli.
	"Maple Leaf|063100|||10000",
	"Maple Leaf Prime|063100|||10400",
	"Schneiders|062700|||10000",
	"Olymel|067592||QC ON|9800",
	"Harvest|062789||BC AB SK MB|9900",
	"Lilydale|062700|||10000",
	"Lafleur|067592||QC|9700",
	"Fletcher's|062789||BC AB SK MB|10000",
	"Piller's|064345||ON|10300",
	"Flamingo|067592||QC|10000",
	"Johnsonville|077782|||10200",
	"Yves Veggie Cuisine|063100|||10000",
	"Fontaine Santé|7541825|||10000",
	"Sabra|064560|||10000",
	// Household.
	"Cashmere|062465|||10000",
	"Royale|062465|||9800",
	"SpongeTowels|062465|||9800",
	"Scotties|062465|||9700",
	"Purex|062465|||9000",
	"Charmin|037000|||10200",
	"Bounty|037000|||10300",
	"Cascades|061998||QC ON|9400",
	"Kleenex|036000|||10200",
	"Tide|037000|||10500",
	"Gain|037000|||10000",
	"Sunlight|068300|||9300",
	"Downy|037000|||10000",
	"Bounce|037000|||10000",
	"Dawn|037000|||10000",
	"Palmolive|058000|||9800",
	"Cascade|037000|||10000",
	"Finish|062338|||10200",
	"Javex|060521|||10000",
	"Lysol|062338|||10000",
	"Mr. Clean|037000|||10000",
	"Windex|066500|||10000",
	"Vim|068400|||10000",
	"Glad|060521|||10000",
	"Ziploc|066500|||10000",
	// Baby.
	"Pampers|037000|||10300",
	"Huggies|036000|||10100",
	"Similac|055325|||10000",
	"Enfamil|056796|||10100",
	"Nestlé Good Start|055000|||9800",
	"Baby Gourmet|7558093|||10000",
	"Love Child Organics|7552790|||10000",
	// Personal care.
	"Colgate|035000|||10000",
	"Crest|037000|||10000",
	"Sensodyne|060915|||11000",
	"Pantene|037000|||10000",
	"Head & Shoulders|037000|||10300",
	"Herbal Essences|037000|||9800",
	"Dove|067900|||10000",
	"Garnier Fructis|060361|||9800",
	"Live Clean|7558831|||10300",
	"Irish Spring|035000|||10000",
	"Ivory|037000|||9500",
	"Old Spice|037000|||10000",
	"Nivea|063456|||10000",
	"Secret|037000|||10000",
	"Degree|067900|||10000",
	"Speed Stick|035000|||9600",
	"Gillette|067400|||10500",
	"Always|037000|||10000",
	"Tampax|037000|||10000",
	"Vaseline|067900|||10000",
	"Aveeno|062600|||10700",
	"Listerine|062600|||10000",
	// Pet.
	"Purina|017800|||10000",
	"Iams|019014|||10500",
	"Pedigree|058496|||9800",
	"Whiskas|058496|||9800",
	"Temptations|058496|||10000",
	"Milk-Bone|079100|||10000",
	// Produce.
	"Dole|071430|||10000",
	"Fresh Express|071279|||10000",
	"Earthbound Farm|032601|||10800",
}

// demoLine is a product line: every brand of the line is offered in every
// item. An item is "Name|Size|cents" or "Name|Size|cents|Nom": the English
// name, the regular price of a national brand at an Ontario full-service
// banner (a "*" after it marks a staple that nearly every banner carries)
// and, where the tables give one, the French name of the bilingual label.
type demoLine struct {
	category string
	brands   string // "; "-separated
	items    []string
}

var demoLineTable = []demoLine{
	// Dairy & Eggs.
	{"Dairy & Eggs", "Natrel; Lactantia; Sealtest; Neilson; Beatrice; Dairyland; Island Farms; Farmers; Foothills Creamery; President's Choice; Compliments; Selection; Great Value; Western Family; Co-op Gold; Giant Value",
		[]string{"2% Partly Skimmed Milk|4 L|689*|Lait partiellement écrémé 2 %", "1% Partly Skimmed Milk|4 L|689|Lait partiellement écrémé 1 %", "Skim Milk|2 L|529|Lait écrémé", "3.25% Homogenized Milk|2 L|579|Lait homogénéisé 3,25 %", "2% Partly Skimmed Milk|1 L|329|Lait partiellement écrémé 2 %"}},
	{"Dairy & Eggs", "Québon",
		[]string{"Lait partiellement écrémé 2 %|4 L|699", "Lait écrémé|2 L|539", "Lait homogénéisé 3,25 %|2 L|589", "Crème à cuisson 15 %|473 mL|389", "Lait au chocolat|1 L|379"}},
	{"Dairy & Eggs", "Neilson; Natrel; Dairyland; Sealtest; Farmers; Island Farms",
		[]string{"1% Chocolate Partly Skimmed Milk|1 L|389|Lait au chocolat partiellement écrémé 1 %"}},
	{"Dairy & Eggs", "Lactantia; Natrel; Dairyland; President's Choice; Great Value",
		[]string{"Lactose Free 2% Milk|2 L|619|Lait sans lactose 2 %"}},
	{"Dairy & Eggs", "Natrel; Sealtest; Beatrice; Dairyland; Lactantia; Farmers; Compliments; President's Choice; Great Value; Selection",
		[]string{"10% Half & Half Cream|1 L|449|Crème 10 %", "35% Whipping Cream|473 mL|499|Crème à fouetter 35 %", "18% Table Cream|473 mL|399|Crème de table 18 %"}},
	{"Dairy & Eggs", "Gay Lea; Lactantia; Natrel; Foothills Creamery; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Kirkland Signature; Co-op Gold",
		[]string{"Salted Butter|454 g|699*|Beurre salé", "Unsalted Butter|454 g|699|Beurre non salé"}},
	{"Dairy & Eggs", "Gay Lea", []string{"Spreadables Butter with Canola Oil|454 g|649"}},
	{"Dairy & Eggs", "Becel; Imperial; no name", []string{"Original Margarine|907 g|749", "Soft Margarine|850 g|599"}},
	{"Dairy & Eggs", "Gay Lea; Sealtest; Natrel; Lactantia; Western Family; Compliments; President's Choice; Great Value",
		[]string{"14% Sour Cream|500 mL|299|Crème sure 14 %", "Light Sour Cream 7%|500 mL|299|Crème sure légère 7 %"}},
	{"Dairy & Eggs", "Nordica; Sealtest; Dairyland", []string{"2% Cottage Cheese|500 g|449"}},
	{"Dairy & Eggs", "Black Diamond; Cracker Barrel; Balderson; Armstrong; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Co-op Gold; Kirkland Signature",
		[]string{"Medium Cheddar Cheese|400 g|749*", "Old Cheddar Cheese|400 g|799", "Marble Cheddar Cheese|400 g|749", "Mozzarella Cheese|400 g|699", "Shredded Tex Mex Cheese Blend|320 g|699"}},
	{"Dairy & Eggs", "Kraft", []string{"Singles Processed Cheese Slices|410 g|599", "Parmesan Grated Cheese|250 g|799"}},
	{"Dairy & Eggs", "Philadelphia; President's Choice; no name; Great Value; Compliments; Selection",
		[]string{"Original Cream Cheese|250 g|499", "Light Cream Cheese|250 g|499"}},
	{"Dairy & Eggs", "Damafro", []string{"Fromage à la crème|250 g|479", "Brie double crème|200 g|699"}},
	{"Dairy & Eggs", "Oka", []string{"Fromage à pâte demi-ferme classique|200 g|899"}},
	{"Dairy & Eggs", "Babybel", []string{"Original Mini Cheeses|12 x 20 g|749"}},
	{"Dairy & Eggs", "Yoplait; Danone; Oikos; iögo; Liberté; Astro; Olympic; President's Choice; Compliments; Selection; Great Value",
		[]string{"Vanilla Yogurt|650 g|449|Yogourt à la vanille", "Strawberry Yogurt|650 g|449|Yogourt aux fraises", "Plain Greek Yogurt 0%|650 g|599|Yogourt grec nature 0 %", "Fruit Bottom Yogurt|16 x 100 g|849|Yogourt fruits au fond"}},
	{"Dairy & Eggs", "Burnbrae Farms; Naturegg; Gray Ridge; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Co-op Gold",
		[]string{"Large White Eggs|12 eggs|429*", "Large Brown Eggs|12 eggs|479", "Omega-3 Large Eggs|12 eggs|599", "Large White Eggs|30 eggs|999"}},

	// Bakery.
	{"Bakery", "Dempster's; Wonder; POM; Bon Matin; Country Harvest; Ben's; Gadoua; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Co-op Gold",
		[]string{"100% Whole Wheat Bread|675 g|379*|Pain 100 % blé entier", "White Bread|675 g|349|Pain blanc", "12 Grain Bread|600 g|429|Pain 12 grains", "Hot Dog Buns|340 g|329|Pains à hot-dog"}},
	{"Bakery", "Villaggio; D'Italiano", []string{"Thick Sliced White Bread|675 g|399", "Thick Sliced Whole Wheat Bread|675 g|399"}},
	{"Bakery", "Silver Hills", []string{"Squirrelly Sprouted Bread|615 g|599", "The Big 16 Sprouted Bread|615 g|599"}},
	{"Bakery", "Dempster's; President's Choice; Great Value; Compliments",
		[]string{"Plain Bagels|6 x 85 g|449", "Original English Muffins|6 x 57 g|399", "Original Large Tortillas|10 x 61 g|499"}},
	{"Bakery", "Vachon", []string{"Jos Louis Cakes|12 x 54 g|599|Petits gâteaux Jos Louis", "May West Cakes|12 x 52 g|599|Petits gâteaux May West", "Ah Caramel! Cakes|12 x 48 g|599|Petits gâteaux Ah Caramel!"}},
	{"Bakery", "President's Choice; Compliments; Selection; Great Value", []string{"Butter Croissants|6 x 45 g|549"}},
	{"Bakery", "Boulangerie St-Méthode", []string{"Pain de blé entier|675 g|399", "Pain blanc tranché|675 g|379"}},

	// Snacks.
	{"Snacks", "Lay's; Old Dutch; Humpty Dumpty; Covered Bridge; President's Choice; no name; Compliments; Great Value; Western Family; Selection",
		[]string{"Classic Potato Chips|235 g|479*", "Sour Cream & Onion Potato Chips|235 g|479", "Ketchup Potato Chips|235 g|479", "Salt & Vinegar Potato Chips|235 g|479", "All Dressed Potato Chips|235 g|479"}},
	{"Snacks", "Miss Vickie's", []string{"Original Kettle Cooked Potato Chips|200 g|479", "Sea Salt & Malt Vinegar Kettle Cooked Potato Chips|200 g|479", "Jalapeño Kettle Cooked Potato Chips|200 g|479"}},
	{"Snacks", "Ruffles", []string{"All Dressed Potato Chips|200 g|479", "Original Potato Chips|200 g|479"}},
	{"Snacks", "Doritos", []string{"Nacho Cheese Tortilla Chips|255 g|479", "Cool Ranch Tortilla Chips|255 g|479"}},
	{"Snacks", "Cheetos", []string{"Crunchy Cheese Snacks|285 g|479"}},
	{"Snacks", "Tostitos", []string{"Scoops Tortilla Chips|295 g|549", "Medium Chunky Salsa|418 mL|499"}},
	{"Snacks", "Pringles", []string{"Original Potato Crisps|156 g|329", "Sour Cream & Onion Potato Crisps|156 g|329"}},
	{"Snacks", "Oreo", []string{"Original Sandwich Cookies|303 g|429"}},
	{"Snacks", "Ritz", []string{"Original Crackers|200 g|429"}},
	{"Snacks", "Triscuit", []string{"Original Whole Grain Crackers|200 g|429"}},
	{"Snacks", "Chips Ahoy!", []string{"Original Chocolate Chip Cookies|258 g|429"}},
	{"Snacks", "Dare", []string{"Breton Original Crackers|225 g|379", "Bear Paws Chocolate Chip Cookies|240 g|399", "Maple Leaf Creme Cookies|350 g|449"}},
	{"Snacks", "Leclerc", []string{"Célébration biscuits au chocolat au lait|240 g|449"}},
	{"Snacks", "Christie; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Chocolate Chip Cookies|300 g|399", "Salted Tops Soda Crackers|450 g|399", "Vanilla Sandwich Cookies|350 g|349"}},
	{"Snacks", "Coffee Crisp; Kit Kat; Aero; Caramilk; Crispy Crunch; Mr. Big; Oh Henry!",
		[]string{"Chocolate Bars Multipack|4 x 50 g|499"}},
	{"Snacks", "Ganong", []string{"Chicken Bones Cinnamon Candies|200 g|449", "Delecto Assorted Chocolates|200 g|1299"}},
	{"Snacks", "Maynards", []string{"Swedish Berries Candy|315 g|399", "Fuzzy Peach Candy|315 g|399"}},
	{"Snacks", "Orville Redenbacher", []string{"Butter Microwave Popcorn|6 x 82 g|599"}},
	{"Snacks", "Nature Valley", []string{"Crunchy Oats & Honey Granola Bars|230 g|449"}},
	{"Snacks", "Made Good", []string{"Chocolate Chip Granola Minis|120 g|449"}},
	{"Snacks", "Sun-Rype", []string{"Fruit to Go Strawberry Fruit Snacks|12 x 14 g|549"}},
	{"Snacks", "Planters; President's Choice; Great Value; Compliments",
		[]string{"Salted Peanuts|500 g|549", "Deluxe Mixed Nuts|500 g|999"}},

	// Beverages.
	{"Beverages", "Tropicana; Oasis; Allen's; Sun-Rype; Simply; Minute Maid; Rougemont; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Orange Juice No Pulp|1.54 L|499*|Jus d'orange sans pulpe", "Apple Juice|1.75 L|369|Jus de pomme", "Orange Juice Some Pulp|2.5 L|699|Jus d'orange un peu de pulpe"}},
	{"Beverages", "Canada Dry; Schweppes; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Ginger Ale|12 x 355 mL|799*", "Ginger Ale|2 L|279", "Club Soda|2 L|249"}},
	{"Beverages", "Coca-Cola; Pepsi",
		[]string{"Cola|12 x 355 mL|849*", "Zero Sugar Cola|12 x 355 mL|849", "Cola|2 L|299", "Cola|6 x 710 mL|899"}},
	{"Beverages", "7UP; Sprite", []string{"Lemon-Lime Soda|12 x 355 mL|799", "Lemon-Lime Soda|2 L|299"}},
	{"Beverages", "Crush", []string{"Orange Soda|12 x 355 mL|799"}},
	{"Beverages", "A&W", []string{"Root Beer|12 x 355 mL|799"}},
	{"Beverages", "Brio", []string{"Chinotto|2 L|399"}},
	{"Beverages", "Bubly", []string{"Lime Sparkling Water|12 x 355 mL|599"}},
	{"Beverages", "Perrier", []string{"Sparkling Natural Mineral Water|10 x 250 mL|699"}},
	{"Beverages", "Eska; Naya; Nestlé Pure Life; Ice River Springs; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Kirkland Signature",
		[]string{"Natural Spring Water|24 x 500 mL|399*"}},
	{"Beverages", "Gatorade", []string{"Fruit Punch Sports Drink|710 mL|249", "Lemon-Lime Sports Drink|6 x 591 mL|799"}},
	{"Beverages", "Lipton; Nestea", []string{"Lemon Iced Tea|2 L|299"}},
	{"Beverages", "Tim Hortons; Nabob; Maxwell House; Folgers; Van Houtte; Kicking Horse; Starbucks; McCafé; President's Choice; Compliments; Selection; Great Value; Western Family; Kirkland Signature",
		[]string{"Original Blend Ground Coffee|930 g|1799*|Café moulu mélange original", "Dark Roast Ground Coffee|340 g|999|Café moulu torréfaction foncée", "Medium Roast Coffee Pods|30 pods|2199|Capsules de café torréfaction moyenne"}},
	{"Beverages", "Red Rose; Tetley; Salada; King Cole; Lipton; President's Choice; no name; Compliments; Great Value",
		[]string{"Orange Pekoe Tea|72 tea bags|599*", "Green Tea|20 tea bags|399"}},
	{"Beverages", "Carnation", []string{"Rich & Chocolatey Hot Chocolate|450 g|599"}},
	{"Beverages", "Nesquik", []string{"Chocolate Powder|500 g|599"}},

	// Pantry.
	{"Pantry", "Kraft Dinner", []string{"Original Macaroni & Cheese|200 g|179*", "Original Macaroni & Cheese|12 x 200 g|1599", "Spirals Macaroni & Cheese|200 g|199", "Thick & Creamy Macaroni & Cheese|200 g|199"}},
	{"Pantry", "no name; Great Value; Compliments; Selection; Western Family; Giant Value", []string{"Macaroni & Cheese Dinner|225 g|99"}},
	{"Pantry", "Catelli; Primo; Unico; Barilla; Italpasta; President's Choice; no name; Compliments; Selection; Great Value; Western Family; Co-op Gold",
		[]string{"Spaghetti|900 g|299*", "Penne Rigate|900 g|299", "Fettuccine|900 g|299", "Elbow Macaroni|900 g|299"}},
	{"Pantry", "Classico; Prego; Ragú; Primo; Catelli; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Tomato & Basil Pasta Sauce|650 mL|349", "Traditional Pasta Sauce|680 mL|349"}},
	{"Pantry", "Aylmer; Primo; Unico; Hunt's; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Diced Tomatoes|796 mL|199", "Crushed Tomatoes|796 mL|199", "Tomato Paste|156 mL|119"}},
	{"Pantry", "Primo; Unico; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"Chickpeas|540 mL|149", "Red Kidney Beans|540 mL|149", "Black Beans|540 mL|149"}},
	{"Pantry", "Clark; Heinz; no name; Great Value; Compliments", []string{"Beans with Pork in Tomato Sauce|398 mL|169"}},
	{"Pantry", "Habitant", []string{"Soupe aux pois|796 mL|299", "Soupe aux légumes|796 mL|299"}},
	{"Pantry", "Campbell's", []string{"Chicken Noodle Condensed Soup|284 mL|149*", "Tomato Condensed Soup|284 mL|139", "Cream of Mushroom Condensed Soup|284 mL|149", "Chunky Chicken Noodle Soup|540 mL|349"}},
	{"Pantry", "President's Choice; no name; Compliments; Great Value; Selection",
		[]string{"Chicken Noodle Soup|540 mL|199", "Tomato Soup|284 mL|99"}},
	{"Pantry", "Campbell's; President's Choice; Compliments; Great Value; Selection; Western Family",
		[]string{"Chicken Broth|900 mL|279", "Beef Broth|900 mL|279", "Vegetable Broth|900 mL|279"}},
	{"Pantry", "Clover Leaf; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Chunk Light Tuna in Water|170 g|199*", "Solid White Albacore Tuna in Water|170 g|349"}},
	{"Pantry", "Gold Seal; Clover Leaf", []string{"Red Sockeye Salmon|213 g|649", "Pink Salmon|213 g|399"}},
	{"Pantry", "Kellogg's", []string{"Corn Flakes Cereal|510 g|549", "Vector Meal Replacement Cereal|850 g|899", "Special K Original Cereal|435 g|599", "Frosted Mini-Wheats Original Cereal|700 g|699", "Raisin Bran Cereal|600 g|599", "Froot Loops Cereal|345 g|549", "Rice Krispies Cereal|340 g|549"}},
	{"Pantry", "Post", []string{"Shreddies Cereal|715 g|599", "Honey Bunches of Oats Cereal|400 g|599", "Alpha-Bits Cereal|360 g|549"}},
	{"Pantry", "General Mills", []string{"Cheerios Cereal|570 g|649*", "Honey Nut Cheerios Cereal|555 g|649", "Lucky Charms Cereal|500 g|649", "Cinnamon Toast Crunch Cereal|555 g|649"}},
	{"Pantry", "Quaker", []string{"Large Flake Oats|1 kg|449", "Quick Oats|1 kg|449", "Harvest Crunch Original Granola|700 g|599", "Maple & Brown Sugar Instant Oatmeal|10 x 43 g|449", "Chewy Chocolate Chip Granola Bars|156 g|399"}},
	{"Pantry", "Nature's Path", []string{"Organic Heritage Flakes Cereal|375 g|599"}},
	{"Pantry", "President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Corn Flakes Cereal|750 g|399", "Toasted Oat Rings Cereal|525 g|399", "Large Flake Oats|1 kg|329"}},
	{"Pantry", "Robin Hood; Five Roses; President's Choice; no name; Compliments; Selection; Great Value; Western Family",
		[]string{"All Purpose Flour|2.5 kg|599*", "Whole Wheat Flour|2.5 kg|649"}},
	{"Pantry", "Redpath; Rogers; Lantic; no name; Great Value; Compliments; Selection; Western Family",
		[]string{"Granulated White Sugar|2 kg|349*", "Golden Yellow Sugar|1 kg|279", "Icing Sugar|1 kg|299"}},
	{"Pantry", "Crosby's", []string{"Fancy Molasses|500 mL|499"}},
	{"Pantry", "Arm & Hammer", []string{"Baking Soda|500 g|249"}},
	{"Pantry", "Chipits", []string{"Semi-Sweet Chocolate Chips|300 g|449"}},
	{"Pantry", "Club House", []string{"La Grille Montreal Steak Spice|175 g|599", "Ground Cinnamon|38 g|349", "Pure Vanilla Extract|43 mL|799", "Ground Black Pepper|100 g|499"}},
	{"Pantry", "Mazola; Crisco; Bertolli; President's Choice; no name; Compliments; Great Value; Selection; Western Family; Kirkland Signature",
		[]string{"Canola Oil|3 L|1099*", "Extra Virgin Olive Oil|1 L|1399"}},
	{"Pantry", "Heinz", []string{"Tomato Ketchup|1 L|449*", "Tomato Ketchup|750 mL|399", "Yellow Mustard|400 mL|249"}},
	{"Pantry", "French's", []string{"Tomato Ketchup|750 mL|399", "Classic Yellow Mustard|400 mL|249"}},
	{"Pantry", "Hellmann's", []string{"Real Mayonnaise|890 mL|749", "Light Mayonnaise|890 mL|749"}},
	{"Pantry", "Miracle Whip", []string{"Original Dressing|890 mL|649"}},
	{"Pantry", "Kraft", []string{"Zesty Italian Dressing|475 mL|399", "Smooth Peanut Butter|1 kg|649*", "Crunchy Peanut Butter|1 kg|649"}},
	{"Pantry", "President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Ketchup|1 L|249", "Real Mayonnaise|890 mL|449", "Smooth Peanut Butter|1 kg|449"}},
	{"Pantry", "Bick's", []string{"Wine Dill Pickles|1 L|449", "Yum Yum Sweet Mixed Pickles|1 L|449"}},
	{"Pantry", "Diana", []string{"Original Gourmet BBQ Sauce|500 mL|349"}},
	{"Pantry", "VH", []string{"Sweet & Sour Garlic Cooking Sauce|341 mL|349", "Honey Garlic Sauce|341 mL|349"}},
	{"Pantry", "Kikkoman", []string{"Naturally Brewed Soy Sauce|591 mL|549"}},
	{"Pantry", "Old El Paso", []string{"Hard & Soft Taco Dinner Kit|350 g|599", "Thick 'n Chunky Medium Salsa|650 mL|449", "Taco Seasoning Mix|24 g|149"}},
	{"Pantry", "Skippy", []string{"Creamy Peanut Butter|1 kg|649"}},
	{"Pantry", "Nutella", []string{"Hazelnut Spread with Cocoa|725 g|699"}},
	{"Pantry", "E.D. Smith; Smucker's; President's Choice; no name; Compliments; Great Value",
		[]string{"Strawberry Jam|500 mL|449", "Raspberry Jam|500 mL|449"}},
	{"Pantry", "Billy Bee; Bee Maid; President's Choice; Great Value",
		[]string{"Pure Liquid Honey|500 g|699", "Creamed Honey|500 g|699"}},
	{"Pantry", "Jakeman's; Citadelle; President's Choice; Selection; Great Value; Kirkland Signature",
		[]string{"Pure Maple Syrup Amber|540 mL|1099"}},
	{"Pantry", "Dainty; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Long Grain White Rice|2 kg|549", "Basmati Rice|2 kg|899"}},
	{"Pantry", "Ben's Original", []string{"Converted Long Grain Rice|900 g|449", "Whole Grain Brown Rice|900 g|449"}},

	// Frozen.
	{"Frozen", "McCain; Cavendish Farms; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Straight Cut French Fries|1 kg|399*", "Crinkle Cut French Fries|1 kg|399"}},
	{"Frozen", "McCain", []string{"Deep'n Delicious Chocolate Cake|510 g|549", "Superfries Straight Cut|650 g|429"}},
	{"Frozen", "Delissio; Dr. Oetker; President's Choice; Compliments; Great Value; Selection; Western Family",
		[]string{"Rising Crust Pepperoni Pizza|778 g|799*", "Thin Crust Four Cheese Pizza|360 g|599"}},
	{"Frozen", "Pizza Pops", []string{"Pepperoni Pizza Snacks|4 x 190 g|749", "Deluxe Pizza Snacks|4 x 190 g|749"}},
	{"Frozen", "McCain; Green Giant; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Mixed Vegetables|750 g|299", "Sweet Peas|750 g|299", "Broccoli Florets|500 g|349"}},
	{"Frozen", "Europe's Best; President's Choice; Great Value; Compliments",
		[]string{"Mixed Berries|600 g|699", "Strawberries|600 g|599"}},
	{"Frozen", "High Liner", []string{"Pan Sear Salmon Fillets|310 g|799", "Fish Sticks|700 g|749", "Classic Battered Haddock Fillets|580 g|899"}},
	{"Frozen", "President's Choice; Compliments; Great Value; Selection", []string{"Cooked Shrimp Tail-On|340 g|1099"}},
	{"Frozen", "Chapman's; Breyers; President's Choice; Compliments; Great Value; Selection; Western Family",
		[]string{"Vanilla Ice Cream|2 L|599*", "Chocolate Ice Cream|2 L|599", "Cookies & Cream Ice Cream|1.5 L|649"}},
	{"Frozen", "Häagen-Dazs", []string{"Vanilla Ice Cream|450 mL|749", "Dulce de Leche Ice Cream|450 mL|749"}},
	{"Frozen", "Drumstick", []string{"Vanilla Fudge Cones|8 x 140 mL|799"}},
	{"Frozen", "Kawartha Dairy", []string{"Moose Tracks Ice Cream|1.5 L|749", "Vanilla Ice Cream|1.5 L|749"}},
	{"Frozen", "Coaticook", []string{"Crème glacée à la vanille|1.5 L|799", "Crème glacée au chocolat|1.5 L|799"}},
	{"Frozen", "Island Farms", []string{"Vanilla Ice Cream|1.65 L|649"}},
	{"Frozen", "Ben & Jerry's", []string{"Chocolate Fudge Brownie Ice Cream|473 mL|799", "Cherry Garcia Ice Cream|473 mL|799"}},
	{"Frozen", "Stouffer's", []string{"Lasagna with Meat Sauce|1.2 kg|1299", "Macaroni & Cheese|567 g|799"}},
	{"Frozen", "Michelina's", []string{"Fettuccine Alfredo|227 g|249", "Lasagna with Meat Sauce|227 g|249"}},
	{"Frozen", "Eggo", []string{"Homestyle Waffles|8 x 35 g|399"}},
	{"Frozen", "Janes; Maple Leaf Prime; Pinty's; President's Choice; Compliments; Great Value; Selection; Western Family",
		[]string{"Breaded Chicken Strips|700 g|1099"}},
	{"Frozen", "Tenderflake", []string{"Deep Dish Pie Shells|2 x 260 g|499"}},

	// Meat & Deli.
	{"Meat & Deli", "Maple Leaf; Schneiders; Olymel; Harvest; President's Choice; Compliments; Great Value; Selection; Western Family",
		[]string{"Original Bacon|375 g|699*", "Thick Cut Bacon|375 g|749"}},
	{"Meat & Deli", "Lilydale", []string{"Turkey Bacon|375 g|649", "Oven Roasted Turkey Breast|175 g|549"}},
	{"Meat & Deli", "Schneiders; Maple Leaf; Lafleur; Fletcher's; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Original Wieners|450 g|449*", "All Beef Wieners|450 g|549"}},
	{"Meat & Deli", "Maple Leaf; Schneiders; Piller's; Olymel; President's Choice; Compliments; Great Value; Selection",
		[]string{"Black Forest Ham Sliced|175 g|499", "Oven Roasted Turkey Breast Sliced|175 g|549"}},
	{"Meat & Deli", "Maple Leaf Prime; Lilydale; Flamingo; President's Choice; Compliments; Great Value; Selection",
		[]string{"Boneless Skinless Chicken Breast Fillets|600 g|1099", "Ground Chicken|450 g|699"}},
	{"Meat & Deli", "Johnsonville; Schneiders; Piller's", []string{"Original Breakfast Sausages|375 g|549"}},
	{"Meat & Deli", "Yves Veggie Cuisine", []string{"Veggie Ground Round Original|340 g|449", "Veggie Dogs|350 g|449"}},
	{"Meat & Deli", "Fontaine Santé; Sabra", []string{"Roasted Red Pepper Hummus|260 g|449", "Classic Hummus|283 g|449"}},

	// Household.
	{"Household", "Cashmere; Royale; Charmin; Cascades; Purex; President's Choice; no name; Compliments; Great Value; Selection; Western Family; Kirkland Signature",
		[]string{"Double Rolls Bathroom Tissue|12 rolls|799*", "Double Rolls Bathroom Tissue|24 rolls|1499"}},
	{"Household", "SpongeTowels; Bounty; Cascades; President's Choice; no name; Compliments; Great Value; Selection; Western Family",
		[]string{"Double Rolls Paper Towels|6 rolls|999"}},
	{"Household", "Kleenex; Scotties; President's Choice; no name; Great Value", []string{"2-Ply Facial Tissue|6 boxes|799"}},
	{"Household", "Tide; Gain; Arm & Hammer; Sunlight; Purex; President's Choice; no name; Compliments; Great Value; Selection; Western Family; Kirkland Signature",
		[]string{"Original Liquid Laundry Detergent|2.95 L|1299*", "Laundry Detergent Pacs|31 pods|1299"}},
	{"Household", "Downy", []string{"April Fresh Liquid Fabric Softener|1.53 L|799"}},
	{"Household", "Bounce", []string{"Outdoor Fresh Dryer Sheets|120 sheets|699"}},
	{"Household", "Dawn; Palmolive; Sunlight; President's Choice; no name; Compliments; Great Value",
		[]string{"Original Dishwashing Liquid|709 mL|349"}},
	{"Household", "Cascade; Finish; President's Choice; Great Value", []string{"Dishwasher Detergent Pacs|40 pods|1499"}},
	{"Household", "Javex", []string{"Regular Bleach|3.6 L|599"}},
	{"Household", "Lysol", []string{"Lemon Disinfecting Wipes|80 wipes|699", "Disinfectant Spray Crisp Linen|350 g|799"}},
	{"Household", "Mr. Clean", []string{"Multi-Purpose Cleaner|800 mL|499"}},
	{"Household", "Windex", []string{"Original Glass Cleaner|765 mL|499"}},
	{"Household", "Vim", []string{"Cream Cleaner Original|500 mL|449"}},
	{"Household", "Glad", []string{"Easy-Tie Kitchen Catchers Garbage Bags|40 bags|899"}},
	{"Household", "Ziploc", []string{"Large Freezer Bags|30 bags|599"}},

	// Baby.
	{"Baby", "Pampers; Huggies; President's Choice; Great Value; Compliments; Kirkland Signature",
		[]string{"Diapers Size 3|84 diapers|3499", "Diapers Size 5|66 diapers|3499"}},
	{"Baby", "Pampers; Huggies; President's Choice; Great Value; no name", []string{"Sensitive Baby Wipes|168 wipes|999"}},
	{"Baby", "Similac; Enfamil; Nestlé Good Start; President's Choice", []string{"Stage 1 Infant Formula Powder|850 g|4599"}},
	{"Baby", "Heinz", []string{"First Foods Oat Baby Cereal|227 g|449", "Mixed Grain Baby Cereal|227 g|449"}},
	{"Baby", "Baby Gourmet; Love Child Organics", []string{"Organic Apple Banana Purée|128 mL|199"}},

	// Personal Care.
	{"Personal Care", "Colgate; Crest; Sensodyne", []string{"Whitening Toothpaste|120 mL|349", "Cavity Protection Toothpaste|130 mL|299"}},
	{"Personal Care", "Pantene; Head & Shoulders; Herbal Essences; Dove; Garnier Fructis; Live Clean",
		[]string{"Daily Moisture Shampoo|375 mL|699", "Daily Moisture Conditioner|375 mL|699"}},
	{"Personal Care", "Dove; Irish Spring; Ivory", []string{"Original Bar Soap|4 x 106 g|599"}},
	{"Personal Care", "Dove; Old Spice; Nivea", []string{"Moisturizing Body Wash|532 mL|799"}},
	{"Personal Care", "Secret; Degree; Old Spice; Dove; Speed Stick", []string{"Antiperspirant Stick|73 g|649"}},
	{"Personal Care", "Gillette", []string{"Mach3 Razor Blade Refills|8 cartridges|2799"}},
	{"Personal Care", "Always", []string{"Maxi Pads Regular|36 pads|899"}},
	{"Personal Care", "Tampax", []string{"Pearl Tampons Regular|36 tampons|999"}},
	{"Personal Care", "Vaseline; Aveeno; Nivea", []string{"Daily Moisturizing Lotion|600 mL|999"}},
	{"Personal Care", "Listerine", []string{"Cool Mint Antiseptic Mouthwash|1 L|899"}},

	// Pet.
	{"Pet", "Purina", []string{"Dog Chow Complete Adult Dry Dog Food|8 kg|3499", "Cat Chow Complete Dry Cat Food|2 kg|1499", "Friskies Seafood Sensations Cat Food|1.42 kg|1099"}},
	{"Pet", "Iams", []string{"Adult Chicken Dry Dog Food|6.8 kg|3999"}},
	{"Pet", "Pedigree", []string{"Adult Complete Nutrition Dry Dog Food|8 kg|2999"}},
	{"Pet", "Whiskas", []string{"Chicken Wet Cat Food|12 x 85 g|899"}},
	{"Pet", "Temptations", []string{"Classic Tasty Chicken Cat Treats|180 g|699"}},
	{"Pet", "Milk-Bone", []string{"Original Dog Biscuits|900 g|799"}},

	// Produce.
	{"Produce", "Dole; Fresh Express; President's Choice; Compliments",
		[]string{"Caesar Salad Kit|283 g|499", "Garden Salad|454 g|399"}},
	{"Produce", "Earthbound Farm", []string{"Organic Spring Mix|142 g|599"}},
}

// demoTypes gives the product type of the items whose names differ from
// their type's (or from another item of the same kind: "Tomato Ketchup"
// and "Ketchup"); any other item's type is its English name in lower
// case (its French name for the items named only in French), so every
// demo product has one and like is compared with like.
var demoTypes = map[string]string{
	"Skim Milk": "skim milk", "Lait écrémé": "skim milk",
	"2% Partly Skimmed Milk": "2% milk", "Lait partiellement écrémé 2 %": "2% milk",
	"1% Partly Skimmed Milk": "1% milk",
	"3.25% Homogenized Milk": "homogenized milk", "Lait homogénéisé 3,25 %": "homogenized milk",
	"1% Chocolate Partly Skimmed Milk": "chocolate milk", "Lait au chocolat": "chocolate milk",
	"Lactose Free 2% Milk":   "lactose-free milk",
	"Fromage à la crème":     "original cream cheese",
	"100% Whole Wheat Bread": "whole wheat bread", "Thick Sliced Whole Wheat Bread": "whole wheat bread", "Pain de blé entier": "whole wheat bread",
	"White Bread": "white bread", "Thick Sliced White Bread": "white bread", "Pain blanc tranché": "white bread",
	"Classic Potato Chips": "plain potato chips", "Original Potato Chips": "plain potato chips",
	"Chocolate Chip Cookies": "chocolate chip cookies", "Original Chocolate Chip Cookies": "chocolate chip cookies",
	"Medium Chunky Salsa": "medium salsa", "Thick 'n Chunky Medium Salsa": "medium salsa",
	"Cola": "cola", "Zero Sugar Cola": "diet cola",
	"Ketchup": "ketchup", "Tomato Ketchup": "ketchup",
	"Creamy Peanut Butter": "smooth peanut butter", "Smooth Peanut Butter": "smooth peanut butter",
	"Crunchy Peanut Butter": "crunchy peanut butter",
	"Yellow Mustard":        "yellow mustard", "Classic Yellow Mustard": "yellow mustard",
	"Real Mayonnaise":   "mayonnaise",
	"Macaroni & Cheese": "macaroni & cheese", "Macaroni & Cheese Dinner": "macaroni & cheese",
	"Original Macaroni & Cheese": "macaroni & cheese", "Spirals Macaroni & Cheese": "macaroni & cheese",
	"Thick & Creamy Macaroni & Cheese": "macaroni & cheese",
	"Chicken Noodle Soup":              "chicken noodle soup", "Chunky Chicken Noodle Soup": "chicken noodle soup",
	"Cheerios Cereal": "toasted oat cereal", "Toasted Oat Rings Cereal": "toasted oat cereal",
	"Vanilla Ice Cream": "vanilla ice cream", "Crème glacée à la vanille": "vanilla ice cream",
	"Chocolate Ice Cream": "chocolate ice cream", "Crème glacée au chocolat": "chocolate ice cream",
	"Straight Cut French Fries": "straight cut fries", "Superfries Straight Cut": "straight cut fries",
	"Original Wieners": "wieners", "All Beef Wieners": "wieners",
	"Original Bacon":             "bacon",
	"Oven Roasted Turkey Breast": "sliced turkey breast", "Oven Roasted Turkey Breast Sliced": "sliced turkey breast",
	"Cat Chow Complete Dry Cat Food": "dry cat food", "Friskies Seafood Sensations Cat Food": "dry cat food",
	"Chicken Wet Cat Food":       "wet cat food",
	"Adult Chicken Dry Dog Food": "dry dog food", "Adult Complete Nutrition Dry Dog Food": "dry dog food",
	"Dog Chow Complete Adult Dry Dog Food": "dry dog food",
	"Pearl Tampons Regular":                "tampons", "Maxi Pads Regular": "pads",
}

// demoType returns the product type of the demo item named name.
func demoType(name string) string {
	if t, ok := demoTypes[name]; ok {
		return t
	}
	return strings.ToLower(name)
}
