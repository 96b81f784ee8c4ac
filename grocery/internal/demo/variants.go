package demo

import (
	"fmt"
	"strconv"
	"strings"
)

// The national scale's catalogue: every item of the line table also in
// its other pack sizes and its usual variants (organic, lactose free,
// gluten free, ...), as a national catalogue of tens of thousands of
// products is made. A variant keeps its item's category; another pack
// size keeps its type too, while a qualified variant is a type of its own
// ("organic lactose free 2% milk"), so that a like-for-like comparison
// never takes organic milk for milk. Its price follows from the item's: a
// larger pack costs less per unit, an organic one more.

// demoQualifier is a variant of the items whose category is one of cats
// and whose name holds one of names ("" means any name) and none of
// except.
type demoQualifier struct {
	word, fr string
	bp       int64 // price, per 10000 of the plain item's
	cats     string
	names    string
	except   string
}

// demoOrganic combines with the other qualifiers ("Organic Lactose Free
// 2% Partly Skimmed Milk"); the others do not combine with each other.
var demoOrganic = demoQualifier{"Organic", "biologique", 14500,
	"Dairy & Eggs;Bakery;Beverages;Frozen;Meat & Deli;Pantry;Snacks;Baby;Produce", "",
	"Water;Soda;Cola;Ale;Sports Drink;7UP;Crush;Root Beer;Chinotto;Candies;Candy;Salt;Sugar;Baking Soda;Chocolates"}

var demoQualifiers = []demoQualifier{
	{"Lactose Free", "sans lactose", 11500, "Dairy & Eggs", "Milk;Cream;Yogurt;Cheese;Butter;Lait;Crème", ""},
	{"Gluten Free", "sans gluten", 13500, "Bakery;Pantry;Snacks;Frozen",
		"Bread;Bagels;Muffins;Tortillas;Macaroni;Spaghetti;Fettuccine;Penne;Rotini;Lasagna;Cereal;Crackers;Cookies;Flour;Pizza;Waffles;Oats;Granola", "Wheat"},
	{"Low Sodium", "faible en sodium", 10300, "Pantry;Snacks;Meat & Deli;Frozen",
		"Soup;Broth;Beans;Tomatoes;Sauce;Chips;Crackers;Ham;Turkey;Bacon;Wieners;Pretzels;Peanuts;Fries", ""},
	{"Light", "léger", 10000, "Dairy & Eggs;Pantry;Snacks;Beverages;Frozen",
		"Mayonnaise;Dressing;Cream Cheese;Peanut Butter;Juice;Ice Cream;Chips;Popcorn;Iced Tea;Syrup", ""},
	{"Unscented", "non parfumé", 10000, "Household;Personal Care",
		"Detergent;Soap;Lotion;Deodorant;Antiperspirant;Wipes;Softener;Sheets;Body Wash;Pacs;Pads;Diapers", ""},
	{"Extra Strength", "extra fort", 11500, "Household;Personal Care",
		"Cleaner;Garbage;Freezer;Paper Towels;Bathroom Tissue;Toothpaste;Mouthwash;Shampoo", ""},
	{"Grain Free", "sans grains", 12500, "Pet", "Food;Treats", ""},
	{"Senior", "aîné", 10500, "Pet", "Dog Food;Cat Food", ""},
	{"No Sugar Added", "sans sucre ajouté", 10200, "Beverages;Pantry;Baby;Snacks",
		"Juice;Cocktail;Applesauce;Jam;Spread;Fruit;Puree;Oatmeal;Cereal;Granola", ""},
	{"Zero Sugar", "zéro sucre", 10000, "Beverages", "Cola;Ginger Ale;Soda;Iced Tea;Sports Drink;Root Beer;7UP;Crush;Chinotto", ""},
	{"Decaf", "décaféiné", 10500, "Pantry;Beverages", "Coffee;Tea", ""},
	{"Whole Grain", "grains entiers", 10800, "Bakery;Pantry", "White Bread;Buns;Macaroni;Spaghetti;Fettuccine;Penne;Rotini;Lasagna;Crackers", ""},
	{"Reduced Fat", "réduit en gras", 10000, "Dairy & Eggs;Snacks;Meat & Deli", "Cheddar;Mozzarella;Crackers;Cookies;Wieners;Bacon;Sausages", ""},
	{"Spicy", "épicé", 10200, "Snacks;Meat & Deli;Frozen", "Potato Chips;Peanuts;Pretzels;Wieners;Sausages;Chicken Strips;Pizza;Wings", ""},
}

// applies reports whether q is a variant of an item named name in
// category cat.
func (q *demoQualifier) applies(cat, name string) bool {
	if !strings.Contains(";"+q.cats+";", ";"+cat+";") || strings.Contains(name, q.word) {
		return false
	}
	return (q.names == "" || containsAny(name, q.names)) && !containsAny(name, q.except)
}

// containsAny reports whether s holds one of the ";"-separated words.
func containsAny(s, words string) bool {
	for _, w := range strings.Split(words, ";") {
		if w != "" && strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// with returns c as its variant q.
func (q *demoQualifier) with(c productCand) productCand {
	c.name = q.word + " " + c.name
	c.qual = strings.TrimSpace(q.word + " " + c.qual)
	if c.fr != "" {
		c.fr += " " + q.fr
	}
	c.cents = (c.cents*q.bp + 5000) / 10000
	return c
}

// productVariants returns the variants of item c of a line in category
// cat: its other pack sizes, and each size with every qualifier that
// applies, alone and organic. c itself is not among them.
func productVariants(cat string, c productCand) []productCand {
	sizes := append([]productCand{c}, sizeVariants(c)...)
	quals := []*demoQualifier{nil}
	for i := range demoQualifiers {
		if demoQualifiers[i].applies(cat, c.name) {
			quals = append(quals, &demoQualifiers[i])
		}
	}
	organic := demoOrganic.applies(cat, c.name)
	var out []productCand
	for si, s := range sizes {
		for _, q := range quals {
			v := s
			if q != nil {
				v = q.with(s)
			}
			if si > 0 || q != nil {
				out = append(out, v)
			}
			if organic {
				out = append(out, demoOrganic.with(v))
			}
		}
	}
	for i := range out {
		out[i].core = false
	}
	return out
}

// Pack sizes: half, one and a half and double the item's, priced by the
// usual volume discount (price ~ size^0.85: a double pack costs 1.8 times
// as much, a half 0.555 times).
const (
	demoDoubleBP = 18000
	demoLargeBP  = 14100
	demoHalfBP   = 5550
)

// sizeVariants returns c in its other pack sizes: a size "N x Q unit" or
// "N things" doubled and, for an even N of 4 or more, halved; a weight or
// a volume doubled, one and a half times and halved, to round figures.
// Other sizes have none.
func sizeVariants(c productCand) []productCand {
	f := strings.Fields(c.size)
	var sizes []string
	var bps []int64
	switch {
	case len(f) == 4 && f[1] == "x":
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return nil
		}
		rest := " x " + f[2] + " " + f[3]
		sizes, bps = countSizes(n, rest)
	case len(f) == 2 && isMeasureUnit(f[1]):
		sizes, bps = measureSizes(f[0], f[1])
	case len(f) == 2:
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return nil
		}
		sizes, bps = countSizes(n, " "+f[1])
	}
	out := make([]productCand, len(sizes))
	for i := range sizes {
		out[i] = c
		out[i].size = sizes[i]
		out[i].cents = (c.cents*bps[i] + 5000) / 10000
	}
	return out
}

func countSizes(n int, rest string) ([]string, []int64) {
	sizes, bps := []string{fmt.Sprint(2*n) + rest}, []int64{demoDoubleBP}
	if n >= 4 && n%2 == 0 {
		sizes, bps = append(sizes, fmt.Sprint(n/2)+rest), append(bps, demoHalfBP)
	}
	return sizes, bps
}

func isMeasureUnit(u string) bool { return u == "g" || u == "kg" || u == "mL" || u == "L" }

// measureSizes returns a weight or volume v unit doubled, one and a half
// times and halved, in
// grams or millilitres rounded to a shelf's figures (kilograms and litres
// from 1,000); a half under 50 is left out.
func measureSizes(v, unit string) ([]string, []int64) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, nil
	}
	small := unit
	if unit == "kg" || unit == "L" {
		x *= 1000
		small = map[string]string{"kg": "g", "L": "mL"}[unit]
	}
	sizes, bps := []string{shelfSize(2*x, small), shelfSize(1.5*x, small)}, []int64{demoDoubleBP, demoLargeBP}
	if x/2 >= 50 {
		sizes, bps = append(sizes, shelfSize(x/2, small)), append(bps, demoHalfBP)
	}
	return sizes, bps
}

// shelfSize formats q grams (or millilitres) as a package prints it:
// "75 g", "340 g", "1.5 kg", "2 L".
func shelfSize(q float64, small string) string {
	step := 10.0
	switch {
	case q < 100:
		step = 5
	case q >= 1000:
		step = 50
	}
	n := int64(q/step+0.5) * int64(step)
	if n < 1000 {
		return fmt.Sprintf("%d %s", n, small)
	}
	big := map[string]string{"g": "kg", "mL": "L"}[small]
	return strconv.FormatFloat(float64(n)/1000, 'f', -1, 64) + " " + big
}
