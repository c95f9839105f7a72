package sandbox

import (
	"context"
	"testing"
)

func TestSmoke(t *testing.T) {
	for _, v := range []string{"workers", "inprocess"} {
		s := sharedSandbox(t, v)
		r, err := s.Run(context.Background(), "x = input()\nprint('hi', x)\nimport sys\nprint('e', file=sys.stderr)\n1/0\n", "you\n")
		t.Logf("%s: %+v err=%v", v, r, err)
		rep, err := s.Grade(context.Background(), "k, m = input().split('|', 1)\nprint(k.upper(), m)\n", []Case{{Name: "a", Stdin: "x|y|z\n", Expected: "X y|z\n"}, {Name: "b", Stdin: "q|w\n", Expected: "Q  x\n"}}, CompareTrimmedLines)
		t.Logf("%s: %+v err=%v", v, rep, err)
	}
}
