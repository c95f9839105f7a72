package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"learn/progress"
)

// post saves a post and fails the test on error.
func post(t *testing.T, s progress.Store, p progress.Post, n *progress.Notice) progress.Post {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLearner(ctx, p.AuthorID, t0); err != nil {
		t.Fatal(err)
	}
	if p.LessonSlug == "" {
		p.LessonSlug = "lesson-a"
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = t0
	}
	if p.Body == "" {
		p.Body, p.HTML = "body", "<p>body</p>"
	}
	got, err := s.CreatePost(ctx, p, n)
	if err != nil {
		t.Fatalf("CreatePost: %v", err)
	}
	return got
}

func ids(ps []progress.Post) []int64 {
	var out []int64
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func sameIDs(got []progress.Post, want ...int64) bool {
	g := ids(got)
	if len(g) != len(want) {
		return false
	}
	for i := range g {
		if g[i] != want[i] {
			return false
		}
	}
	return true
}

func testPosts(t *testing.T, s Backend) {
	ctx := context.Background()
	tc := teacher(t, s, "qa@school.example")
	c := class(t, s, tc.ID, "Room 1", "QAQAQA")
	q := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "asker", AuthorName: "Ann", Part: "widget:which-channel", Body: "why?", HTML: "<p>why?</p>"}, nil)
	if q.ID == 0 || q.ClassID != c.ID || q.QuestionID != 0 || !q.IsQuestion() || q.Part != "widget:which-channel" || q.AuthorName != "Ann" || !q.CreatedAt.Equal(t0) {
		t.Fatalf("created question = %+v", q)
	}
	n := &progress.Notice{LearnerID: "asker", Kind: progress.NoticeAnswer, QuestionID: q.ID, ActorName: "Ben", CreatedAt: t0.Add(time.Minute)}
	a := post(t, s, progress.Post{ClassID: c.ID, QuestionID: q.ID, AuthorID: "answerer", AuthorName: "Ben", TeacherID: 0, CreatedAt: t0.Add(time.Minute)}, n)
	if a.QuestionID != q.ID || a.IsQuestion() {
		t.Fatalf("answer = %+v", a)
	}
	if n.PostID != a.ID {
		t.Errorf("notice PostID = %d, want the new answer %d", n.PostID, a.ID)
	}
	if got, _ := s.UnreadNotices(ctx, "asker"); got != 1 {
		t.Errorf("UnreadNotices(asker) = %d, want 1", got)
	}
	if _, err := s.FindPost(ctx, 99999); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("FindPost(unknown) = %v, want ErrNotFound", err)
	}

	edited := t0.Add(2 * time.Minute)
	if err := s.EditPost(ctx, q.ID, "why not?", "<p>why not?</p>", edited); err != nil {
		t.Fatal(err)
	}
	got, err := s.FindPost(ctx, q.ID)
	if err != nil || got.Body != "why not?" || got.HTML != "<p>why not?</p>" || !got.EditedAt.Equal(edited) {
		t.Errorf("after EditPost: %+v, %v", got, err)
	}
	if err := s.EditPost(ctx, 99999, "x", "x", edited); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("EditPost(unknown) = %v, want ErrNotFound", err)
	}

	// Accepting saves the notices with it; 0 takes the mark off.
	if err := s.SetAccepted(ctx, q.ID, a.ID, []progress.Notice{{LearnerID: "answerer", Kind: progress.NoticeAccepted, QuestionID: q.ID, PostID: a.ID, ActorName: "Ann", CreatedAt: t0.Add(3 * time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FindPost(ctx, q.ID); got.AcceptedID != a.ID {
		t.Errorf("AcceptedID = %d, want %d", got.AcceptedID, a.ID)
	}
	if got, _ := s.UnreadNotices(ctx, "answerer"); got != 1 {
		t.Errorf("UnreadNotices(answerer) = %d, want 1", got)
	}
	if err := s.SetAccepted(ctx, q.ID, 0, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FindPost(ctx, q.ID); got.AcceptedID != 0 {
		t.Errorf("AcceptedID after clearing = %d, want 0", got.AcceptedID)
	}
	if err := s.SetAccepted(ctx, a.ID, q.ID, nil); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetAccepted on an answer = %v, want ErrNotFound", err)
	}

	// Helpful marks count once per learner.
	if _, err := s.EnsureLearner(ctx, "reader", t0); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		added, err := s.MarkHelpful(ctx, a.ID, "reader", t0)
		if err != nil || added != want {
			t.Errorf("MarkHelpful #%d = %v, %v; want %v", i+1, added, err, want)
		}
	}
	if _, err := s.MarkHelpful(ctx, a.ID, "asker", t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FindPost(ctx, a.ID); got.Helpful != 2 {
		t.Errorf("Helpful = %d, want 2", got.Helpful)
	}

	// Deleting keeps the row, clears the text, and keeps the answers.
	del := t0.Add(4 * time.Minute)
	if err := s.DeletePost(ctx, q.ID, del); err != nil {
		t.Fatal(err)
	}
	got, _ = s.FindPost(ctx, q.ID)
	if !got.Deleted() || !got.DeletedAt.Equal(del) || got.Body != "" || got.HTML != "" {
		t.Errorf("deleted question = %+v", got)
	}
	if _, err := s.FindPost(ctx, a.ID); err != nil {
		t.Errorf("the answer of a deleted question: %v", err)
	}
	if err := s.DeletePost(ctx, 99999, del); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("DeletePost(unknown) = %v, want ErrNotFound", err)
	}
}

func testPostModeration(t *testing.T, s Backend) {
	ctx := context.Background()
	tc := teacher(t, s, "mod@school.example")
	c := class(t, s, tc.ID, "Room 2", "MODMOD")
	q := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "asker", AuthorName: "Ann"}, nil)
	a := post(t, s, progress.Post{ClassID: c.ID, QuestionID: q.ID, AuthorID: "rude", AuthorName: "Rude", CreatedAt: t0.Add(time.Second)}, nil)
	for _, id := range []string{"r1", "r2"} {
		if _, err := s.EnsureLearner(ctx, id, t0); err != nil {
			t.Fatal(err)
		}
	}
	if added, err := s.ReportPost(ctx, a.ID, "r1", "spam", t0.Add(time.Minute)); err != nil || !added {
		t.Fatalf("ReportPost = %v, %v", added, err)
	}
	if added, err := s.ReportPost(ctx, a.ID, "r1", "again", t0.Add(2*time.Minute)); err != nil || added {
		t.Errorf("a second open report by the same learner = %v, %v; want not added", added, err)
	}
	if _, err := s.ReportPost(ctx, a.ID, "r2", "rude words", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReportPost(ctx, q.ID, "r1", "off topic", t0.Add(90*time.Second)); err != nil {
		t.Fatal(err)
	}
	rep, err := s.ReportedPosts(ctx, c.ID, 10)
	if err != nil || !sameIDs(rep, a.ID, q.ID) {
		t.Fatalf("ReportedPosts = %v, %v; want [%d %d] (latest report first)", ids(rep), err, a.ID, q.ID)
	}
	if rep[0].Reports != 2 || rep[0].ReportReason != "rude words" || !rep[0].ReportedAt.Equal(t0.Add(3*time.Minute)) {
		t.Errorf("reported answer = reports %d, reason %q, at %v", rep[0].Reports, rep[0].ReportReason, rep[0].ReportedAt)
	}

	// Hiding keeps the post and resolves its reports.
	hid := t0.Add(5 * time.Minute)
	if err := s.SetHidden(ctx, a.ID, hid, "Be kind.", hid); err != nil {
		t.Fatal(err)
	}
	got, err := s.FindPost(ctx, a.ID)
	if err != nil || !got.Hidden() || !got.HiddenAt.Equal(hid) || got.HiddenReason != "Be kind." || got.Body != "body" || got.Reports != 0 {
		t.Errorf("hidden post = %+v, %v", got, err)
	}
	if rep, _ := s.ReportedPosts(ctx, c.ID, 10); !sameIDs(rep, q.ID) {
		t.Errorf("ReportedPosts after hiding = %v, want [%d]", ids(rep), q.ID)
	}
	// A resolved report can be made again.
	if added, err := s.ReportPost(ctx, a.ID, "r1", "still rude", t0.Add(6*time.Minute)); err != nil || !added {
		t.Errorf("reporting again after resolution = %v, %v; want added", added, err)
	}
	if err := s.SetHidden(ctx, a.ID, time.Time{}, "", t0.Add(7*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FindPost(ctx, a.ID); got.Hidden() || got.HiddenReason != "" || got.Reports != 0 {
		t.Errorf("restored post = %+v", got)
	}
	if err := s.SetHidden(ctx, 99999, hid, "x", hid); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetHidden(unknown) = %v, want ErrNotFound", err)
	}
}

func testLessonPostsScopes(t *testing.T, s Backend) {
	ctx := context.Background()
	tc := teacher(t, s, "scopes@school.example")
	c1 := class(t, s, tc.ID, "One", "ONEONE")
	c2 := class(t, s, tc.ID, "Two", "TWOTWO")
	p1 := post(t, s, progress.Post{ClassID: c1.ID, AuthorID: "a", AuthorName: "A"}, nil)
	p2 := post(t, s, progress.Post{ClassID: c2.ID, AuthorID: "b", AuthorName: "B", CreatedAt: t0.Add(time.Second)}, nil)
	pub := post(t, s, progress.Post{AuthorID: "c", AuthorName: "C", CreatedAt: t0.Add(2 * time.Second)}, nil)
	ans := post(t, s, progress.Post{ClassID: c1.ID, QuestionID: p1.ID, AuthorID: "b", AuthorName: "B", CreatedAt: t0.Add(3 * time.Second)}, nil)
	post(t, s, progress.Post{ClassID: c1.ID, AuthorID: "a", AuthorName: "A", LessonSlug: "lesson-b"}, nil)
	if _, err := s.MarkHelpful(ctx, ans.ID, "a", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReportPost(ctx, p1.ID, "b", "", t0); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		q    progress.PostQuery
		want []int64
	}{
		{"one class", progress.PostQuery{LessonSlug: "lesson-a", ClassIDs: []int64{c1.ID}}, []int64{p1.ID, ans.ID}},
		{"other class", progress.PostQuery{LessonSlug: "lesson-a", ClassIDs: []int64{c2.ID}}, []int64{p2.ID}},
		{"public", progress.PostQuery{LessonSlug: "lesson-a", Public: true}, []int64{pub.ID}},
		{"both classes and public", progress.PostQuery{LessonSlug: "lesson-a", ClassIDs: []int64{c1.ID, c2.ID}, Public: true}, []int64{p1.ID, p2.ID, pub.ID, ans.ID}},
		{"no scope", progress.PostQuery{LessonSlug: "lesson-a"}, nil},
		{"other lesson", progress.PostQuery{LessonSlug: "lesson-c", ClassIDs: []int64{c1.ID}, Public: true}, nil},
	}
	for _, tt := range cases {
		got, err := s.LessonPosts(ctx, tt.q)
		if err != nil || !sameIDs(got, tt.want...) {
			t.Errorf("%s: LessonPosts = %v, %v; want %v", tt.name, ids(got), err, tt.want)
		}
	}
	got, err := s.LessonPosts(ctx, progress.PostQuery{LessonSlug: "lesson-a", ClassIDs: []int64{c1.ID}, Viewer: "a"})
	if err != nil || len(got) != 2 || !got[1].MarkedHelpful || got[1].Helpful != 1 || got[0].Reported {
		t.Errorf("viewer a: %+v, %v; want the answer marked helpful by a", got, err)
	}
	got, _ = s.LessonPosts(ctx, progress.PostQuery{LessonSlug: "lesson-a", ClassIDs: []int64{c1.ID}, Viewer: "b"})
	if len(got) != 2 || !got[0].Reported || got[0].Reports != 1 || got[1].MarkedHelpful {
		t.Errorf("viewer b: %+v; want the question reported by b", got)
	}
}

func testUnansweredQuestions(t *testing.T, s Backend) {
	ctx := context.Background()
	tc := teacher(t, s, "open@school.example")
	c := class(t, s, tc.ID, "Open", "OPENOP")
	other := class(t, s, tc.ID, "Other", "OTHERO")
	old := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "a", AuthorName: "A"}, nil)
	answered := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "a", AuthorName: "A", CreatedAt: t0.Add(time.Minute)}, nil)
	post(t, s, progress.Post{ClassID: c.ID, QuestionID: answered.ID, AuthorID: "b", AuthorName: "B", CreatedAt: t0.Add(2 * time.Minute)}, nil)
	hiddenAnswer := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "a", AuthorName: "A", CreatedAt: t0.Add(3 * time.Minute)}, nil)
	ha := post(t, s, progress.Post{ClassID: c.ID, QuestionID: hiddenAnswer.ID, AuthorID: "b", AuthorName: "B", CreatedAt: t0.Add(4 * time.Minute)}, nil)
	if err := s.SetHidden(ctx, ha.ID, t0.Add(5*time.Minute), "no", t0.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	hiddenQ := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "a", AuthorName: "A", CreatedAt: t0.Add(6 * time.Minute)}, nil)
	if err := s.SetHidden(ctx, hiddenQ.ID, t0.Add(6*time.Minute), "no", t0.Add(6*time.Minute)); err != nil {
		t.Fatal(err)
	}
	deletedQ := post(t, s, progress.Post{ClassID: c.ID, AuthorID: "a", AuthorName: "A", CreatedAt: t0.Add(7 * time.Minute)}, nil)
	if err := s.DeletePost(ctx, deletedQ.ID, t0.Add(8*time.Minute)); err != nil {
		t.Fatal(err)
	}
	post(t, s, progress.Post{ClassID: other.ID, AuthorID: "a", AuthorName: "A"}, nil)
	pub := post(t, s, progress.Post{AuthorID: "a", AuthorName: "A"}, nil)

	got, err := s.UnansweredQuestions(ctx, c.ID, 10)
	if err != nil || !sameIDs(got, hiddenAnswer.ID, old.ID) {
		t.Errorf("UnansweredQuestions = %v, %v; want [%d %d], newest first", ids(got), err, hiddenAnswer.ID, old.ID)
	}
	if got, _ := s.UnansweredQuestions(ctx, c.ID, 1); !sameIDs(got, hiddenAnswer.ID) {
		t.Errorf("with limit 1 = %v", ids(got))
	}
	if got, _ := s.UnansweredQuestions(ctx, 0, 10); !sameIDs(got, pub.ID) {
		t.Errorf("public unanswered = %v, want [%d]", ids(got), pub.ID)
	}
}

func testNotices(t *testing.T, s Backend) {
	ctx := context.Background()
	q1 := post(t, s, progress.Post{AuthorID: "asker", AuthorName: "Ann", LessonSlug: "lesson-x"}, nil)
	q2 := post(t, s, progress.Post{AuthorID: "asker", AuthorName: "Ann", LessonSlug: "lesson-y"}, nil)
	for i, q := range []progress.Post{q1, q2, q1} {
		n := &progress.Notice{LearnerID: "asker", Kind: progress.NoticeAnswer, QuestionID: q.ID, ActorName: "Ben", CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
		post(t, s, progress.Post{QuestionID: q.ID, AuthorID: "ben", AuthorName: "Ben", LessonSlug: q.LessonSlug}, n)
	}
	ns, err := s.Notices(ctx, "asker", 10)
	if err != nil || len(ns) != 3 {
		t.Fatalf("Notices = %v, %v", ns, err)
	}
	if ns[0].QuestionID != q1.ID || ns[0].LessonSlug != "lesson-x" || ns[1].LessonSlug != "lesson-y" || ns[0].Kind != progress.NoticeAnswer || ns[0].ActorName != "Ben" || ns[0].Read() {
		t.Errorf("Notices, newest first = %+v", ns)
	}
	if n, err := s.ReadNotices(ctx, "asker", q1.ID, t0.Add(time.Hour)); err != nil || n != 2 {
		t.Errorf("ReadNotices(q1) = %d, %v; want 2", n, err)
	}
	if n, _ := s.UnreadNotices(ctx, "asker"); n != 1 {
		t.Errorf("UnreadNotices after reading q1 = %d, want 1", n)
	}
	if n, _ := s.ReadNotices(ctx, "asker", q1.ID, t0.Add(time.Hour)); n != 0 {
		t.Errorf("reading again marked %d", n)
	}
	if n, _ := s.ReadNotices(ctx, "asker", 0, t0.Add(2*time.Hour)); n != 1 {
		t.Errorf("ReadNotices(all) = %d, want 1", n)
	}
	ns, _ = s.Notices(ctx, "asker", 1)
	if len(ns) != 1 || !ns[0].Read() || !ns[0].ReadAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("Notices(limit 1) after reading = %+v", ns)
	}
	if n, _ := s.UnreadNotices(ctx, "nobody"); n != 0 {
		t.Errorf("UnreadNotices(nobody) = %d", n)
	}
}

func testPublicNames(t *testing.T, s Backend) {
	ctx := context.Background()
	if _, err := s.PublicName(ctx, "x"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("PublicName(none) = %v, want ErrNotFound", err)
	}
	if err := s.SetPublicName(ctx, "x", "Sam", "sam", t0); err != nil {
		t.Fatal(err)
	}
	if name, err := s.PublicName(ctx, "x"); err != nil || name != "Sam" {
		t.Errorf("PublicName = %q, %v", name, err)
	}
	if err := s.SetPublicName(ctx, "y", "SAM", "sam", t0); !errors.Is(err, progress.ErrConflict) {
		t.Errorf("a name another learner uses = %v, want ErrConflict", err)
	}
	if err := s.SetPublicName(ctx, "x", "Sam B", "sam b", t0); err != nil {
		t.Fatalf("changing one's own name: %v", err)
	}
	if err := s.SetPublicName(ctx, "y", "Sam", "sam", t0); err != nil {
		t.Errorf("a name freed by its owner: %v", err)
	}
}

func testDeleteLearnerTakesPosts(t *testing.T, s Backend) {
	ctx := context.Background()
	q := post(t, s, progress.Post{AuthorID: "gone", AuthorName: "Gone"}, nil)
	n := &progress.Notice{LearnerID: "gone", Kind: progress.NoticeAnswer, QuestionID: q.ID, ActorName: "B", CreatedAt: t0}
	a := post(t, s, progress.Post{QuestionID: q.ID, AuthorID: "stays", AuthorName: "B"}, n)
	if err := s.DeleteLearner(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindPost(ctx, q.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("the deleted learner's question: %v, want ErrNotFound", err)
	}
	if _, err := s.FindPost(ctx, a.ID); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("an answer to the deleted learner's question: %v, want ErrNotFound (it went with its thread)", err)
	}
	if n, _ := s.UnreadNotices(ctx, "gone"); n != 0 {
		t.Errorf("notices of a deleted learner = %d", n)
	}
}
