package quiz

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"strconv"
)

// AttemptSeed builds the seed for Order from a learner id and an attempt
// number, so each attempt gets its own order.
func AttemptSeed(learnerID string, attempt int) string {
	return learnerID + "#" + strconv.Itoa(attempt)
}

// Order returns the order in which to show q's questions, as indexes into
// q.Questions. Without Shuffle it is authored order. With Shuffle it is a
// permutation that depends only on the quiz id, the number of questions and
// seed: the same learner and attempt (see AttemptSeed) always see the same
// order, and another attempt usually sees another.
//
// The permutation is a Fisher-Yates shuffle driven by a PCG generator seeded
// from SHA-256 of the quiz id and seed. It draws with Uint64 modulo n, whose
// bias is negligible for quiz sizes, and does not depend on math/rand's
// helper algorithms, so orders stay stable across Go releases.
func Order(q *Quiz, seed string) []int {
	n := len(q.Questions)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !q.Shuffle {
		return order
	}
	sum := sha256.Sum256([]byte(q.ID + "\x00" + seed))
	src := rand.NewPCG(binary.BigEndian.Uint64(sum[0:8]), binary.BigEndian.Uint64(sum[8:16]))
	for i := n - 1; i > 0; i-- {
		j := int(src.Uint64() % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}
