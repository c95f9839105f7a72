package ltiplatform

// A course page that embeds the tool in an iframe, and the platform's
// client-side storage written from 1EdTech's LTI Client Side postMessages
// (and the OIDC login with platform storage it serves): the page answers
// the capabilities request with the put_data and get_data messages,
// handled by a hidden frame of its own ("lti-storage") that keeps values
// per sending origin and answers each message to its source, with the
// request's message_id, under the subject with ".response" appended.

import (
	"html/template"
	"net/http"
	"net/url"
)

// StorageFrame is the name of the frame that serves the platform's
// storage: a launch's StorageTarget.
const StorageFrame = "lti-storage"

// CourseURL returns the address of a course page of the platform that
// embeds the login initiation login (LoginURL's answer) in an iframe
// with id "tool". The page's window.storageLog lists the storage
// messages its frame handled ("put KEY" and "get KEY").
func (p *Platform) CourseURL(login string) string {
	return p.server.URL + "/course?" + url.Values{"login": {login}}.Encode()
}

func (p *Platform) coursePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = coursePage.Execute(w, map[string]any{"Login": r.URL.Query().Get("login"), "Frame": StorageFrame})
}

func (p *Platform) storageFrame(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(storageFrame))
}

var coursePage = template.Must(template.New("course").Parse(`<!doctype html>
<html><head><title>LMS course</title></head><body>
<h1>LMS course</h1>
<iframe id="tool" title="learn" src="{{.Login}}" width="1100" height="800"></iframe>
<iframe name="{{.Frame}}" src="/storage-frame" hidden></iframe>
<script>
window.storageLog = [];
window.addEventListener("message", function (event) {
  var d = event.data || {};
  if (d.subject !== "lti.capabilities" && d.subject !== "org.imsglobal.lti.capabilities") return;
  event.source.postMessage({subject: d.subject + ".response", message_id: d.message_id,
    supported_messages: [{subject: "lti.put_data", frame: "{{.Frame}}"}, {subject: "lti.get_data", frame: "{{.Frame}}"}]}, event.origin);
});
</script>
</body></html>`))

const storageFrame = `<!doctype html>
<html><body><script>
var kept = {};
window.addEventListener("message", function (event) {
  var d = event.data || {};
  var where = event.origin + " " + d.key;
  if (d.subject === "lti.put_data") {
    kept[where] = d.value;
    window.parent.storageLog.push("put " + d.key);
    event.source.postMessage({subject: "lti.put_data.response", message_id: d.message_id, key: d.key, value: d.value}, event.origin);
  } else if (d.subject === "lti.get_data") {
    window.parent.storageLog.push("get " + d.key);
    event.source.postMessage({subject: "lti.get_data.response", message_id: d.message_id, key: d.key, value: kept[where]}, event.origin);
  }
});
</script></body></html>`
