package web

import (
	"strconv"
	"time"
)

// untilText says a duration the way a learner reads it: "10 minutes",
// "3 days".
func untilText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return Plural(int(d/time.Minute), "minute", "minutes")
	case d < 24*time.Hour:
		return Plural(int(d/time.Hour), "hour", "hours")
	default:
		return Plural(int(d/(24*time.Hour)), "day", "days")
	}
}

// Plural says a count with its noun in the right form: "1 lesson",
// "0 lessons", "2 quizzes". Both forms are given, so irregular nouns
// ("activity", "activities") need no rule.
func Plural(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Word(n, one, many)
}

// Word returns the noun form for a count of n, without the number: one
// for exactly 1, many otherwise (0 included).
func Word(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}

// hiddenNote says how many hidden cases (or calls) a submit adds:
// "plus 1 hidden case on submit", "no hidden cases".
func hiddenNote(n int, one, many string) string {
	if n == 0 {
		return "no hidden " + many
	}
	return "plus " + Plural(n, "hidden "+one, "hidden "+many) + " on submit"
}
