package web

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"learn/internal/ltiplatform"
	"learn/lti"
)

// dashboard returns the class page as b sees it.
func (w *ltiWorld) dashboard(b *http.Client, classID int64) (int, string) {
	w.t.Helper()
	resp, err := b.Get(fmt.Sprintf("%s/classes/%d", w.base, classID))
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// rosterSection returns the dashboard's "Roster from the LMS" section, ""
// when the page has none.
func rosterSection(page string) string {
	start := strings.Index(page, `data-testid="lms-roster"`)
	if start < 0 {
		return ""
	}
	end := strings.Index(page[start:], "</section>")
	if end < 0 {
		return page[start:]
	}
	return page[start : start+end]
}

// memberRow is the section's row of a learner, "" when absent.
func memberRow(section, name string) string {
	for _, row := range strings.Split(section, "<tr")[1:] {
		if strings.Contains(row, ">"+name+"<") {
			return row
		}
	}
	return ""
}

var (
	rosterLearnerTwo   = ltiplatform.User{Sub: "u-learner-2", Name: "Learner Two", Roles: []string{ltiplatform.Learner}}
	rosterLearnerThree = ltiplatform.User{Sub: "u-learner-3", Name: "Learner Three", Roles: []string{"Learner"}}
	rosterLeft         = ltiplatform.User{Sub: "u-left", Name: "Left Course", Roles: []string{ltiplatform.Learner}}
)

// TestLTIRoster: the instructor's first launch reads the course's roster
// from the LMS (Names and Role Provisioning, in pages), the dashboard lists
// its learners as "not started" until they launch, a teacher reads it
// again on demand (not twice in a moment), a roster service that fails is
// said on the dashboard and the launch still works, and a next page on
// another origin is not followed.
func TestLTIRoster(t *testing.T) {
	onBothLTIEngines(t, testLTIRoster)
}

func testLTIRoster(t *testing.T, w *ltiWorld) {
	w.lms.OfferRosters()
	w.lms.TrustToolKeySet(w.base+lti.JWKSPath, w.lms.Client())
	w.lms.SetRosterPageSize(2)
	w.lms.SetRoster("course-1", []ltiplatform.Member{
		{User: teacherOne}, {User: learnerOne}, {User: rosterLearnerTwo},
		{User: ltiplatform.User{Sub: "u-learner-3", Roles: rosterLearnerThree.Roles}, GivenName: "Learner", FamilyName: "Three", Status: "Inactive"},
		{User: rosterLeft, Status: "Deleted"},
	})

	teacher := w.browser()
	instructor := w.launch(teacherOne, "course-1")
	instructor.Target = w.base + "/"
	if path, status, body := w.run(teacher, instructor); status != http.StatusOK || !strings.HasPrefix(path, "/classes/") {
		t.Fatalf("instructor launch ended at %s with %d:\n%s", path, status, body)
	}
	if got := w.lms.RosterPagesServed(); got != 3 {
		t.Errorf("the first launch read %d pages of the roster, want 3 (5 members, 2 a page)", got)
	}
	class := w.classOf("course-1")
	status, page := w.dashboard(teacher, class.ID)
	section := rosterSection(page)
	if status != http.StatusOK || section == "" {
		t.Fatalf("dashboard = %d without the LMS roster:\n%s", status, page)
	}
	for _, want := range []string{"0 of 3 learners started", "Read from the LMS just now", "Update the roster from the LMS", "Instructor One"} {
		if !strings.Contains(section, want) {
			t.Errorf("the roster section lacks %q:\n%s", want, section)
		}
	}
	for name, state := range map[string]string{"Learner One": "not started", "Learner Two": "not started", "Learner Three": "not started (inactive in the LMS)"} {
		if row := memberRow(section, name); !strings.Contains(row, "<td>"+state+"</td>") {
			t.Errorf("%s's row = %q, want %q", name, row, state)
		}
	}
	if strings.Contains(section, "Left Course") {
		t.Errorf("a member the LMS deleted is listed:\n%s", section)
	}

	// Learner One launches: started.
	if path, status, body := w.run(w.browser(), w.launch(learnerOne, "course-1")); status != http.StatusOK || path != "/lessons/"+ltiLesson {
		t.Fatalf("learner launch ended at %s with %d:\n%s", path, status, body)
	}
	if got := w.lms.RosterPagesServed(); got != 3 {
		t.Errorf("a learner's launch from a course whose roster is known read the roster again (%d pages served)", got)
	}
	_, page = w.dashboard(teacher, class.ID)
	section = rosterSection(page)
	if row := memberRow(section, "Learner One"); !strings.Contains(row, "<td>started</td>") || !strings.Contains(row, `data-started="true"`) {
		t.Errorf("Learner One launched but their row is %q", row)
	}
	if !strings.Contains(section, "1 of 3 learners started") {
		t.Errorf("the count of started learners is wrong:\n%s", section)
	}

	// The LMS course gains a learner; the teacher updates the roster.
	w.lms.SetRoster("course-1", []ltiplatform.Member{{User: teacherOne}, {User: learnerOne}, {User: rosterLearnerTwo},
		{User: ltiplatform.User{Sub: "u-late", Name: "Late Joiner", Roles: []string{ltiplatform.Learner}}}})
	update := fmt.Sprintf("%s/classes/%d/lms-roster", w.base, class.ID)
	status, body, _ := samePost(t, teacher, update, nil)
	if status != http.StatusOK || !strings.Contains(body, "The roster was read from the LMS again: 3 learners in the course.") {
		t.Fatalf("update = %d:\n%s", status, body)
	}
	section = rosterSection(body)
	if memberRow(section, "Late Joiner") == "" || memberRow(section, "Learner Three") != "" {
		t.Errorf("the updated roster is not the LMS's new one:\n%s", section)
	}
	if status, body, _ := samePost(t, teacher, update, nil); status != http.StatusTooManyRequests || !strings.Contains(body, "The roster was updated moments ago") {
		t.Errorf("a second update at once = %d, want 429 saying so:\n%s", status, rosterSection(body))
	}
	// A learner (or anyone not teaching the class) cannot update it.
	if status, _, _ := samePost(t, w.browser(), update, nil); status != http.StatusNotFound && status != http.StatusForbidden {
		t.Errorf("an update without the teacher's session = %d, want 404 or 403", status)
	}

	// A roster service that answers 503: the launch works, the dashboard
	// says what failed, and an update after the LMS recovers reads it.
	w.lms.SetRoster("course-2", []ltiplatform.Member{{User: teacherOne}, {User: learnerOne}})
	w.lms.FailRosters(http.StatusServiceUnavailable)
	second := w.launch(teacherOne, "course-2")
	second.Target = w.base + "/"
	if path, status, body := w.run(teacher, second); status != http.StatusOK || !strings.HasPrefix(path, "/classes/") {
		t.Fatalf("a launch while the roster service is down ended at %s with %d:\n%s", path, status, body)
	}
	class2 := w.classOf("course-2")
	_, page = w.dashboard(teacher, class2.ID)
	section = rosterSection(page)
	for _, want := range []string{"Not read from the LMS yet.", "503 Service Unavailable", "Try again later"} {
		if !strings.Contains(section, want) {
			t.Errorf("the failed roster's section lacks %q:\n%s", want, section)
		}
	}
	w.lms.FailRosters(0)
	status, body, _ = samePost(t, teacher, fmt.Sprintf("%s/classes/%d/lms-roster", w.base, class2.ID), nil)
	if section = rosterSection(body); status != http.StatusOK || memberRow(section, "Learner One") == "" || strings.Contains(section, "failed") {
		t.Errorf("the update after the LMS recovered = %d:\n%s", status, section)
	}

	// A next page on another origin is not followed.
	w.lms.SetRoster("course-3", []ltiplatform.Member{{User: teacherOne}, {User: learnerOne}, {User: rosterLearnerTwo}})
	w.lms.SetRosterNextLink("https://elsewhere.example/memberships?page=2")
	served := w.lms.RosterPagesServed()
	third := w.launch(teacherOne, "course-3")
	third.Target = w.base + "/"
	if _, status, body := w.run(teacher, third); status != http.StatusOK {
		t.Fatalf("launch of course-3 = %d:\n%s", status, body)
	}
	_, page = w.dashboard(teacher, w.classOf("course-3").ID)
	if section = rosterSection(page); !strings.Contains(section, "next page learn does not follow") || memberRow(section, "Learner One") != "" {
		t.Errorf("a next page on another origin: section\n%s", section)
	}
	if got := w.lms.RosterPagesServed() - served; got != 1 {
		t.Errorf("%d pages served for course-3, want 1 (the first)", got)
	}
}

// TestLTIRosterNotOffered: a launch from an LMS that names no roster
// service shows no roster section, and an update says why it cannot be.
func TestLTIRosterNotOffered(t *testing.T) {
	w := newLTIWorld(t, sqliteStore(t))
	teacher := w.browser()
	instructor := w.launch(teacherOne, "course-1")
	instructor.Target = w.base + "/"
	if _, status, body := w.run(teacher, instructor); status != http.StatusOK {
		t.Fatalf("instructor launch = %d:\n%s", status, body)
	}
	class := w.classOf("course-1")
	if _, page := w.dashboard(teacher, class.ID); rosterSection(page) != "" {
		t.Errorf("a class without a roster service shows the LMS roster section")
	}
	status, body, _ := samePost(t, teacher, fmt.Sprintf("%s/classes/%d/lms-roster", w.base, class.ID), nil)
	if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity || !strings.Contains(body, "This class has no roster service of an LMS") {
		t.Errorf("update without a roster service = %d:\n%s", status, body)
	}
}
