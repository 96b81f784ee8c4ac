// Command pngcheck fails unless a PNG screenshot shows a page: enough
// pixels that are not the background, in several distinct colours.
//
//	go run ./.ci/pngcheck shot.png
package main

import (
	"fmt"
	"image/png"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pngcheck FILE.png")
		os.Exit(2)
	}
	if err := check(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "pngcheck:", err)
		os.Exit(1)
	}
}

func check(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return err
	}
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	colours := map[[3]uint32]bool{}
	inked := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bl, _ := c.RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if c != bg {
				inked++
			}
		}
	}
	share := float64(inked) / float64(b.Dx()*b.Dy())
	fmt.Printf("%s: %dx%d, %.1f%% of pixels not the background, %d colours\n", path, b.Dx(), b.Dy(), 100*share, len(colours))
	if share < 0.02 || len(colours) < 16 {
		return fmt.Errorf("%s looks blank", path)
	}
	return nil
}
