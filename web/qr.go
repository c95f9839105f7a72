package web

import (
	"fmt"
	"html"
	"strings"

	qrcode "github.com/yeqown/go-qrcode/v2"

	"learn/internal/qrread"
)

// qrQuiet is the blank margin around a QR code, in modules, that a camera
// needs to find it (the standard asks for four).
const qrQuiet = 4

// matrixWriter keeps the module matrix the QR library draws, so the server
// can write it out as SVG itself.
type matrixWriter struct{ bits [][]bool }

func (m *matrixWriter) Write(mat qrcode.Matrix) error {
	m.bits = mat.Bitmap()
	return nil
}

func (m *matrixWriter) Close() error { return nil }

// qrVersionTries is how many QR versions qrModules draws a text at, the
// smallest that holds it first, before it gives up on a code that reads.
const qrVersionTries = 4

// qrModules returns the QR code of text as rows of dark (true) modules,
// with medium error correction. The QR library draws a few texts in 100
// with a mask whose data looks like a finder pattern to ZXing's detector,
// the one most phone scanners share, so that the code does not scan; every
// drawing is therefore read back with that detector, and a code that does
// not read is drawn again one version larger, which lays the data out anew.
func qrModules(text string) ([][]bool, error) {
	var last error
	for version, try := 1, 0; try < qrVersionTries; try++ {
		bits, err := qrDraw(text, version)
		if err != nil {
			return nil, err
		}
		read, err := qrread.Decode(bits, qrQuiet)
		if err == nil && read == text {
			return bits, nil
		}
		last = err
		if err == nil {
			last = fmt.Errorf("it reads %q", read)
		}
		// The version a drawing has follows from its width (17 + 4v).
		version = (len(bits)-17)/4 + 1
	}
	return nil, fmt.Errorf("web: QR code of %q does not read back at %d versions: %w", text, qrVersionTries, last)
}

// qrDraw draws text at the smallest QR version, at least minVersion, that
// holds it.
func qrDraw(text string, minVersion int) ([][]bool, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium), qrcode.WithMinimumVersion(minVersion))
	if err != nil {
		return nil, fmt.Errorf("web: QR code of %q: %w", text, err)
	}
	var w matrixWriter
	if err := code.Save(&w); err != nil {
		return nil, fmt.Errorf("web: QR code of %q: %w", text, err)
	}
	return w.bits, nil
}

// qrSVG draws the QR code of text as an SVG image: one path of unit
// squares on a white ground with the quiet margin, so it scales to any
// size and reads in either theme. label is its accessible name.
func qrSVG(text, label string) (string, error) {
	bits, err := qrModules(text)
	if err != nil {
		return "", err
	}
	size := len(bits) + 2*qrQuiet
	var path strings.Builder
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&path, "M%d %dh1v1h-1z", x+qrQuiet, y+qrQuiet)
			}
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" class="qr-code" viewBox="0 0 %d %d" role="img" aria-label="%s" shape-rendering="crispEdges" data-testid="qr-code">`+
		`<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="%s"/></svg>`,
		size, size, html.EscapeString(label), size, size, path.String()), nil
}
