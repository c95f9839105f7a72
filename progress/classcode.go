package progress

import (
	"math/big"
	"strings"
)

// A class code names a class for good: a learner continues on another
// device with it, their name and their words, whatever the join code's
// state (turned off, replaced, the class archived and restored). The join
// code only admits new members.
//
// A class code is the class's id scrambled by a fixed multiplication
// modulo 31^7 (so neighbouring classes do not get neighbouring codes),
// written as seven characters of the join-code alphabet, then a check
// character that catches a mistyped or swapped character. It is shown as
// "ABCD-EFGH"; like a join code it is read in any case, with spaces and
// hyphens ignored. It is not a secret: the words are.
const (
	// ClassCodeLen is the length of a class code without its hyphen.
	ClassCodeLen = 8
	// classCodeDigits is how many characters carry the scrambled id.
	classCodeDigits = ClassCodeLen - 1
	// classCodeFactor scrambles ids; it is prime and not 31, so it has an
	// inverse modulo 31^7.
	classCodeFactor = 1_000_000_007
)

var (
	classCodeModulus = new(big.Int).Exp(big.NewInt(int64(len(joinCodeAlphabet))), big.NewInt(classCodeDigits), nil)
	classCodeInverse = new(big.Int).ModInverse(big.NewInt(classCodeFactor), classCodeModulus)
)

// ClassCode returns the class code of the class with this id (ids start
// at 1 and stay below 31^7, about 27.5 billion).
func ClassCode(id int64) string {
	n := int64(len(joinCodeAlphabet))
	v := new(big.Int).Mul(big.NewInt(id), big.NewInt(classCodeFactor))
	x := v.Mod(v, classCodeModulus).Int64()
	digits := make([]byte, classCodeDigits)
	for i := classCodeDigits - 1; i >= 0; i-- {
		digits[i] = joinCodeAlphabet[x%n]
		x /= n
	}
	code := string(digits) + string(joinCodeAlphabet[classCodeCheck(digits)])
	return code[:4] + "-" + code[4:]
}

// classCodeCheck is the check character's index for the seven digits:
// a weighted sum, so a changed or swapped character changes it.
func classCodeCheck(digits []byte) int {
	sum := 0
	for i, d := range digits {
		sum += (i + 1) * strings.IndexByte(joinCodeAlphabet, d)
	}
	return sum % len(joinCodeAlphabet)
}

// ClassIDFromCode returns the id a class code names, and false for
// anything that is not a well-formed class code (a join code included).
// The code is normalised as NormalizeJoinCode does.
func ClassIDFromCode(code string) (int64, bool) {
	code = NormalizeJoinCode(code)
	if len(code) != ClassCodeLen {
		return 0, false
	}
	digits := []byte(code[:classCodeDigits])
	var x int64
	for _, d := range digits {
		k := strings.IndexByte(joinCodeAlphabet, d)
		if k < 0 {
			return 0, false
		}
		x = x*int64(len(joinCodeAlphabet)) + int64(k)
	}
	if code[classCodeDigits] != joinCodeAlphabet[classCodeCheck(digits)] {
		return 0, false
	}
	v := new(big.Int).Mul(big.NewInt(x), classCodeInverse)
	id := v.Mod(v, classCodeModulus).Int64()
	return id, id > 0
}
