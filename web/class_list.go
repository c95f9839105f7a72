package web

import (
	"net/http"
	"strconv"

	"learn/progress"
)

// ClassesView is /classes: a teacher's classes and the form to make one,
// or, for a learner, their classes and the forms to join one.
type ClassesView struct {
	Page
	Teacher     bool
	TeacherName string
	Admin       bool
	Classes     []ClassRow
	// Mine are the learner's own classes.
	Mine []MyClassView
	// Error and Name redraw a refused create form.
	Error, Name string
	// Done says what the action just confirmed did.
	Done string
}

// classesDone are the notes the classes page shows after a confirmed
// action, by its ?done= value.
var classesDone = map[string]string{
	"deleted": "The class and its roster, assignments, secret words and Q&A were deleted. Learners keep their own progress.",
	"left":    "You left the class. Your own progress stays yours.",
}

// ClassRow is one class in a teacher's list.
type ClassRow struct {
	ID       int64
	Name     string
	Code     string
	Members  int
	Archived bool
	// CoTaught marks a class the reader co-teaches (another teacher owns it).
	CoTaught bool
}

// MyClassView is one of a learner's classes.
type MyClassView struct {
	ID      int64
	Name    string
	Teacher string
	MyName  string
	// ClassCode is what the learner types to continue on another device.
	ClassCode   string
	Assignments []AssignedView
	Leaderboard []progress.LeaderRow
}

// AssignedView is a lesson assigned to the learner.
type AssignedView struct {
	Slug, Title string
	Class       string
	Teacher     string
	DueDay      string
	Done, Late  bool
}

// URL returns the class page's address.
func (c ClassRow) URL() string { return classURL(c.ID) }

func classURL(id int64) string { return "/classes/" + strconv.FormatInt(id, 10) }

// myClassViews turns the core's classes into views.
func myClassViews(mine []progress.MyClass) []MyClassView {
	var out []MyClassView
	for _, mc := range mine {
		v := MyClassView{ID: mc.Class.ID, Name: mc.Class.Name, Teacher: mc.TeacherName, MyName: mc.Member.Name, ClassCode: progress.ClassCode(mc.Class.ID), Leaderboard: mc.Leaderboard}
		for _, as := range mc.Assignments {
			v.Assignments = append(v.Assignments, AssignedView{Slug: as.Lesson.Slug, Title: as.Lesson.Title, Class: mc.Class.Name,
				Teacher: mc.TeacherName, DueDay: as.DueDay, Done: as.Done, Late: as.Late})
		}
		out = append(out, v)
	}
	return out
}

// classesShow draws /classes for a teacher or a learner.
func (s *Server) classesShow(w http.ResponseWriter, r *http.Request) error {
	return s.renderClasses(w, r, http.StatusOK, "", "")
}

func (s *Server) renderClasses(w http.ResponseWriter, r *http.Request, status int, problem, name string) error {
	a := progress.ActorFrom(r.Context())
	v := ClassesView{Page: s.page(r, "Classes", "classes"), Teacher: a.IsTeacher(), TeacherName: a.TeacherName, Done: classesDone[r.URL.Query().Get("done")],
		Admin: a.Role == progress.RoleAdmin, Error: problem, Name: name}
	if a.IsTeacher() {
		classes, err := s.app.Classes(r.Context(), a)
		if err != nil {
			return err
		}
		for _, c := range classes {
			v.Classes = append(v.Classes, ClassRow{ID: c.ID, Name: c.Name, Code: c.JoinCode, Members: c.MemberCount, Archived: c.Archived(), CoTaught: c.TeacherID != a.TeacherID})
		}
	}
	mine, err := s.app.MyClasses(r.Context(), a)
	if err != nil {
		return err
	}
	v.Mine = myClassViews(mine)
	return renderStatus(w, r, status, classesPage(v))
}

// classCreate makes a class and sends the teacher to its page.
func (s *Server) classCreate(w http.ResponseWriter, r *http.Request) error {
	c, err := s.app.CreateClass(r.Context(), progress.ActorFrom(r.Context()), r.PostFormValue("name"), r.PostFormValue("tz"))
	if err != nil {
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			return s.renderClasses(w, r, status, message, r.PostFormValue("name"))
		})
	}
	http.Redirect(w, r, classURL(c.ID), http.StatusSeeOther)
	return nil
}

// classID reads the {id} of a class route; a malformed one is the same 404
// as a class the actor may not see.
func classID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFoundError("There is no class at this address that you can see. Teachers: sign in to see your classes.")
	}
	return id, nil
}
