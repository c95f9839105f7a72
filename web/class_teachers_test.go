package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"learn/postgres/pgtest"
	"learn/progress"
	"learn/storage"
)

// onBothEngines runs fn on a class world over SQLite and over PostgreSQL.
func onBothEngines(t *testing.T, fn func(t *testing.T, w *classWorld)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newClassWorld(t)) })
	t.Run("postgres", func(t *testing.T) {
		cluster := pgtest.Start(t)
		st, err := storage.OpenPostgres(context.Background(), cluster.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		fn(t, classWorldFor(t, newBenchWorldOn(t, st)))
	})
}

// TestClassRoutesByRole posts every class route as the class's owner, a
// co-teacher, another teacher, a learner of the class and a stranger, on
// both engines, each on a class of its own: the owner may do everything,
// a co-teacher everything but delete the class and add or remove
// co-teachers (403, with a page that says who can), and everyone else
// gets 404 with none of the class's data, as for a class that does not
// exist. Refused posts change nothing.
func TestClassRoutesByRole(t *testing.T) {
	onBothEngines(t, testClassRoutesByRole)
}

func testClassRoutesByRole(t *testing.T, w *classWorld) {
	ctx := context.Background()
	for _, email := range []string{"owner@school.example", "co@school.example", "other@school.example", "spare@school.example"} {
		w.addTeacher(email, false)
	}
	owner, co, other, learner, stranger := w.browser(), w.browser(), w.browser(), w.browser(), w.browser()
	owner.signIn("owner@school.example")
	co.signIn("co@school.example")
	other.signIn("other@school.example")
	ownerT, err := w.st.FindTeacherByEmail(ctx, "owner@school.example")
	if err != nil {
		t.Fatal(err)
	}
	coT, err := w.st.FindTeacherByEmail(ctx, "co@school.example")
	if err != nil {
		t.Fatal(err)
	}
	ownerActor := progress.Actor{ID: strings.Repeat("0", 31) + "1", Role: progress.RoleTeacher, Known: true, TeacherID: ownerT.ID}

	// The learner joins one class over HTTP, which gives their id; the
	// classes made for each call are joined through the core, so the join
	// limits of one address do not run out.
	first := owner.createClass("First")
	learner.join(owner.joinCode(first), "Red Kite")
	m := learnerLinkRe.FindStringSubmatch(owner.get(first).body)
	if m == nil {
		t.Fatal("no learner on the dashboard")
	}
	learnerID := m[1][strings.LastIndex(m[1], "/")+1:]
	learnerActor := progress.Actor{ID: learnerID, Role: progress.RoleLearner, Known: true}
	slug := w.app.Course().Lessons[0].Slug

	// fresh makes a class of the owner's with the co-teacher, the learner
	// and one assigned lesson, and returns its address and the learner's
	// page in it.
	fresh := func() (class, learnerPage string, id int64) {
		c, err := w.app.CreateClass(ctx, ownerActor, "Year 9", "UTC")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.app.Join(ctx, learnerActor, c.JoinCode, "Red Kite"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.app.AddCoTeacher(ctx, ownerActor, c.ID, "co@school.example"); err != nil {
			t.Fatal(err)
		}
		if err := w.app.Assign(ctx, ownerActor, c.ID, slug, ""); err != nil {
			t.Fatal(err)
		}
		class = classURL(c.ID)
		return class, class + "/learners/" + learnerID, c.ID
	}
	archive := func(id int64) {
		on := true
		if _, err := w.app.ChangeClass(ctx, ownerActor, id, progress.ClassChange{Archive: &on}); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(id int64) {
		if _, err := w.app.RemoveLearner(ctx, ownerActor, id, learnerID); err != nil {
			t.Fatal(err)
		}
	}
	yes := func(extra ...string) url.Values {
		v := url.Values{"confirm": {"yes"}}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Set(extra[i], extra[i+1])
		}
		return v
	}
	routes := []struct {
		name     string
		method   string
		path     func(class, learnerPage string) string
		form     url.Values
		prep     func(id int64)
		owner    int
		coStatus int
	}{
		{"dashboard", "GET", func(c, _ string) string { return c }, nil, nil, 200, 200},
		{"export", "GET", func(c, _ string) string { return c + "/export.csv" }, nil, nil, 200, 200},
		{"learner page", "GET", func(_, l string) string { return l }, nil, nil, 200, 200},
		{"word sheet", "GET", func(c, _ string) string { return c + "/sheet" }, nil, nil, 200, 200},
		{"projector", "GET", func(c, _ string) string { return c + "/projector" }, nil, nil, 200, 200},
		{"rename", "POST", func(c, _ string) string { return c + "/settings" }, url.Values{"name": {"Renamed"}}, nil, 303, 303},
		{"new join code", "POST", func(c, _ string) string { return c + "/settings" }, url.Values{"code": {"new"}}, nil, 303, 303},
		{"assign", "POST", func(c, _ string) string { return c + "/assignments" }, url.Values{"lesson": {w.app.Course().Lessons[1].Slug}}, nil, 303, 303},
		{"unassign", "POST", func(c, _ string) string { return c + "/assignments/" + slug + "/delete" }, url.Values{}, nil, 303, 303},
		{"new words", "POST", func(_, l string) string { return l + "/secret" }, yes(), nil, 303, 303},
		{"remove learner", "POST", func(_, l string) string { return l + "/remove" }, yes(), nil, 303, 303},
		{"undo removal", "POST", func(_, l string) string { return l + "/restore" }, url.Values{}, remove, 303, 303},
		{"reset quiz", "POST", func(_, l string) string { return l + "/quiz/" + slug + "/reset" }, yes(), nil, 303, 303},
		{"reset exercise", "POST", func(_, l string) string { return l + "/exercise/report-a-failure/reset" }, yes(), nil, 303, 303},
		{"extension", "POST", func(_, l string) string { return l + "/extensions/" + slug }, url.Values{"due": {"2099-01-01"}}, nil, 303, 303},
		{"add co-teacher", "POST", func(c, _ string) string { return c + "/teachers" }, url.Values{"email": {"spare@school.example"}}, nil, 303, 403},
		{"remove co-teacher", "POST", func(c, _ string) string { return fmt.Sprintf("%s/teachers/%d/remove", c, coT.ID) }, yes(), nil, 303, 403},
		{"delete class", "POST", func(c, _ string) string { return c + "/delete" }, yes(), archive, 303, 403},
	}
	type actor struct {
		name string
		b    *browser
	}
	actors := []actor{{"owner", owner}, {"co-teacher", co}, {"another teacher", other}, {"a learner of the class", learner}, {"a stranger", stranger}}
	for _, rt := range routes {
		for _, who := range actors {
			class, learnerPage, id := fresh()
			if rt.prep != nil {
				rt.prep(id)
			}
			before := w.teamAndName(ownerActor, id)
			a := who.b.do(rt.method, rt.path(class, learnerPage), rt.form)
			want := http.StatusNotFound
			switch who.name {
			case "owner":
				want = rt.owner
			case "co-teacher":
				want = rt.coStatus
			}
			if a.status != want {
				t.Errorf("%s (%s %s) by %s = %d, want %d:\n%.300s", rt.name, rt.method, rt.path(class, learnerPage), who.name, a.status, want, a.body)
				continue
			}
			switch want {
			case http.StatusNotFound:
				if strings.Contains(a.body, "Red Kite") || strings.Contains(a.body, "Year 9") {
					t.Errorf("%s by %s shows the class's data", rt.name, who.name)
				}
			case http.StatusForbidden:
				if !strings.Contains(a.body, "Only the class") {
					t.Errorf("%s by %s: the refusal does not say who may:\n%.400s", rt.name, who.name, a.body)
				}
			}
			if want == http.StatusNotFound || want == http.StatusForbidden {
				if after := w.teamAndName(ownerActor, id); after != before {
					t.Errorf("%s by %s changed the class from %q to %q", rt.name, who.name, before, after)
				}
			}
		}
	}

	// The co-teacher's class list shows the classes they co-teach, marked;
	// another teacher's shows none of them.
	if body := co.get("/classes").body; !strings.Contains(body, "co-teaching") || !strings.Contains(body, "Year 9") {
		t.Error("the co-teacher's class list does not show the classes they co-teach")
	}
	if body := other.get("/classes").body; strings.Contains(body, "Year 9") {
		t.Error("another teacher's class list shows the owner's classes")
	}
}

// teamAndName sums up what a refused post must not change: the class's
// name, join code, archive state, members and teachers ("gone" once it is
// deleted).
func (w *classWorld) teamAndName(owner progress.Actor, id int64) string {
	w.t.Helper()
	c, err := w.app.Class(context.Background(), owner, id)
	if err != nil {
		return "gone"
	}
	team, err := w.app.ClassTeachers(context.Background(), owner, id)
	if err != nil {
		w.t.Fatal(err)
	}
	var co []string
	for _, t := range team.Co {
		co = append(co, t.Email)
	}
	_, members, err := w.app.ClassMembers(context.Background(), owner, id)
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, m := range members {
		names = append(names, m.Name+"/"+m.Secret)
	}
	return fmt.Sprintf("%s code %s archived %v members %v co %v", c.Name, c.JoinCode, c.Archived(), names, co)
}

// TestRemoveCoTeacherAsksFirst: without the confirmation, removing a
// co-teacher draws the question (naming them and the class) and removes
// nobody; confirmed, it removes them and says so.
func TestRemoveCoTeacherAsksFirst(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("owner@school.example", false)
	w.addTeacher("co@school.example", false)
	owner := w.browser()
	owner.signIn("owner@school.example")
	class := owner.createClass("Year 9")
	if a := owner.post(class+"/teachers", url.Values{"email": {"co@school.example"}}); a.status != http.StatusSeeOther {
		t.Fatalf("adding the co-teacher = %d", a.status)
	}
	co, err := w.st.FindTeacherByEmail(context.Background(), "co@school.example")
	if err != nil {
		t.Fatal(err)
	}
	remove := fmt.Sprintf("%s/teachers/%d/remove", class, co.ID)
	a := owner.post(remove, url.Values{})
	if a.status != http.StatusOK || !strings.Contains(a.body, removeCoTeacherQuestion(co.Name, "Year 9")) {
		t.Fatalf("an unconfirmed removal = %d, want the question:\n%.600s", a.status, a.body)
	}
	if body := owner.get(class).body; !strings.Contains(body, "co@school.example") {
		t.Fatal("an unconfirmed removal removed the co-teacher")
	}
	if a := owner.post(remove, confirmYes); a.status != http.StatusSeeOther || !strings.Contains(a.location, "done=teacher-removed") {
		t.Fatalf("the confirmed removal = %d to %q", a.status, a.location)
	}
	if body := owner.get(class + "?done=teacher-removed").body; strings.Contains(body, "co@school.example") || !strings.Contains(body, "no longer sees this class") {
		t.Error("after the confirmed removal the dashboard still lists the co-teacher, or does not say what happened")
	}
}
