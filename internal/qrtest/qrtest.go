// Package qrtest reads back, as a phone camera would, the QR codes the
// server draws as SVG (web's qrSVG: one "M{x} {y}h1v1h-1z" path step per
// dark module in a viewBox of whole modules). Only tests import it.
package qrtest

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"regexp"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

var (
	viewBoxRe = regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`)
	moduleRe  = regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`)
)

// DecodeSVG paints the SVG's modules into an image, 8 pixels a module,
// and decodes it with ZXing's QR reader, returning the text it holds.
func DecodeSVG(svg string) (string, error) {
	box := viewBoxRe.FindStringSubmatch(svg)
	if box == nil {
		return "", errors.New("qrtest: the SVG has no viewBox")
	}
	size, err := strconv.Atoi(box[1])
	if err != nil || size <= 0 || size > 1000 {
		return "", fmt.Errorf("qrtest: the viewBox is %q modules wide", box[1])
	}
	const scale = 8
	img := image.NewGray(image.Rect(0, 0, size*scale, size*scale))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	modules := moduleRe.FindAllStringSubmatch(svg, -1)
	if len(modules) == 0 {
		return "", errors.New("qrtest: the SVG draws no modules")
	}
	for _, m := range modules {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		for dy := range scale {
			for dx := range scale {
				img.SetGray(x*scale+dx, y*scale+dy, color.Gray{})
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		return "", fmt.Errorf("qrtest: the QR code does not decode: %w", err)
	}
	return res.GetText(), nil
}
