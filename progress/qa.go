package progress

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"learn/lessons"
)

// Questions and answers under lessons.
//
// A thread is a question and its answers. Its scope is one class (its
// members and its teacher see it) or public (learners in no class see it,
// admins moderate it). A learner in a class sees the threads of their
// classes only; a learner of another class sees none of them; a teacher
// sees the threads of the classes they teach. Every rule is checked here,
// from the scope of the post, never in a handler.

// Q&A limits.
const (
	// EditWindow is how long an author may edit a post after writing it.
	EditWindow = 15 * time.Minute
	// maxListed bounds the dashboard's lists.
	maxListed = 50
)

// Scope is where a thread lives: a class, or the public threads (ClassID
// 0).
type Scope struct {
	ClassID int64
	// Name is the class's name, or "Everyone" for public threads.
	Name string
	// AuthorName is the name the actor posts under here ("" when they have
	// none yet: a learner in no class must choose one).
	AuthorName string
	// Moderator is true when the actor may hide and restore posts here.
	Moderator bool
}

// publicScopeName names the public threads.
const publicScopeName = "Everyone"

// scopes returns the scopes a may see, keyed by class id (0 for public).
func (s *Service) scopes(ctx context.Context, a Actor) (map[int64]Scope, error) {
	out := map[int64]Scope{}
	if a.ID == "" {
		return out, nil
	}
	if !a.Known && !a.IsTeacher() {
		// A first visit is in no class and has chosen no name: it reads
		// the public threads, at no cost of a query.
		out[0] = Scope{Name: publicScopeName}
		return out, nil
	}
	ms, err := s.classes.LearnerClasses(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		out[m.Class.ID] = Scope{ClassID: m.Class.ID, Name: m.Class.Name, AuthorName: m.Member.Name}
	}
	taught := 0
	if a.IsTeacher() {
		cs, err := s.classes.TeacherClasses(ctx, a.TeacherID)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c.Archived() {
				continue
			}
			taught++
			out[c.ID] = Scope{ClassID: c.ID, Name: c.Name, AuthorName: a.TeacherName, Moderator: true}
		}
	}
	admin := a.IsTeacher() && a.Role == RoleAdmin
	if (len(ms) == 0 && taught == 0) || admin {
		sc := Scope{Name: publicScopeName, Moderator: admin}
		if admin {
			sc.AuthorName = a.TeacherName
		} else if a.Known {
			name, err := s.qa.PublicName(ctx, a.ID)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return nil, err
			}
			sc.AuthorName = name
		}
		out[0] = sc
	}
	return out, nil
}

// sortedScopes returns the scopes in a stable order: classes by name, then
// public.
func sortedScopes(m map[int64]Scope) []Scope {
	out := make([]Scope, 0, len(m))
	for _, sc := range m {
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].ClassID == 0) != (out[j].ClassID == 0) {
			return out[j].ClassID == 0
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ClassID < out[j].ClassID
	})
	return out
}

// noPost is the one answer for a post the actor may not see, whether or
// not it exists.
func noPost() *Error {
	return notFound("There is no such question here. It may have been deleted, or it belongs to a class you are not in.")
}

// visiblePost finds a post a may see, with the scope it lives in.
func (s *Service) visiblePost(ctx context.Context, a Actor, id int64) (Post, Scope, error) {
	p, err := s.qa.FindPost(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return Post{}, Scope{}, noPost()
	}
	if err != nil {
		return Post{}, Scope{}, err
	}
	scopes, err := s.scopes(ctx, a)
	if err != nil {
		return Post{}, Scope{}, err
	}
	sc, ok := scopes[p.ClassID]
	if !ok || p.Deleted() || (p.Hidden() && !sc.Moderator && p.AuthorID != a.ID) {
		return Post{}, Scope{}, noPost()
	}
	return p, sc, nil
}

// PostInput is a question or an answer as a learner writes it.
type PostInput struct {
	LessonSlug string
	// ClassID picks the scope of a new question among the actor's (0: the
	// first of them). Answers take their question's.
	ClassID int64
	// Part ties a question to a part of the lesson ("kind:id" from
	// lessons.Part.Key); "" for the lesson as a whole.
	Part string
	Body string
	// Address is the client's network address, for the rate limit.
	Address string
}

// takePost spends one post of a's and of the address's allowance.
func (s *Service) takePost(ctx context.Context, a Actor, address string) error {
	wait, err := s.takeTries(ctx, s.now(), RateCheck{s.rules.postLearner, a.ID}, RateCheck{s.rules.postAddr, addressKey(address)})
	if err != nil {
		return err
	}
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		return tooMany(wait, fmt.Sprintf("You are posting faster than this server allows (%d posts a minute). Wait %d seconds, then post again: your text is still in the form.", PostsPerLearner, secs))
	}
	return nil
}

// Ask posts a's question under a lesson.
//
// Errors: NotFound for a lesson not in the course, or a class a is not in;
// Invalid for a blank post, an unknown part, or an actor with no display
// name (Message says to choose one); TooLarge past MaxPostLen; TooMany
// past PostsPerLearner a minute (RetryAfter set).
func (s *Service) Ask(ctx context.Context, a Actor, in PostInput) (Post, error) {
	lesson, ok := s.Course().Lesson(in.LessonSlug)
	if !ok {
		return Post{}, notFound("There is no such lesson. The course home lists every lesson.")
	}
	if in.Part != "" {
		if _, ok := lesson.Part(in.Part); !ok {
			return Post{}, invalid("This lesson has no such part to ask about; pick one from the list, or the lesson as a whole.")
		}
	}
	scopes, err := s.scopes(ctx, a)
	if err != nil {
		return Post{}, err
	}
	sc, ok := scopes[in.ClassID]
	if in.ClassID == 0 && !ok {
		if list := sortedScopes(scopes); len(list) > 0 {
			sc, ok = list[0], true
		}
	}
	if !ok {
		return Post{}, notFound("You can ask only in your own classes.")
	}
	return s.writePost(ctx, a, sc, Post{LessonSlug: lesson.Slug, ClassID: sc.ClassID, Part: in.Part}, in, nil)
}

// Answer posts a's answer to a question a can see, and tells the asker.
//
// Errors: NotFound for a question a may not see; Invalid, TooLarge and
// TooMany as Ask.
func (s *Service) Answer(ctx context.Context, a Actor, questionID int64, in PostInput) (Post, error) {
	q, sc, err := s.visiblePost(ctx, a, questionID)
	if err != nil {
		return Post{}, err
	}
	if !q.IsQuestion() {
		return Post{}, invalid("Answer the question itself, not another answer.")
	}
	if q.Hidden() {
		return Post{}, invalid("This question is hidden; it takes no new answers.")
	}
	p := Post{LessonSlug: q.LessonSlug, ClassID: q.ClassID, QuestionID: q.ID}
	var n *Notice
	if q.AuthorID != a.ID {
		n = &Notice{LearnerID: q.AuthorID, Kind: NoticeAnswer, QuestionID: q.ID, ActorName: sc.AuthorName}
	}
	p, err = s.writePost(ctx, a, sc, p, in, n)
	if err == nil && n != nil {
		// The asker's header badge counts the notice: their summary must
		// not wait for its minute to run out.
		s.summaries.forget(q.AuthorID)
	}
	return p, err
}

// writePost checks and saves a new post.
func (s *Service) writePost(ctx context.Context, a Actor, sc Scope, p Post, in PostInput, n *Notice) (Post, error) {
	if sc.AuthorName == "" {
		return Post{}, invalid("Choose the name others will see beside your posts first.")
	}
	body, perr := cleanPost(in.Body)
	if perr != nil {
		return Post{}, perr
	}
	if err := s.takePost(ctx, a, in.Address); err != nil {
		return Post{}, err
	}
	html, err := s.text.render(body)
	if err != nil {
		return Post{}, err
	}
	now := s.now()
	if _, err := s.learning.EnsureLearner(ctx, a.ID, now); err != nil {
		return Post{}, err
	}
	p.AuthorID, p.AuthorName, p.Body, p.HTML, p.CreatedAt = a.ID, sc.AuthorName, body, html, now
	if sc.Moderator {
		p.TeacherID = a.TeacherID
	}
	if n != nil {
		n.CreatedAt = now
	}
	return s.qa.CreatePost(ctx, p, n)
}

// EditPost replaces the text of a's own post, within EditWindow of
// writing it.
//
// Errors: NotFound for a post a may not see; Forbidden for another's post;
// Invalid past the window or for a hidden post; TooLarge and TooMany as
// Ask.
func (s *Service) EditPost(ctx context.Context, a Actor, postID int64, body, address string) (Post, error) {
	p, _, err := s.visiblePost(ctx, a, postID)
	if err != nil {
		return Post{}, err
	}
	if p.AuthorID != a.ID {
		return Post{}, &Error{Kind: Forbidden, Message: "You can edit only your own posts."}
	}
	if p.Hidden() {
		return Post{}, invalid("This post is hidden by a moderator; it cannot be edited.")
	}
	if s.now().Sub(p.CreatedAt) > EditWindow {
		return Post{}, invalid(fmt.Sprintf("A post can be edited for %d minutes after it is written. Add an answer to say more.", int(EditWindow/time.Minute)))
	}
	clean, perr := cleanPost(body)
	if perr != nil {
		return Post{}, perr
	}
	if err := s.takePost(ctx, a, address); err != nil {
		return Post{}, err
	}
	html, err := s.text.render(clean)
	if err != nil {
		return Post{}, err
	}
	now := s.now()
	if err := s.qa.EditPost(ctx, p.ID, clean, html, now); err != nil {
		return Post{}, err
	}
	p.Body, p.HTML, p.EditedAt = clean, html, now
	return p, nil
}

// DeletePost deletes a's own post. A question's answers stay, under a
// note that the question was deleted.
//
// Errors: NotFound for a post a may not see; Forbidden for another's post.
func (s *Service) DeletePost(ctx context.Context, a Actor, postID int64) (Post, error) {
	p, _, err := s.visiblePost(ctx, a, postID)
	if err != nil {
		return Post{}, err
	}
	if p.AuthorID != a.ID {
		return Post{}, &Error{Kind: Forbidden, Message: "You can delete only your own posts."}
	}
	return p, s.qa.DeletePost(ctx, p.ID, s.now())
}

// Accept marks an answer as the accepted one of its question; accepting
// the accepted answer again takes the mark off. The asker and the
// thread's moderator may accept.
//
// Errors: NotFound for an answer a may not see; Forbidden for anyone else;
// Invalid for a question, or a hidden answer.
func (s *Service) Accept(ctx context.Context, a Actor, answerID int64) (Post, error) {
	ans, sc, err := s.visiblePost(ctx, a, answerID)
	if err != nil {
		return Post{}, err
	}
	if ans.IsQuestion() {
		return Post{}, invalid("Only an answer can be accepted.")
	}
	if ans.Hidden() {
		return Post{}, invalid("A hidden answer cannot be accepted.")
	}
	q, err := s.qa.FindPost(ctx, ans.QuestionID)
	if err != nil {
		return Post{}, err
	}
	if q.AuthorID != a.ID && !sc.Moderator {
		return Post{}, &Error{Kind: Forbidden, Message: "Only the one who asked, or the teacher, can accept an answer."}
	}
	accepted := ans.ID
	if q.AcceptedID == ans.ID {
		accepted = 0
	}
	var notices []Notice
	if accepted != 0 {
		now := s.now()
		if ans.AuthorID != a.ID {
			notices = append(notices, Notice{LearnerID: ans.AuthorID, Kind: NoticeAccepted, QuestionID: q.ID, PostID: ans.ID, ActorName: sc.AuthorName, CreatedAt: now})
		}
		if q.AuthorID != a.ID && q.AuthorID != ans.AuthorID {
			notices = append(notices, Notice{LearnerID: q.AuthorID, Kind: NoticeAccepted, QuestionID: q.ID, PostID: ans.ID, ActorName: sc.AuthorName, CreatedAt: now})
		}
	}
	if err := s.qa.SetAccepted(ctx, q.ID, accepted, notices); err != nil {
		return Post{}, err
	}
	for _, n := range notices {
		s.summaries.forget(n.LearnerID)
	}
	// Acting on the thread reads its notices.
	if err := s.ReadNotices(ctx, a, q.ID); err != nil {
		return Post{}, err
	}
	q.AcceptedID = accepted
	return q, nil
}

// PostLesson returns the lesson of a post a may see. Errors: NotFound for
// a post a may not see.
func (s *Service) PostLesson(ctx context.Context, a Actor, postID int64) (string, error) {
	p, _, err := s.visiblePost(ctx, a, postID)
	return p.LessonSlug, err
}

// MarkHelpful records that a found an answer helpful; marking again
// changes nothing.
//
// Errors: NotFound for an answer a may not see; Invalid for a question or
// one's own answer.
func (s *Service) MarkHelpful(ctx context.Context, a Actor, answerID int64) (Post, error) {
	p, _, err := s.visiblePost(ctx, a, answerID)
	if err != nil {
		return Post{}, err
	}
	if p.IsQuestion() {
		return Post{}, invalid("Mark answers as helpful, not questions.")
	}
	if p.AuthorID == a.ID {
		return Post{}, invalid("You cannot mark your own answer as helpful.")
	}
	now := s.now()
	if _, err := s.learning.EnsureLearner(ctx, a.ID, now); err != nil {
		return Post{}, err
	}
	if _, err := s.qa.MarkHelpful(ctx, p.ID, a.ID, now); err != nil {
		return Post{}, err
	}
	return p, nil
}

// Report records that a thinks a post breaks the rules; the thread's
// moderator sees it listed. Reporting again changes nothing.
//
// Errors: NotFound for a post a may not see; Invalid for one's own post or
// an over-long note.
func (s *Service) Report(ctx context.Context, a Actor, postID int64, reason string) (Post, error) {
	p, _, err := s.visiblePost(ctx, a, postID)
	if err != nil {
		return Post{}, err
	}
	if p.AuthorID == a.ID {
		return Post{}, invalid("This is your own post: edit or delete it instead.")
	}
	note, rerr := cleanReason(reason)
	if rerr != nil {
		return Post{}, rerr
	}
	now := s.now()
	if _, err := s.learning.EnsureLearner(ctx, a.ID, now); err != nil {
		return Post{}, err
	}
	if _, err := s.qa.ReportPost(ctx, p.ID, a.ID, note, now); err != nil {
		return Post{}, err
	}
	return p, nil
}

// Moderate hides a post with a reason its author sees (hide true) or
// restores it (hide false). The post is kept either way, and its open
// reports are resolved. Only the thread's moderator may: the teacher of
// the class, or an admin for a public thread.
//
// Errors: NotFound for a post a may not see; Forbidden for anyone else;
// Invalid for hiding with no reason or an over-long one.
func (s *Service) Moderate(ctx context.Context, a Actor, postID int64, hide bool, reason string) (Post, error) {
	p, sc, err := s.visiblePost(ctx, a, postID)
	if err != nil {
		return Post{}, err
	}
	if !sc.Moderator {
		return Post{}, &Error{Kind: Forbidden, Message: "Only the class's teacher can hide or restore posts."}
	}
	note, rerr := cleanReason(reason)
	if rerr != nil {
		return Post{}, rerr
	}
	now := s.now()
	var at time.Time
	if hide {
		if note == "" {
			return Post{}, invalid("Say why the post is hidden: its author sees the reason.")
		}
		at = now
	} else {
		note = ""
	}
	if err := s.qa.SetHidden(ctx, p.ID, at, note, now); err != nil {
		return Post{}, err
	}
	p.HiddenAt, p.HiddenReason = at, note
	return p, nil
}

// ChoosePublicName sets the name a learner in no class posts under in
// public threads.
//
// Errors: Invalid for a bad name, or one another learner uses.
func (s *Service) ChoosePublicName(ctx context.Context, a Actor, name string) (string, error) {
	clean, key, problem := cleanName(name, "name")
	if problem != "" {
		return "", invalid(problem)
	}
	err := s.qa.SetPublicName(ctx, a.ID, clean, key, s.now())
	if errors.Is(err, ErrConflict) {
		return "", invalid(fmt.Sprintf("Someone already posts as %q. Add an initial or pick another name.", clean))
	}
	return clean, err
}

// PostView is a post as one actor sees it, with what they may do to it.
type PostView struct {
	Post
	// Part is the lesson part a question is tied to (zero when none).
	Part     lessons.Part
	Mine     bool
	Accepted bool
	// Teacher marks a teacher's (or admin's) post.
	Teacher bool
	// CanEdit holds within EditWindow of writing one's own post.
	CanEdit, CanDelete, CanAccept, CanMarkHelpful, CanReport, CanModerate bool
}

// Thread is a question with its answers as one actor sees them.
type Thread struct {
	Question PostView
	Answers  []PostView
	Scope    Scope
	// Helpful sums the helpful marks of the shown answers.
	Helpful int
}

// LessonQA is a lesson's questions section for one actor.
type LessonQA struct {
	Threads []Thread
	// Scopes are where the actor may ask (each with the name they post
	// under); an empty AuthorName asks them to choose a name first.
	Scopes []Scope
	// Parts are the lesson parts a question can be tied to.
	Parts []lessons.Part
}

// LessonQuestions returns the threads of a lesson that a sees, accepted
// ones first, then by helpful marks, then newest first. Hidden posts are
// shown only to their author (with the reason) and the moderator.
//
// Errors: NotFound for a lesson not in the course.
func (s *Service) LessonQuestions(ctx context.Context, a Actor, slug string) (LessonQA, error) {
	lesson, ok := s.Course().Lesson(slug)
	if !ok {
		return LessonQA{}, notFound("There is no such lesson. The course home lists every lesson.")
	}
	out := LessonQA{Parts: lesson.Parts}
	scopes, err := s.scopes(ctx, a)
	if err != nil {
		return out, err
	}
	out.Scopes = sortedScopes(scopes)
	q := PostQuery{LessonSlug: slug, Viewer: a.ID}
	for id := range scopes {
		if id == 0 {
			q.Public = true
		} else {
			q.ClassIDs = append(q.ClassIDs, id)
		}
	}
	if len(scopes) == 0 {
		return out, nil
	}
	posts, err := s.qa.LessonPosts(ctx, q)
	if err != nil {
		return out, err
	}
	now := s.now()
	byQuestion := map[int64]*Thread{}
	var order []int64
	for _, p := range posts {
		sc := scopes[p.ClassID]
		if p.IsQuestion() {
			byQuestion[p.ID] = &Thread{Question: s.postView(a, sc, p, Post{}, lesson, now), Scope: sc}
			order = append(order, p.ID)
		}
	}
	for _, p := range posts {
		t := byQuestion[p.QuestionID]
		if p.IsQuestion() || t == nil || p.Deleted() || (p.Hidden() && !t.Scope.Moderator && p.AuthorID != a.ID) {
			continue
		}
		t.Answers = append(t.Answers, s.postView(a, t.Scope, p, t.Question.Post, lesson, now))
		if !p.Hidden() {
			t.Helpful += p.Helpful
		}
	}
	for _, id := range order {
		t := byQuestion[id]
		qp := t.Question.Post
		if qp.Hidden() && !t.Scope.Moderator && qp.AuthorID != a.ID {
			continue
		}
		if qp.Deleted() && len(t.Answers) == 0 {
			continue
		}
		sort.SliceStable(t.Answers, func(i, j int) bool {
			x, y := t.Answers[i], t.Answers[j]
			if x.Accepted != y.Accepted {
				return x.Accepted
			}
			if x.Helpful != y.Helpful {
				return x.Helpful > y.Helpful
			}
			return x.CreatedAt.Before(y.CreatedAt)
		})
		out.Threads = append(out.Threads, *t)
	}
	sort.SliceStable(out.Threads, func(i, j int) bool {
		x, y := out.Threads[i], out.Threads[j]
		if (x.Question.AcceptedID != 0) != (y.Question.AcceptedID != 0) {
			return x.Question.AcceptedID != 0
		}
		if x.Helpful != y.Helpful {
			return x.Helpful > y.Helpful
		}
		return x.Question.CreatedAt.After(y.Question.CreatedAt)
	})
	return out, nil
}

// postView works out what a may do to p in scope sc (q is p's question,
// zero for a question).
func (s *Service) postView(a Actor, sc Scope, p, q Post, lesson *lessons.Lesson, now time.Time) PostView {
	v := PostView{Post: p, Mine: p.AuthorID == a.ID && a.ID != "", Teacher: p.TeacherID != 0, CanModerate: sc.Moderator && !p.Deleted()}
	if p.Part != "" {
		v.Part, _ = lesson.Part(p.Part)
	}
	live := !p.Deleted() && !p.Hidden()
	v.CanEdit = v.Mine && live && now.Sub(p.CreatedAt) <= EditWindow
	v.CanDelete = v.Mine && !p.Deleted()
	v.CanReport = !v.Mine && live && a.Known && !p.Reported
	if !p.IsQuestion() {
		v.Accepted = q.AcceptedID == p.ID
		v.CanAccept = live && (q.AuthorID == a.ID || sc.Moderator)
		v.CanMarkHelpful = !v.Mine && live && a.Known && !p.MarkedHelpful
	}
	return v
}

// ClassQA is what a class's dashboard lists of its questions.
type ClassQA struct {
	Unanswered []Post
	Reported   []Post
}

// ClassQuestions returns the unanswered questions and reported posts of
// a's class, newest first.
//
// Errors: NotFound for a class not a's.
func (s *Service) ClassQuestions(ctx context.Context, a Actor, classID int64) (ClassQA, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return ClassQA{}, err
	}
	var out ClassQA
	if out.Unanswered, err = s.qa.UnansweredQuestions(ctx, c.ID, maxListed); err != nil {
		return out, err
	}
	out.Reported, err = s.qa.ReportedPosts(ctx, c.ID, maxListed)
	return out, err
}

// PublicQuestions returns the unanswered questions and reported posts of
// the public threads (those of learners in no class), newest first: the
// operators' moderation list.
//
// Errors: NotFound for anyone but an admin, as for a class not theirs.
func (s *Service) PublicQuestions(ctx context.Context, a Actor) (ClassQA, error) {
	if !a.IsTeacher() || a.Role != RoleAdmin {
		return ClassQA{}, notFound("There is no such page.")
	}
	var out ClassQA
	var err error
	if out.Unanswered, err = s.qa.UnansweredQuestions(ctx, 0, maxListed); err != nil {
		return out, err
	}
	out.Reported, err = s.qa.ReportedPosts(ctx, 0, maxListed)
	return out, err
}

// Notices returns a's latest notices, newest first.
func (s *Service) Notices(ctx context.Context, a Actor) ([]Notice, error) {
	if !a.Known {
		return nil, nil
	}
	return s.qa.Notices(ctx, a.ID, maxListed)
}

// ReadNotices marks a's notices of one question (0: all) read, so the
// header badge clears.
func (s *Service) ReadNotices(ctx context.Context, a Actor, questionID int64) error {
	if !a.Known {
		return nil
	}
	n, err := s.qa.ReadNotices(ctx, a.ID, questionID, s.now())
	if n > 0 {
		s.summaries.forget(a.ID)
	}
	return err
}

// OpenNotice marks one of a's notices read and returns it, so the web
// layer can send a to the thread.
//
// Errors: NotFound for a notice that is not a's.
func (s *Service) OpenNotice(ctx context.Context, a Actor, noticeID int64) (Notice, error) {
	ns, err := s.Notices(ctx, a)
	if err != nil {
		return Notice{}, err
	}
	for _, n := range ns {
		if n.ID == noticeID {
			return n, s.ReadNotices(ctx, a, n.QuestionID)
		}
	}
	return Notice{}, notFound("There is no such notice. The notices page lists yours.")
}

// PageGeneration returns the store's page generation (QAStore), which
// moves with every write that can change what a lesson page shows of
// others' doing, on every server sharing the store: a server keeps what
// it drew of those writes (the Q&A section) while it stays the same.
func (s *Service) PageGeneration(ctx context.Context) (int64, error) {
	n, err := s.qa.PageGeneration(ctx)
	if err != nil {
		return 0, fmt.Errorf("progress: page generation: %w", err)
	}
	return n, nil
}
