package web

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

var classCodeRe = regexp.MustCompile(`data-testid="class-code">([A-Z0-9-]+)<`)

// TestContinueWithTheClassCode: a learner continues on another device with
// the class code shown on their classes page, their name and their words,
// whatever happens to the join code: turned off, replaced, the class
// archived and restored. The join code they joined with stops working
// once it is replaced, and joining can be turned back on.
func TestContinueWithTheClassCode(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	joinCode := teacher.joinCode(class)
	laptop := w.browser()
	laptop.earn(w.app)
	before := laptop.xp()
	secret := laptop.join(joinCode, "Red Kite")

	m := classCodeRe.FindStringSubmatch(laptop.get("/classes").body)
	if m == nil {
		t.Fatal("the learner's classes page shows no class code")
	}
	classCode := m[1]
	if classCode == joinCode || len(classCode) != 9 {
		t.Fatalf("class code %q: want eight characters and a hyphen, not the join code %q", classCode, joinCode)
	}
	if d := classCodeRe.FindStringSubmatch(teacher.get(class).body); d == nil || d[1] != classCode {
		t.Errorf("the dashboard's class code = %v, want %s", d, classCode)
	}

	settings := func(form url.Values) {
		t.Helper()
		if a := teacher.post(class+"/settings", form); a.status != http.StatusSeeOther {
			t.Fatalf("settings %v = %d:\n%.300s", form, a.status, a.body)
		}
	}
	device := func(code string, wantIn bool) {
		t.Helper()
		// Past the per-name limit's window: this test counts devices, not
		// tries.
		w.clock.move(11 * time.Minute)
		b := w.browserAt(w.other, "", "")
		a := b.post("/join/signin", url.Values{"code": {code}, "name": {"red kite"}, "secret": {secret}})
		if wantIn {
			if a.status != http.StatusSeeOther {
				t.Fatalf("continuing with %q = %d, want 303:\n%.400s", code, a.status, a.body)
			}
			if got := b.xp(); got != before {
				t.Errorf("after continuing with %q the device shows XP %s, want %s", code, got, before)
			}
		} else if a.status == http.StatusSeeOther {
			t.Errorf("continuing with %q signed in, want it refused", code)
		}
	}

	// Before: the join code was the only way in, and it died with joining.
	device(joinCode, true)
	settings(url.Values{"code": {"off"}})
	device(joinCode, false)
	device(classCode, true)
	device(strings.ToLower(strings.ReplaceAll(classCode, "-", " ")), true)

	body := teacher.get(class).body
	if !strings.Contains(body, "Turn joining on with a new code") {
		t.Error("with joining off the class page offers no way to turn it on")
	}
	settings(url.Values{"code": {"new"}})
	newCode := teacher.joinCode(class)
	if newCode == joinCode {
		t.Fatal("turning joining on gave the old code back")
	}
	device(classCode, true)

	settings(url.Values{"archive": {"on"}})
	device(classCode, true)
	settings(url.Values{"archive": {"off"}})
	device(classCode, true)

	// The words still decide: a wrong one with the class code is refused.
	b := w.browserAt(w.other, "", "")
	if a := b.post("/join/signin", url.Values{"code": {classCode}, "name": {"Red Kite"}, "secret": {"wrong words here"}}); a.status == http.StatusSeeOther {
		t.Error("wrong words with the class code signed in")
	}
	// The teacher's page for the learner shows the code beside the words.
	lm := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
	if lm == nil {
		t.Fatal("no learner on the dashboard")
	}
	if page := teacher.get(lm[1]).body; !strings.Contains(page, `data-testid="learner-class-code">`+classCode+`<`) {
		t.Error("the teacher's learner page does not show the class code")
	}
}

// rosterCell returns the class of the roster cell for the learner named
// name and the lesson, and the row's last-active text.
func rosterCell(t *testing.T, dashboard, name, slug string) (cell, lastActive string) {
	t.Helper()
	row := regexp.MustCompile(`(?s)<tr data-name="` + regexp.QuoteMeta(name) + `">(.*?)</tr>`).FindStringSubmatch(dashboard)
	if row == nil {
		t.Fatalf("no roster row for %s", name)
	}
	c := regexp.MustCompile(`<td class="([^"]*)" data-lesson="` + regexp.QuoteMeta(slug) + `"`).FindStringSubmatch(row[1])
	if c == nil {
		t.Fatalf("no cell for lesson %s in %s's row", slug, name)
	}
	tds := regexp.MustCompile(`<td>([^<]*)</td>`).FindAllStringSubmatch(row[1], -1)
	if len(tds) < 2 {
		t.Fatalf("%s's row has no last-active cell", name)
	}
	return c[1], tds[len(tds)-2][1]
}

// TestRosterActivityAgrees: a learner who only opened a lesson is active
// (not "never"), and one who answered a widget wrong in a lesson whose page
// view was not recorded has that lesson opened, not "not started".
func TestRosterActivityAgrees(t *testing.T) {
	w := newClassWorld(t)
	teacher, class := w.teacherWithClass()
	code := teacher.joinCode(class)
	reader, answerer := w.browser(), w.browser()
	reader.join(code, "Reader")
	answerer.join(code, "Answerer")
	lessons := w.app.Course().Lessons
	reader.get("/lessons/" + lessons[0].Slug)

	var slug string
	for _, l := range lessons[1:] {
		for _, seg := range l.Segments {
			if seg.Widget != nil && seg.Widget.Kind == "classify" && slug == "" {
				slug = l.Slug
				if a := answerer.post("/lessons/"+l.Slug+"/widgets/"+seg.Widget.ID, wrongAnswers(seg.Widget)); a.status != http.StatusOK && a.status != http.StatusSeeOther {
					t.Fatalf("a wrong widget answer = %d", a.status)
				}
			}
		}
	}
	if slug == "" {
		t.Fatal("no classify widget after the first lesson")
	}
	dash := teacher.get(class).body
	if cell, last := rosterCell(t, dash, "Reader", lessons[0].Slug); !strings.Contains(cell, "opened") || last == "never" {
		t.Errorf("the reader's first lesson is %q with last active %q, want opened and a time", cell, last)
	}
	if cell, last := rosterCell(t, dash, "Answerer", slug); !strings.Contains(cell, "cell-") || last == "never" {
		t.Errorf("the answerer's lesson is %q with last active %q, want opened and a time", cell, last)
	}
}

// TestDashboardSaysWhatIsAssigned: a lesson's column marks it assigned
// and due; a due date already past is refused with what to do; a late
// assignment counts its late learners instead of naming a whole class;
// the teacher's header names the teacher, not the browser's learner XP.
func TestDashboardSaysWhatIsAssigned(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	code := teacher.joinCode(class)
	for _, name := range []string{"Ash", "Birch", "Cedar", "Elm", "Fir"} {
		w.browser().join(code, name)
	}
	lessons := w.app.Course().Lessons
	zone, _ := time.LoadLocation("Europe/Paris")
	today := w.clock.Now().In(zone)

	past := today.AddDate(0, 0, -1).Format("2006-01-02")
	a := teacher.post(class+"/assignments", url.Values{"lesson": {lessons[0].Slug}, "due": {past}})
	if a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "already past") {
		t.Errorf("a due date of yesterday = %d, want 422 saying it is already past:\n%.300s", a.status, a.body)
	}
	if a := teacher.post(class+"/assignments", url.Values{"lesson": {lessons[0].Slug}, "due": {today.Format("2006-01-02")}}); a.status != http.StatusSeeOther {
		t.Fatalf("assigning with today as the due date = %d:\n%.300s", a.status, a.body)
	}
	if a := teacher.post(class+"/assignments", url.Values{"lesson": {lessons[1].Slug}}); a.status != http.StatusSeeOther {
		t.Fatalf("assigning without a due date = %d", a.status)
	}
	dash := teacher.get(class).body
	notes := regexp.MustCompile(`data-testid="col-note">([^<]+)<`).FindAllStringSubmatch(dash, -1)
	if len(notes) != 2 || notes[0][1] != "due "+today.Format("2 Jan") || notes[1][1] != "assigned" {
		t.Errorf("the roster's lesson columns note %v, want [due %s, assigned]", notes, today.Format("2 Jan"))
	}
	if strings.Contains(dash, `data-testid="xp-total"`) || !strings.Contains(dash, `data-testid="teacher-badge">Teacher: `) {
		t.Error("the dashboard's header shows learner XP, not the teacher")
	}

	w.clock.move(48 * time.Hour)
	dash = teacher.get(class).body
	late := regexp.MustCompile(`data-testid="late">([^<]+)<`).FindStringSubmatch(dash)
	if late == nil || late[1] != "late: 5 learners" || !strings.Contains(dash, `<summary>Who is late</summary>`) {
		t.Errorf("the late pill = %v, want \"late: 5 learners\" with the names folded", late)
	}
}

// TestStuckListShowsAll: past its first few rows the stuck list offers
// "show all", which lists every row; each row links to its block.
func TestStuckListShowsAll(t *testing.T) {
	w := newClassWorld(t)
	teacher, class := w.teacherWithClass()
	code := teacher.joinCode(class)
	items := 0
	for i := range 2 {
		b := w.browser()
		b.join(code, fmt.Sprint("Learner ", i))
		items = 0
		for _, l := range w.app.Course().Lessons {
			for _, seg := range l.Segments {
				if seg.Widget != nil && seg.Widget.Kind == "classify" && items <= stuckShown {
					if a := b.post("/lessons/"+l.Slug+"/widgets/"+seg.Widget.ID, wrongAnswers(seg.Widget)); a.status != http.StatusOK && a.status != http.StatusSeeOther {
						t.Fatalf("a wrong answer = %d", a.status)
					}
					items += len(seg.Widget.Value.(*quiz.Classify).Items)
				}
			}
		}
	}
	if items <= stuckShown {
		t.Fatalf("only %d classify items in the course", items)
	}
	rows := regexp.MustCompile(`(?s)data-testid="stuck-items">(.*?)</ol>`)
	count := func(body string) int {
		m := rows.FindStringSubmatch(body)
		if m == nil {
			t.Fatal("no stuck list")
		}
		return strings.Count(m[1], `<li>`)
	}
	dash := teacher.get(class).body
	if n := count(dash); n != stuckShown {
		t.Errorf("the stuck list shows %d rows, want the first %d", n, stuckShown)
	}
	if !strings.Contains(dash, fmt.Sprintf(`data-testid="stuck-all">Show all %d questions`, items)) {
		t.Errorf("no \"Show all %d questions\" link", items)
	}
	all := teacher.get(class + "?stuck=all").body
	if n := count(all); n != items {
		t.Errorf("show all lists %d rows, want %d", n, items)
	}
	if !regexp.MustCompile(`<a href="/lessons/[a-z0-9-]+#w-[a-z0-9-]+"><strong>`).MatchString(all) {
		t.Error("stuck rows do not link to their widget on the lesson page")
	}
}

// teacherWithClass adds the teacher t@school.example, signs them in on a
// browser of their own and makes the class "Year 9": the start of most
// class tests. It returns the browser and the class's path.
func (w *classWorld) teacherWithClass() (*browser, string) {
	w.t.Helper()
	w.addTeacher("t@school.example", false)
	teacher := w.browser()
	teacher.signIn("t@school.example")
	return teacher, teacher.createClass("Year 9")
}

// otherTeacher adds other@school.example, a teacher of no class of the
// test's, and signs them in.
func (w *classWorld) otherTeacher() *browser {
	w.t.Helper()
	w.addTeacher("other@school.example", false)
	other := w.browser()
	other.signIn("other@school.example")
	return other
}

// confirmYes is the form of a confirmed destructive action.
var confirmYes = url.Values{"confirm": {"yes"}}

// TestDestructiveActionsAskThenSay: removing a learner, new secret words,
// deleting a class and leaving one each ask first on a page of their own
// (without JavaScript), change nothing until confirmed, then say what they
// did; a removal can be undone for progress.RemovalUndoFor, with the same
// name and words, and not by another teacher.
func TestDestructiveActionsAskThenSay(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	other := w.otherTeacher()
	code := teacher.joinCode(class)
	laptop := w.browser()
	laptop.earn(w.app)
	before := laptop.xp()
	secret := laptop.join(code, "Red Kite")
	m := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)
	if m == nil {
		t.Fatal("no learner on the dashboard")
	}
	learner := m[1]
	classCode := classCodeRe.FindStringSubmatch(laptop.get("/classes").body)[1]
	phone := w.browserAt(w.other, "", phoneUA)
	continueWithWords(t, phone, classCode, "Red Kite", secret, before)

	ask := func(b *browser, path, want string) {
		t.Helper()
		a := b.post(path, nil)
		if a.status != http.StatusOK || !strings.Contains(a.body, `data-testid="confirm-question"`) || !strings.Contains(a.body, want) || !strings.Contains(a.body, `name="confirm" value="yes"`) {
			t.Fatalf("POST %s without confirming = %d, want a page asking %q:\n%.500s", path, a.status, want, a.body)
		}
	}
	done := func(body, want string) {
		t.Helper()
		if !strings.Contains(body, `data-testid="done-note"`) || !strings.Contains(body, want) {
			t.Errorf("the page after the action does not say %q", want)
		}
	}

	// New words: asked, nothing changes, then made and said.
	ask(teacher, learner+"/secret", "stop working at once")
	if got := teacher.get(learner).body; !strings.Contains(got, secret) {
		t.Fatal("asking made new words")
	}
	a := teacher.post(learner+"/secret", confirmYes)
	if a.status != http.StatusSeeOther {
		t.Fatalf("confirmed new words = %d", a.status)
	}
	page := teacher.get(a.location).body
	done(page, "New secret words made")
	secret = regexp.MustCompile(`data-testid="learner-secret">([a-z ]+)<`).FindStringSubmatch(page)[1]
	continueWithWords(t, phone, classCode, "Red Kite", secret, before)

	// Removal: asked, then done with an undo; the phone is signed out.
	ask(teacher, learner+"/remove", "undo this for 7 days")
	if !strings.Contains(teacher.get(class).body, `data-name="Red Kite"`) {
		t.Fatal("asking removed the learner")
	}
	if a := teacher.post(learner+"/remove", confirmYes); a.status != http.StatusSeeOther || !strings.Contains(a.location, "done=removed") {
		t.Fatalf("confirmed removal = %d %q", a.status, a.location)
	}
	dash := teacher.get(class + "?done=removed").body
	done(dash, "Red Kite was removed from the class")
	if strings.Contains(dash, `data-name="Red Kite"`) || !strings.Contains(dash, `data-testid="removed"`) {
		t.Error("after the removal the roster still lists the learner, or no undo is offered")
	}
	if got := phone.xp(); got != "0" {
		t.Errorf("the removed learner's phone still shows XP %s", got)
	}
	restore := learner + "/restore"
	if a := other.post(restore, nil); a.status != http.StatusNotFound {
		t.Errorf("another teacher's undo = %d, want 404", a.status)
	}
	if a := teacher.post(restore, nil); a.status != http.StatusSeeOther {
		t.Fatalf("undo = %d:\n%.300s", a.status, a.body)
	}
	done(teacher.get(class+"?done=restored").body, "back in the class")
	continueWithWords(t, phone, classCode, "Red Kite", secret, before)
	if !strings.Contains(teacher.get(class).body, `data-name="Red Kite"`) {
		t.Error("the undone removal did not put the learner back on the roster")
	}

	// Past the window the undo is gone.
	if a := teacher.post(learner+"/remove", confirmYes); a.status != http.StatusSeeOther {
		t.Fatalf("second removal = %d", a.status)
	}
	w.clock.move(progress.RemovalUndoFor + time.Hour)
	if strings.Contains(teacher.get(class).body, `data-testid="removed"`) {
		t.Error("a removal older than the window is still offered for undo")
	}
	if a := teacher.post(restore, nil); a.status != http.StatusNotFound {
		t.Errorf("an undo past the window = %d, want 404", a.status)
	}

	// Leaving asks the learner too.
	other2 := w.browser()
	other2.join(code, "Blue Tit")
	id := strings.TrimPrefix(class, "/classes/")
	ask(other2, "/classes/"+id+"/leave", "stop working")
	if a := other2.post("/classes/"+id+"/leave", confirmYes); a.status != http.StatusSeeOther {
		t.Fatalf("confirmed leave = %d", a.status)
	} else {
		done(other2.get(a.location).body, "You left the class")
	}

	// Deleting the archived class asks, then says so on the classes page.
	if a := teacher.post(class+"/settings", url.Values{"archive": {"on"}}); a.status != http.StatusSeeOther {
		t.Fatalf("archive = %d", a.status)
	}
	ask(teacher, class+"/delete", "cannot be undone")
	if a := teacher.get(class); a.status != http.StatusOK {
		t.Fatal("asking deleted the class")
	}
	a = teacher.post(class+"/delete", confirmYes)
	if a.status != http.StatusSeeOther {
		t.Fatalf("confirmed delete = %d", a.status)
	}
	done(teacher.get(a.location).body, "were deleted")
}

// TestTeacherResetsAQuiz: a learner who failed a quiz often enough to wait
// can try again at once after the teacher's reset, and a pass then earns
// the full XP; the reset is listed on the learner's page; another teacher
// cannot reset.
func TestTeacherResetsAQuiz(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	other := w.otherTeacher()
	b := w.browser()
	b.join(teacher.joinCode(class), "Red Kite")
	l := w.app.Course().Lessons[0]
	x, _ := l.Quiz()
	action := "/lessons/" + l.Slug + "/widgets/" + x.ID
	// answer posts the open attempt, right or wrong, as the page shows it;
	// a page that still shows the attempt just graded is answered 410 with
	// the next one, which it then answers.
	answer := func(right bool) answer {
		t.Helper()
		page := b.get("/lessons/" + l.Slug).body
		for range 3 {
			a := b.post(action, openAttemptAnswers(t, page, x, right))
			if a.status != http.StatusGone {
				return a
			}
			page = a.body
		}
		t.Fatal("every post of the quiz was over")
		return answer{}
	}
	for i := range quiz.QuizFailsBeforeWait {
		if a := answer(false); a.status != http.StatusOK && a.status != http.StatusSeeOther {
			t.Fatalf("failed attempt %d = %d", i+1, a.status)
		}
		w.clock.move(time.Second)
	}
	learner := learnerLinkRe.FindStringSubmatch(teacher.get(class).body)[1]
	if body := teacher.get(learner).body; !strings.Contains(body, "failed in a row; waits until") {
		t.Errorf("the learner's page does not say the learner waits:\n%s", regexp.MustCompile(`(?s)data-testid="quiz-standings".*?</ul>`).FindString(body))
	}
	reset := learner + "/quiz/" + l.Slug + "/reset"
	if a := other.post(reset, confirmYes); a.status != http.StatusNotFound {
		t.Errorf("another teacher's reset = %d, want 404", a.status)
	}
	if a := teacher.post(reset, nil); a.status != http.StatusOK || !strings.Contains(a.body, `data-testid="confirm-question"`) {
		t.Errorf("a reset without confirming = %d, want the question", a.status)
	}
	a := teacher.post(reset, confirmYes)
	if a.status != http.StatusSeeOther {
		t.Fatalf("confirmed reset = %d:\n%.300s", a.status, a.body)
	}
	page := teacher.get(a.location).body
	if !strings.Contains(page, `data-testid="done-note"`) || !strings.Contains(page, "Quiz of "+l.Title+" reset on") {
		t.Error("the learner's page does not say the quiz was reset, or does not list the reset")
	}

	before, _ := strconv.Atoi(b.xp())
	if r := answer(true); r.status != http.StatusOK && r.status != http.StatusSeeOther {
		t.Fatalf("the attempt right after the reset = %d, want it graded:\n%.300s", r.status, r.body)
	}
	after, _ := strconv.Atoi(b.xp())
	if after-before != x.XPValue() {
		t.Errorf("the pass after the reset earned %d XP, want the full %d", after-before, x.XPValue())
	}
}

// TestExportCountsLessonXPAndTimeOnTask: the export gives each lesson's XP
// and the time on task, the gaps under progress.TaskGap between a
// learner's actions counted for the later action's lesson, and a longer
// gap counting nothing.
func TestExportCountsLessonXPAndTimeOnTask(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	b := w.browser()
	b.join(teacher.joinCode(class), "Red Kite")
	var widgets []*lessons.Widget
	var slugs []string
	for _, l := range w.app.Course().Lessons {
		for _, seg := range l.Segments {
			if seg.Widget != nil && seg.Widget.Kind == "classify" && len(widgets) < 2 && (len(slugs) == 0 || slugs[0] != l.Slug) {
				widgets, slugs = append(widgets, seg.Widget), append(slugs, l.Slug)
			}
		}
	}
	post := func(i int, right bool) int {
		t.Helper()
		before, _ := strconv.Atoi(b.xp())
		form := wrongAnswers(widgets[i])
		if right {
			form = rightAnswers(widgets[i])
		}
		if a := b.post("/lessons/"+slugs[i]+"/widgets/"+widgets[i].ID, form); a.status != http.StatusOK && a.status != http.StatusSeeOther {
			t.Fatalf("widget post = %d", a.status)
		}
		after, _ := strconv.Atoi(b.xp())
		return after - before
	}
	xp1 := post(0, true)
	w.clock.move(2 * time.Minute)
	post(0, false)
	w.clock.move(3 * time.Minute)
	xp2 := post(1, true)
	w.clock.move(35 * time.Minute) // a break
	post(1, false)

	a := teacher.get(class + "/export.csv")
	records, err := csv.NewReader(strings.NewReader(a.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	titles := map[string]string{}
	for _, l := range w.app.Course().Lessons {
		titles[l.Title] = l.Slug
	}
	got := map[string][2]string{}
	for _, r := range records[1:] {
		got[titles[r[col["lesson"]]]] = [2]string{r[col["lesson_xp"]], r[col["minutes_on_lesson"]]}
	}
	want := map[string][2]string{slugs[0]: {strconv.Itoa(xp1), "2.0"}, slugs[1]: {strconv.Itoa(xp2), "3.0"}}
	for slug, wv := range want {
		if got[slug] != wv {
			t.Errorf("lesson %s: lesson_xp and minutes_on_lesson = %v, want %v", slug, got[slug], wv)
		}
	}
	for slug, g := range got {
		if _, ok := want[slug]; !ok && g != [2]string{"0", "0.0"} {
			t.Errorf("untouched lesson %s has %v", slug, g)
		}
	}
}

// TestDueTimesAndExtensions: a due date may carry a time; one learner may
// get a later date for one assignment, and "late" honours it on the
// dashboard, on their classes page and in the export; taking it back makes
// them late again; an extension before the class's due time is refused.
func TestDueTimesAndExtensions(t *testing.T) {
	w := newDeviceWorld(t)
	teacher, class := w.teacherWithClass()
	other := w.otherTeacher()
	code := teacher.joinCode(class)
	ash, birch := w.browser(), w.browser()
	ash.join(code, "Ash")
	birch.join(code, "Birch")
	l := w.app.Course().Lessons[1]
	zone, _ := time.LoadLocation("Europe/Paris")
	due := w.clock.Now().In(zone).AddDate(0, 0, 1)
	dueDay := due.Format("2006-01-02")
	if a := teacher.post(class+"/assignments", url.Values{"lesson": {l.Slug}, "due": {dueDay}, "due_time": {"14:00"}}); a.status != http.StatusSeeOther {
		t.Fatalf("assign with a due time = %d:\n%.300s", a.status, a.body)
	}
	if dash := teacher.get(class).body; !strings.Contains(dash, "due "+dueDay+" 14:00") {
		t.Error("the assignment does not show its due time")
	}
	var ashPage string
	for _, m := range learnerLinkRe.FindAllStringSubmatch(teacher.get(class).body, -1) {
		if strings.Contains(teacher.get(m[1]).body, "<h1>Ash</h1>") {
			ashPage = m[1]
		}
	}
	if ashPage == "" {
		t.Fatal("no page for Ash")
	}
	extend := ashPage + "/extensions/" + l.Slug
	if a := teacher.post(extend, url.Values{"due": {dueDay}, "due_time": {"09:00"}}); a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "must be later") {
		t.Errorf("an extension before the class's due time = %d, want 422 saying it must be later:\n%s", a.status, regexp.MustCompile(`(?s)form-error.{0,300}`).FindString(a.body))
	}
	if a := other.post(extend, url.Values{"due": {due.AddDate(0, 0, 2).Format("2006-01-02")}}); a.status != http.StatusNotFound {
		t.Errorf("another teacher's extension = %d, want 404", a.status)
	}
	later := due.AddDate(0, 0, 2).Format("2006-01-02")
	if a := teacher.post(extend, url.Values{"due": {later}}); a.status != http.StatusSeeOther {
		t.Fatalf("extension = %d:\n%.300s", a.status, a.body)
	}
	if page := teacher.get(ashPage).body; !strings.Contains(page, `data-testid="extension">due `+later+`, extended`) {
		t.Errorf("Ash's page does not show the extension:\n%s", regexp.MustCompile(`(?s)data-testid="learner-assignments".{0,600}`).FindString(page))
	}

	// Past the class's due time, before Ash's.
	w.clock.move(48 * time.Hour)
	late := regexp.MustCompile(`data-testid="late">([^<]+)<`).FindStringSubmatch(teacher.get(class).body)
	if late == nil || late[1] != "late: Birch" {
		t.Errorf("the late pill = %v, want only Birch", late)
	}
	if home := ash.get("/classes").body; strings.Contains(home, "state-late") || !strings.Contains(home, "due "+later) {
		t.Error("Ash's classes page shows Ash late, or not the extended date")
	}
	if home := birch.get("/classes").body; !strings.Contains(home, "state-late") {
		t.Error("Birch's classes page does not show Birch late")
	}
	records, err := csv.NewReader(strings.NewReader(teacher.get(class + "/export.csv").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	for _, r := range records[1:] {
		if r[col["lesson"]] != l.Title {
			continue
		}
		switch r[col["name"]] {
		case "Ash":
			if r[col["due"]] != later || r[col["late"]] != "false" {
				t.Errorf("Ash's export row: due %q late %q, want %s and false", r[col["due"]], r[col["late"]], later)
			}
		case "Birch":
			if r[col["due"]] != dueDay+" 14:00" || r[col["late"]] != "true" {
				t.Errorf("Birch's export row: due %q late %q, want %s 14:00 and true", r[col["due"]], r[col["late"]], dueDay)
			}
		}
	}

	// Taken back, Ash is late too.
	if a := teacher.post(extend, url.Values{"take_back": {"1"}}); a.status != http.StatusSeeOther {
		t.Fatalf("take back = %d", a.status)
	}
	if late := regexp.MustCompile(`data-testid="late">([^<]+)<`).FindStringSubmatch(teacher.get(class).body); late == nil || late[1] != "late: Ash, Birch" {
		t.Errorf("after taking the extension back the late pill = %v, want Ash and Birch", late)
	}
}
