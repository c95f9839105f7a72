package quiz

// BlindPassOdds returns the chance that one attempt answered entirely at
// random passes q: every question answered with one of its answers drawn
// uniformly (one option of a single question, a non-empty set of a
// multiple one's options, one category, one value for each hint that
// matters on the tool), its versions drawn uniformly too. The quiz retry
// rule (QuizWait) lets a learner three such attempts before the first
// wait, so three times this is what luck alone is worth to a script that
// knows nothing.
func (q *Quiz) BlindPassOdds() float64 {
	// right[k] is the chance of exactly k right answers so far.
	right := make([]float64, len(q.Questions)+1)
	right[0] = 1
	for i := range q.Questions {
		p := blindOdds(&q.Questions[i])
		for k := i + 1; k >= 0; k-- {
			right[k] *= 1 - p
			if k > 0 {
				right[k] += right[k-1] * p
			}
		}
	}
	odds := 0.0
	for k := q.PassMark(); k < len(right); k++ {
		odds += right[k]
	}
	return odds
}

// blindOdds is the chance that a random answer to slot qn is right,
// averaged over its versions.
func blindOdds(qn *Question) float64 {
	n := qn.VariantCount()
	sum := 0.0
	for v := range n {
		sum += blindOddsOf(qn.VariantAt(v))
	}
	return sum / float64(n)
}

func blindOddsOf(v Question) float64 {
	switch v.kind() {
	case QuestionSingle:
		if len(v.Options) > 0 {
			return 1 / float64(len(v.Options))
		}
	case QuestionMultiple:
		if len(v.Options) > 0 && len(v.Options) < 31 {
			return 1 / float64(int(1)<<len(v.Options)-1)
		}
	case QuestionClassify:
		if len(v.Categories) > 0 {
			return 1 / float64(len(v.Categories))
		}
	case QuestionAnnotate:
		if v.Tool != nil {
			odds := 1.0
			for _, h := range AllHints() {
				if v.Tool.Matters(h) {
					odds /= 2
				}
			}
			return odds
		}
	}
	return 1
}
