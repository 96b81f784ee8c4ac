package demo

// SeriesProducts returns each series' panel and product, and the line
// item each product is a variant of (-1 for an item), for the tests of
// package demo_test.
func (g *Generator) SeriesProducts() (panels, products, of []int) {
	for _, s := range g.series {
		panels, products = append(panels, s.panel), append(products, s.product)
	}
	for _, x := range g.products {
		of = append(of, x.of)
	}
	return panels, products, of
}

// CatalogueShape returns the catalogue's line items and variants, the
// variants whose item is not in it, and the line table's distinct items
// (brand, name and size), for the tests of package demo_test.
func (g *Generator) CatalogueShape() (items, variants, orphans, tableItems int) {
	for _, x := range g.products {
		switch {
		case !x.variant:
			items++
		case x.of < 0:
			orphans++
			variants++
		default:
			variants++
		}
	}
	brands, err := parseBrands()
	if err != nil {
		panic(err)
	}
	universe, err := g.productUniverse(brands, false)
	if err != nil {
		panic(err)
	}
	return items, variants, orphans, len(universe)
}
