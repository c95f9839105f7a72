package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"learn/lti"
	"learn/store"
)

// TestLTIRegistrationWithoutDeployment: an LMS whose registration answer
// names no deployment is registered without one; its launches are refused
// with the command that adds the deployment, and once it is added they
// work (on both engines).
func TestLTIRegistrationWithoutDeployment(t *testing.T) {
	onBothStores(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		w := newRegisterWorld(t, st)
		w.lms.AnswerWithoutDeployment()
		status, page := w.confirm(w.browser(), w.lms.RegistrationURL(w.invite(time.Now())), nil)
		if status != http.StatusOK || !strings.Contains(page, "The LMS named no deployment of learn yet") {
			t.Fatalf("registration without a deployment = %d\n%s\nrefused: %v", status, page, w.lms.RefusedRegistrations())
		}
		p, err := st.FindPlatform(ctx, w.lms.Issuer(), w.lms.ClientID)
		if err != nil || len(p.DeploymentIDs) != 0 {
			t.Fatalf("registered platform = %+v, %v; want it without deployments", p, err)
		}

		instructor := w.launch(teacherOne, "course-1")
		resp, body := open(t, w.browser(), w.lms.LoginURL(w.base+lti.LoginPath, instructor))
		status = resp.StatusCode
		want := "learn lti add-deployment --issuer " + w.lms.Issuer() + " --client-id " + w.lms.ClientID + " --deployment " + w.lms.DeploymentID
		if status != http.StatusBadRequest || !strings.Contains(body, "names no deployment yet") || !strings.Contains(body, want) {
			t.Fatalf("a launch before the deployment is added = %d, want 400 with %q:\n%s", status, want, body)
		}

		if _, err := st.AddDeployments(ctx, w.lms.Issuer(), "someone-else", []string{w.lms.DeploymentID}); err == nil {
			t.Errorf("AddDeployments to an unregistered client id worked")
		}
		got, err := st.AddDeployments(ctx, w.lms.Issuer(), w.lms.ClientID, []string{w.lms.DeploymentID, w.lms.DeploymentID})
		if err != nil || len(got.DeploymentIDs) != 1 || !got.HasDeployment(w.lms.DeploymentID) {
			t.Fatalf("AddDeployments = %+v, %v", got, err)
		}
		if _, status, body := w.run(w.browser(), instructor); status != http.StatusOK {
			t.Fatalf("the launch after the deployment was added = %d\n%s", status, body)
		}
		// Another deployment of the same LMS is refused with its own id.
		w.lms.DeploymentID = "deployment-2"
		resp, body = open(t, w.browser(), w.lms.LoginURL(w.base+lti.LoginPath, instructor))
		if status = resp.StatusCode; status != http.StatusBadRequest || !strings.Contains(body, `The deployment &#34;deployment-2&#34; is not registered`) || !strings.Contains(body, "--deployment deployment-2") {
			t.Errorf("a launch from another deployment = %d\n%s", status, body)
		}
	})
}
