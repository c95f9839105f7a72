package web

import (
	"net/http"
	"strings"
	"time"

	"learn/progress"
)

// MeView is the learner's own page: the devices signed in with their
// secret words, and a way to sign them out.
type MeView struct {
	Page
	// OnDevice is true when this browser signed in with secret words (it
	// is one of Devices); false on the browser the learner started on.
	OnDevice bool
	Devices  []DeviceView
	// SignedOut is how many devices the last "sign out everywhere else"
	// ended, -1 when the page was not reached from it.
	SignedOut int
	// LMS is set for an LMS account's learner, Linked once that account
	// took over a secret-words learner (lti_link.go), LinkedNow on the
	// page the link led to.
	LMS, Linked, LinkedNow bool
}

// DeviceView is one signed-in device as the learner sees it.
type DeviceView struct {
	Description, LastSeen string
	Current               bool
}

// meShow draws the learner's page with their signed-in devices.
func (s *Server) meShow(w http.ResponseWriter, r *http.Request) error {
	a := progress.ActorFrom(r.Context())
	v := MeView{Page: s.page(r, "You and your devices", "classes"), OnDevice: deviceFrom(r.Context()) != "", SignedOut: -1}
	if n, ok := signedOutCount(r.URL.Query().Get("signedout")); ok {
		v.SignedOut = n
	}
	if a.Known {
		devices, err := s.app.Devices(r.Context(), a)
		if err != nil {
			return err
		}
		now := s.now()
		for _, d := range devices {
			v.Devices = append(v.Devices, DeviceView{Description: describeUserAgent(d.UserAgent), LastSeen: lastSeenText(now.Sub(d.LastSeen)), Current: d.ID == deviceFrom(r.Context())})
		}
		st, err := s.app.LTILinkStatus(r.Context(), a)
		if err != nil {
			return err
		}
		v.LMS, v.Linked, v.LinkedNow = st.LMS, st.Linked, st.Linked && r.URL.Query().Get("linked") == "1"
	}
	return render(w, r, mePage(v))
}

// signOutElsewhere signs out every device of the learner but this browser.
func (s *Server) signOutElsewhere(w http.ResponseWriter, r *http.Request) error {
	a := progress.ActorFrom(r.Context())
	n := 0
	if a.Known {
		var err error
		if n, err = s.app.SignOutOtherDevices(r.Context(), a, deviceFrom(r.Context())); err != nil {
			return err
		}
	}
	http.Redirect(w, r, "/me?signedout="+countText(n), http.StatusSeeOther)
	return nil
}

func countText(n int) string {
	if n <= 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// signedOutCount reads the ?signedout= count, small and non-negative.
func signedOutCount(q string) (int, bool) {
	if q == "" || len(q) > 4 {
		return 0, false
	}
	n := 0
	for _, c := range q {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// lastSeenText says a past duration roughly: "just now", "5 minutes ago", "3 hours
// ago", "2 days ago".
func lastSeenText(d time.Duration) string {
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit + " ago"
		}
		return countText(n) + " " + unit + "s ago"
	}
	switch {
	case d < 10*time.Minute:
		return "in the last few minutes"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour")
	}
	return plural(int(d/(24*time.Hour)), "day")
}

// describeUserAgent names a browser and system roughly from a User-Agent
// header: "Firefox on Windows", "Safari on iPhone", "A browser" when it
// says nothing known.
func describeUserAgent(ua string) string {
	first := func(pairs [][2]string) string {
		for _, p := range pairs {
			if strings.Contains(ua, p[0]) {
				return p[1]
			}
		}
		return ""
	}
	// Order matters: Edge and Opera say Chrome too, Chrome says Safari.
	browser := first([][2]string{{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"}, {"Edg", "Edge"}, {"OPR/", "Opera"},
		{"CriOS/", "Chrome"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"}})
	system := first([][2]string{{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Windows", "Windows"}, {"Mac OS X", "macOS"}, {"Macintosh", "macOS"}, {"Linux", "Linux"}})
	switch {
	case browser != "" && system != "":
		return browser + " on " + system
	case browser != "":
		return browser
	case system != "":
		return "A browser on " + system
	}
	return "A browser"
}
