// Package qrtest reads back, as a phone camera would, the QR codes the
// server draws as SVG (web's qrSVG: one "M{x} {y}h1v1h-1z" path step per
// dark module in a viewBox of whole modules). Only tests import it.
package qrtest

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"learn/internal/qrread"
)

var (
	viewBoxRe = regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`)
	moduleRe  = regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`)
)

// DecodeSVG rebuilds the module matrix the SVG draws (its margin
// included) and reads it with ZXing's QR reader, returning the text it
// holds.
func DecodeSVG(svg string) (string, error) {
	box := viewBoxRe.FindStringSubmatch(svg)
	if box == nil {
		return "", errors.New("qrtest: the SVG has no viewBox")
	}
	size, err := strconv.Atoi(box[1])
	if err != nil || size <= 0 || size > 1000 {
		return "", fmt.Errorf("qrtest: the viewBox is %q modules wide", box[1])
	}
	modules := moduleRe.FindAllStringSubmatch(svg, -1)
	if len(modules) == 0 {
		return "", errors.New("qrtest: the SVG draws no modules")
	}
	bits := make([][]bool, size)
	for y := range bits {
		bits[y] = make([]bool, size)
	}
	for _, m := range modules {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		if x >= size || y >= size {
			return "", fmt.Errorf("qrtest: a module at %d,%d lies outside the %d-module viewBox", x, y, size)
		}
		bits[y][x] = true
	}
	text, err := qrread.Decode(bits, 0)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	return text, nil
}
