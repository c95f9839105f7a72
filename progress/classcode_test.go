package progress

import (
	"strings"
	"testing"
)

func TestClassCodeRoundTrip(t *testing.T) {
	seen := map[string]int64{}
	for _, id := range []int64{1, 2, 3, 30, 31, 961, 1_000_000, 27_512_614_110} {
		code := ClassCode(id)
		if len(code) != ClassCodeLen+1 || code[4] != '-' || strings.ContainsAny(code, "0O1IL") {
			t.Errorf("ClassCode(%d) = %q, want ABCD-EFGH from the join-code alphabet", id, code)
		}
		if other, dup := seen[code]; dup {
			t.Errorf("ids %d and %d share the code %s", other, id, code)
		}
		seen[code] = id
		for _, typed := range []string{code, strings.ToLower(code), strings.ReplaceAll(code, "-", " "), strings.ReplaceAll(code, "-", "")} {
			if got, ok := ClassIDFromCode(typed); !ok || got != id {
				t.Errorf("ClassIDFromCode(%q) = %d, %v, want %d", typed, got, ok, id)
			}
		}
	}
	if ClassCode(1)[:4] == ClassCode(2)[:4] {
		t.Errorf("neighbouring classes share their first half: %s, %s", ClassCode(1), ClassCode(2))
	}
}

func TestClassCodeRefusesTypos(t *testing.T) {
	code := NormalizeJoinCode(ClassCode(4242))
	swap := []byte(code)
	swap[1], swap[2] = swap[2], swap[1]
	change := []byte(code)
	change[3] = joinCodeAlphabet[(strings.IndexByte(joinCodeAlphabet, change[3])+1)%len(joinCodeAlphabet)]
	for name, c := range map[string]string{
		"a join code":            "ABCDEF",
		"one character short":    code[:7],
		"one character more":     code + "A",
		"a look-alike":           code[:7] + "0",
		"a changed character":    string(change),
		"two characters swapped": string(swap),
		"empty":                  "",
	} {
		if swap[1] == swap[2] && name == "two characters swapped" {
			continue
		}
		if id, ok := ClassIDFromCode(c); ok {
			t.Errorf("%s (%q) was read as class %d", name, c, id)
		}
	}
}
