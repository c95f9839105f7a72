// Package qrread reads a QR code back from its module matrix with ZXing's
// reader, the detector most phone scanners share. The server uses it to
// check every code it draws before serving it; tests use it to read back
// what the pages show.
package qrread

import (
	"errors"
	"fmt"
	"image"
	"image/color"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

// scale is the pixels a module is painted with: whole pixels, so the
// detector sees the sharp edges a projector or a printed sheet shows.
const scale = 8

// Decode paints the dark (true) modules of bits on a white ground with
// quiet blank modules around them and returns the text ZXing reads.
func Decode(bits [][]bool, quiet int) (string, error) {
	if len(bits) == 0 || quiet < 0 {
		return "", errors.New("qrread: no modules to read")
	}
	size := len(bits) + 2*quiet
	img := image.NewGray(image.Rect(0, 0, size*scale, size*scale))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y, row := range bits {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray((x+quiet)*scale+dx, (y+quiet)*scale+dy, color.Gray{})
				}
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrread: %w", err)
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		return "", fmt.Errorf("qrread: the QR code does not read: %w", err)
	}
	return res.GetText(), nil
}
