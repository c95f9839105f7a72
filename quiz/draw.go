package quiz

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// Draw is what one attempt at a quiz shows: the order of the question
// slots, the version of each slot and the order of its options. It is a
// pure function of the quiz, the learner and the attempt number (see
// DrawFor), so the page that shows an attempt and the post that grades it
// agree without storing anything but the attempt number.
type Draw struct {
	// Slots are indexes into Quiz.Questions in the order shown.
	Slots []int
	// Variants holds, per slot (authored index), the version drawn: 0 is
	// the question as written, v ≥ 1 is VariantAt(v).
	Variants []int
	// Options holds, per slot (authored index), the order of the drawn
	// version's options as indexes into its Options; nil means as written.
	Options [][]int
}

// DrawFor returns the draw of attempt number attempt (1 for the first; a
// smaller number counts as 1) by learnerID.
//
// Slots follow Order with AttemptSeed(learnerID, attempt), so without
// Shuffle they are in authored order. The version of a slot with n
// versions is (b + attempt − 1) mod n, where b is a per-learner, per-slot
// start drawn from SHA-256: consecutive attempts always show another
// version, and a learner meets every version before any comes back. With
// ShuffleOptions the unpinned options of single and multiple questions are
// permuted by a Fisher-Yates shuffle seeded from the quiz, slot, learner
// and attempt; pinned options keep their places.
func DrawFor(q *Quiz, learnerID string, attempt int) Draw {
	if attempt < 1 {
		attempt = 1
	}
	seed := AttemptSeed(learnerID, attempt)
	d := Draw{Slots: Order(q, seed), Variants: make([]int, len(q.Questions)), Options: make([][]int, len(q.Questions))}
	for i := range q.Questions {
		qn := &q.Questions[i]
		if n := qn.VariantCount(); n > 1 {
			start := int(seedUint64(q.ID, qn.ID, learnerID) % uint64(n))
			d.Variants[i] = (start + attempt - 1) % n
		}
		v := qn.VariantAt(d.Variants[i])
		if q.ShuffleOptions && (v.kind() == QuestionSingle || v.kind() == QuestionMultiple) {
			d.Options[i] = shuffleUnpinned(v.Options, q.ID, qn.ID, seed)
		}
	}
	return d
}

// seedUint64 hashes its parts, NUL-separated, into 64 bits.
func seedUint64(parts ...string) uint64 {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	sum := h.Sum(nil)
	return binary.BigEndian.Uint64(sum[:8])
}

// shuffleUnpinned returns an order of opts in which pinned options keep
// their index and the others are permuted.
func shuffleUnpinned(opts []Option, quizID, slotID, seed string) []int {
	order := make([]int, len(opts))
	var free []int
	for i, o := range opts {
		order[i] = i
		if !o.Pin {
			free = append(free, i)
		}
	}
	sum := sha256.Sum256([]byte(quizID + "\x00" + slotID + "\x00" + seed))
	src := rand.NewPCG(binary.BigEndian.Uint64(sum[0:8]), binary.BigEndian.Uint64(sum[8:16]))
	perm := append([]int(nil), free...)
	for i := len(perm) - 1; i > 0; i-- {
		j := int(src.Uint64() % uint64(i+1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	for k, pos := range free {
		order[pos] = perm[k]
	}
	return order
}

// drawn returns the version of slot i that d shows, with its options in
// the drawn order. An index d does not cover gives the question as
// written.
func (q *Quiz) drawn(d Draw, i int) Question {
	v := 0
	if i < len(d.Variants) {
		v = d.Variants[i]
	}
	qn := q.Questions[i].VariantAt(v)
	if i < len(d.Options) && d.Options[i] != nil && len(d.Options[i]) == len(qn.Options) {
		qn.Options = Arrange(qn.Options, d.Options[i])
	}
	return qn
}

// slots returns d's slot order, or authored order when d has none.
func (q *Quiz) slots(d Draw) []int {
	if d.Slots != nil {
		return d.Slots
	}
	order := make([]int, len(q.Questions))
	for i := range order {
		order[i] = i
	}
	return order
}

// ViewDraw returns the keyless view of the attempt d: slots in d's order,
// each as its drawn version with options in the drawn order, numbered from
// 1. QuestionView.ID stays the slot's id, so the form's field names are
// the same whichever version is shown.
func (q *Quiz) ViewDraw(d Draw) QuizView {
	v := QuizView{ID: q.ID, PassMark: q.PassMark(), XP: q.XPValue()}
	for n, i := range q.slots(d) {
		if i < 0 || i >= len(q.Questions) {
			continue
		}
		qn := q.drawn(d, i)
		qv := qn.View()
		qv.ID, qv.VariantID, qv.Number = q.Questions[i].ID, qn.ID, n+1
		v.Questions = append(v.Questions, qv)
	}
	return v
}

// GradeDraw grades the attempt d. answers are keyed by slot id (the form
// field names of ViewDraw). Questions come back in the order shown, each
// with its Number and VariantID, options in the drawn order; Missed holds
// the variant ids. Check completeness first with Unanswered: GradeDraw
// counts an unanswered question as wrong.
func GradeDraw(q *Quiz, d Draw, answers QuizAnswers) QuizResult {
	r := QuizResult{Total: len(q.Questions), PassMark: q.PassMark()}
	for n, i := range q.slots(d) {
		if i < 0 || i >= len(q.Questions) {
			continue
		}
		qn := q.drawn(d, i)
		f := GradeQuestion(&qn, answers[q.Questions[i].ID])
		f.ID, f.VariantID, f.Number = q.Questions[i].ID, qn.ID, n+1
		if f.Right {
			r.Score++
		} else {
			r.Missed = append(r.Missed, qn.ID)
		}
		r.Questions = append(r.Questions, f)
	}
	r.Passed = r.Total > 0 && r.Score >= r.PassMark
	return r
}

// Drawn returns the version of the slot at authored index i that d shows,
// with its options in the drawn order: the question a post for that slot
// answers. i must be a valid index of q.Questions.
func (q *Quiz) Drawn(d Draw, i int) Question { return q.drawn(d, i) }
