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
