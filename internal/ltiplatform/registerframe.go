package ltiplatform

// The platform's page that runs a Dynamic Registration 1.0 in a frame:
// the administrator's page opens the tool's registration initiation
// address (RegistrationURL's, with openid_configuration and
// registration_token) in an iframe, and listens for the message the tool
// posts when the registration is complete, {subject:
// "org.imsglobal.lti.close"}, on which the platform closes the frame.
// The page keeps every close message from its frame, with the origin it
// came from, in window.registrationClosed, and closes the frame on the
// first.

import (
	"html/template"
	"net/http"
	"net/url"
)

// CloseSubject is the subject of the message a tool posts when its
// registration is complete.
const CloseSubject = "org.imsglobal.lti.close"

// RegisterToolURL returns the address of the platform's page that opens
// the registration initiation of learn's invite address inviteURL in an
// iframe with id "tool".
func (p *Platform) RegisterToolURL(inviteURL string) string {
	return p.server.URL + "/tool-registration?" + url.Values{"registration": {p.RegistrationURL(inviteURL)}}.Encode()
}

func (p *Platform) registerToolPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = registerToolPage.Execute(w, map[string]string{"Registration": r.URL.Query().Get("registration"), "Subject": CloseSubject})
}

var registerToolPage = template.Must(template.New("register").Parse(`<!doctype html>
<html><head><title>LMS tool registration</title></head><body>
<h1>Register a tool</h1>
<p id="status">Registering…</p>
<iframe id="tool" title="tool registration" src="{{.Registration}}" width="1100" height="800"></iframe>
<script>
window.registrationClosed = [];
window.addEventListener("message", function (event) {
  var frame = document.getElementById("tool");
  var d = event.data || {};
  if (!frame || event.source !== frame.contentWindow || d.subject !== "{{.Subject}}") return;
  window.registrationClosed.push({origin: event.origin, subject: d.subject});
  frame.remove();
  document.getElementById("status").textContent = "Registration finished";
});
</script>
</body></html>`))
