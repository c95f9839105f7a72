package web

import (
	"net"
	"net/http"
	"strings"

	"learn/progress"
)

// SheetView is the printable sheet of a class's secret words.
type SheetView struct {
	Page
	ClassID              int64
	ClassName, ClassCode string
	// SignInAddress is where a learner continues on another device.
	SignInAddress string
	Cards         []WordCard
}

// WordCard is one learner's card on the word sheet.
type WordCard struct{ Name, Secret string }

// ProjectorView is the join screen for the room's projector.
type ProjectorView struct {
	Page
	ClassID             int64
	ClassName, JoinCode string
	// JoinAddress is the join page's address as learners type it; QR is
	// the SVG of that address with the code filled in.
	JoinAddress, QR string
	// Host is how this browser reached the server; Loopback is set when
	// that address works on this machine only.
	Host     string
	Loopback bool
}

// siteAddress is the server's address as the requesting browser reached
// it, such as "http://192.168.1.20:8080".
func siteAddress(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// loopbackHost reports whether host (with or without a port) names this
// machine only: localhost or a loopback address.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// classSheet draws the printable word sheet of one of the teacher's
// classes. It holds every learner's words: never compressed (BREACH) nor
// kept by a cache.
func (s *Server) classSheet(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	c, members, err := s.app.ClassMembers(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	plainBody(w)
	w.Header().Set("Cache-Control", "no-store")
	v := SheetView{Page: s.page(r, "Secret words · "+c.Name, "classes"), ClassID: c.ID, ClassName: c.Name,
		ClassCode: progress.ClassCode(c.ID), SignInAddress: siteAddress(r) + "/join/signin"}
	v.Page.TeacherView = progress.ActorFrom(r.Context()).TeacherName
	for _, m := range members {
		v.Cards = append(v.Cards, WordCard{Name: m.Name, Secret: m.Secret})
	}
	return render(w, r, sheetPage(v))
}

// classProjector draws the join screen of one of the teacher's classes.
func (s *Server) classProjector(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	c, err := s.app.Class(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	v := ProjectorView{Page: s.page(r, "Join "+c.Name, "classes"), ClassID: c.ID, ClassName: c.Name, Host: r.Host, Loopback: loopbackHost(r.Host)}
	v.Page.TeacherView = progress.ActorFrom(r.Context()).TeacherName
	if !c.Archived() && c.JoinCode != "" {
		v.JoinCode = c.JoinCode
		v.JoinAddress = siteAddress(r) + "/join"
		if v.QR, err = qrSVG(v.JoinAddress+"?code="+c.JoinCode, "QR code of "+v.JoinAddress+"?code="+c.JoinCode); err != nil {
			return err
		}
	}
	return render(w, r, projectorPage(v))
}
