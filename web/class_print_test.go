package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"learn/internal/qrread"
	"learn/internal/qrtest"
)

// decodeQRSVG reads a QR code drawn by qrSVG back as a camera would
// (qrtest.DecodeSVG).
func decodeQRSVG(t *testing.T, svg string) string {
	t.Helper()
	text, err := qrtest.DecodeSVG(svg)
	if err != nil {
		t.Fatalf("%v in %.200s", err, svg)
	}
	return text
}

func TestQRSVGDecodes(t *testing.T) {
	for _, text := range []string{"http://192.168.1.20:8080/join?code=ABCDEF", "https://learn.school.example/join?code=K7QX4P", "http://[fd00::1]:8080/join?code=ZZZZZZ"} {
		svg, err := qrSVG(text, "QR code of "+text)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeQRSVG(t, svg); got != text {
			t.Errorf("decoded %q, want %q", got, text)
		}
		if strings.Contains(svg, "<script") || !strings.Contains(svg, `role="img"`) {
			t.Errorf("the SVG is not a plain labelled image: %.200s", svg)
		}
	}
}

// TestQRModulesReadBack: every join address drawn, over five hundred of
// the codes and ports a class may have, reads back with ZXing's detector,
// including one the QR library's smallest drawing leaves unreadable (it is
// drawn one version larger instead).
func TestQRModulesReadBack(t *testing.T) {
	const unreadableAtFirst = "http://127.0.0.1:30021/join?code=Q2899B"
	first, err := qrDraw(unreadableAtFirst, 1)
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrread.Decode(first, qrQuiet); err == nil && text == unreadableAtFirst {
		t.Fatalf("the QR library's first drawing of %s reads now; pick another text that exercises the redraw", unreadableAtFirst)
	}
	bits, err := qrModules(unreadableAtFirst)
	if err != nil {
		t.Fatal(err)
	}
	if len(bits) <= len(first) {
		t.Errorf("the redrawn code is %d modules wide, want more than the first drawing's %d", len(bits), len(first))
	}
	for i := range 500 {
		text := fmt.Sprintf("http://192.168.%d.%d:%d/join?code=%s", i%7, 2+i%250, 1024+i*37%60000, joinCodeFor(i))
		bits, err := qrModules(text)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := qrread.Decode(bits, qrQuiet); err != nil || got != text {
			t.Fatalf("%s reads %q (%v)", text, got, err)
		}
	}
}

// joinCodeFor spells i as a six-letter join code.
func joinCodeFor(i int) string {
	const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	code := make([]byte, 6)
	for k := range code {
		code[k] = letters[(i*7919+k*31)%len(letters)]
		i /= 3
	}
	return string(code)
}

// TestWordSheetAndProjector: the word sheet has one card per learner with
// the class code, words and address, is never cached or compressed; the
// projector shows the join address and code in large type with a QR code
// that decodes to the join page with the code; both answer 404 to another
// teacher, a learner and a stranger.
func TestWordSheetAndProjector(t *testing.T) {
	w := newClassWorld(t)
	teacher, class := w.teacherWithClass()
	other := w.otherTeacher()
	code := teacher.joinCode(class)
	names := []string{"Ash", "Birch", "Cedar"}
	words := map[string]string{}
	var learner *browser
	for _, n := range names {
		learner = w.browser()
		words[n] = learner.join(code, n)
	}

	a := teacher.get(class + "/sheet")
	if a.status != http.StatusOK {
		t.Fatalf("the word sheet = %d", a.status)
	}
	if n := strings.Count(a.body, `data-testid="word-card"`); n != len(names) {
		t.Errorf("the sheet has %d cards, want %d", n, len(names))
	}
	for n, secret := range words {
		if !regexp.MustCompile(`(?s)word-card-name">` + n + `<.*?word-card-words">` + secret + `<`).MatchString(a.body) {
			t.Errorf("no card for %s with the words %q", n, secret)
		}
	}
	classCode := classCodeRe.FindStringSubmatch(teacher.get(class).body)[1]
	if !strings.Contains(a.body, classCode) || !strings.Contains(a.body, "/join/signin") {
		t.Error("the cards do not carry the class code and the address to continue at")
	}
	if h := a.header.Get("Cache-Control"); h != "no-store" {
		t.Errorf("the word sheet's Cache-Control = %q, want no-store", h)
	}

	p := teacher.get(class + "/projector")
	if p.status != http.StatusOK || !strings.Contains(p.body, `data-testid="projector-code">`+code+`<`) {
		t.Fatalf("the projector view = %d without the join code %s", p.status, code)
	}
	svg := regexp.MustCompile(`(?s)<svg[^>]*data-testid="qr-code".*?</svg>`).FindString(p.body)
	want := w.base + "/join?code=" + code
	if got := decodeQRSVG(t, svg); got != want {
		t.Errorf("the projector's QR code reads %q, want %q", got, want)
	}
	if !strings.Contains(p.body, "which other devices cannot use") {
		t.Error("the projector does not warn that a loopback address works on this machine only")
	}
	// The address opens the join form with the code in it.
	if j := learner.get("/join?code=" + code); !strings.Contains(j.body, `value="`+code+`"`) {
		t.Error("the QR code's address does not fill in the join code")
	}
	if a := teacher.post(class+"/settings", url.Values{"code": {"off"}}); a.status != http.StatusSeeOther {
		t.Fatal(a.status)
	}
	if p := teacher.get(class + "/projector").body; !strings.Contains(p, `data-testid="projector-off"`) || strings.Contains(p, "qr-code") {
		t.Error("with joining off the projector still shows a code")
	}

	for who, b := range map[string]*browser{"another teacher": other, "a learner": learner, "a stranger": w.browser()} {
		for _, path := range []string{"/sheet", "/projector"} {
			if a := b.get(class + path); a.status != http.StatusNotFound || strings.Contains(a.body, words["Ash"]) {
				t.Errorf("%s on %s = %d, want 404 and no words", who, path, a.status)
			}
		}
	}
}
