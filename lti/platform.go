package lti

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckURL reports what is wrong with an address a registration or
// learn's public URL gives, or nil: it must be absolute and https, except
// on localhost (and loopback addresses), where tests and a laptop's trial
// run may use http.
func CheckURL(what, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("the %s %q is not an address: %w", what, raw, err)
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return fmt.Errorf("the %s %q is not an absolute http(s) address; give one like https://lms.example/…", what, raw)
	case u.User != nil:
		return fmt.Errorf("the %s %q holds a user name or password; give the address without them", what, raw)
	case u.Fragment != "":
		return fmt.Errorf("the %s %q has a #fragment; give the address without it", what, raw)
	case u.Scheme == "http" && !isLocal(u.Hostname()):
		return fmt.Errorf("the %s %q is not https; LTI needs https (http is accepted for localhost only)", what, raw)
	}
	return nil
}

func isLocal(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckPlatform reports what is wrong with a registration, or nil.
func CheckPlatform(p Platform) error {
	if len(p.DeploymentIDs) == 0 {
		return fmt.Errorf("give at least one deployment id of the LMS")
	}
	return checkPlatform(p)
}

// CheckDeployments reports what is wrong with deployment ids, or nil.
func CheckDeployments(ids []string) error {
	for _, d := range ids {
		if d == "" || len(d) > 255 {
			return fmt.Errorf("a deployment id must have 1 to 255 characters")
		}
	}
	return nil
}

// checkPlatform is CheckPlatform but for a registration without
// deployments yet (a dynamic registration whose LMS named none).
func checkPlatform(p Platform) error {
	if p.ClientID == "" {
		return fmt.Errorf("give the client id the LMS assigned to learn")
	}
	if err := CheckDeployments(p.DeploymentIDs); err != nil {
		return err
	}
	for _, u := range []struct{ what, raw string }{
		{"issuer", p.Issuer}, {"login (authorisation) address", p.AuthURL},
		{"token address", p.TokenURL}, {"key set address", p.JWKSURL},
	} {
		if err := CheckURL(u.what, u.raw); err != nil {
			return err
		}
	}
	return nil
}
