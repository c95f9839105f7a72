package web

// A login initiation or launch refused inside the LMS's frame shows its
// refusal page there, so that the LMS administrator reads which check
// failed instead of a blank frame: the page may be framed by the origins
// of the registered platform the request names (its issuer and its
// authorisation endpoint, as lti.FrameOrigins says for a launch). The
// login initiation names it by iss and client_id; the launch by the iss
// and aud of its id_token, read unverified and used only to look up a
// registered platform (lti.Tool.TokenPlatform). A request that names no
// registered platform keeps frame-ancestors 'none' and X-Frame-Options:
// DENY: no origin frames a refusal unless it is a registered platform's.

import (
	"log/slog"
	"net/http"
	"strings"

	"learn/lti"
)

// frameRefusal lets the registered platform that a refused login
// initiation or launch names frame the refusal page, besides any origins
// the browser's frame cookie names already. Other routes' refusals, and
// requests naming no registered platform, keep their policy.
func (s *Server) frameRefusal(w http.ResponseWriter, r *http.Request) {
	if s.lti == nil {
		return
	}
	var p lti.Platform
	var err error
	switch r.URL.Path {
	case lti.LoginPath:
		iss := r.FormValue("iss")
		if iss == "" {
			return
		}
		p, err = s.lti.LoginPlatform(r.Context(), iss, r.FormValue("client_id"))
	case lti.LaunchPath:
		idToken := r.PostFormValue("id_token")
		if idToken == "" {
			return
		}
		p, err = s.lti.TokenPlatform(r.Context(), idToken)
	default:
		return
	}
	if err != nil {
		// No registered platform (a *lti.Refusal), or the store failed:
		// the page stays unframed either way.
		s.log.DebugContext(r.Context(), "LTI refusal page not framed", slog.String("path", r.URL.Path), slog.Any("err", err))
		return
	}
	allowPlatformFraming(w.Header(), p, strings.Fields(framedBy(r.Context()))...)
}
