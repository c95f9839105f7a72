package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"learn/lti"
	"learn/progress"
	"learn/web"
)

const ltiUsage = `Register the learning management systems (LTI 1.3 platforms) that may
launch learn.

By dynamic registration: "learn lti invite" prints a one-time registration
address; the LMS's administrator pastes it into the LMS (its page for
adding a tool by dynamic registration), confirms in the window the LMS
opens, and the LMS and learn exchange their addresses and ids. The
address serves once, within --expires.

By hand: in the LMS, register learn as a tool with the addresses "learn
serve --public-url" prints (login initiation /lti/login, redirect (launch)
/lti/launch, public key set /lti/jwks), then "learn lti add" what the LMS
shows. An LMS that names no deployment when it registers (or a new
deployment of a registered LMS) is added with "learn lti add-deployment":
the refused launch's page shows the command.

Usage:
  learn lti invite --public-url URL [--expires DURATION] [--db FILE]
  learn lti invites [--db FILE]
  learn lti revoke-invite --id N [--db FILE]
  learn lti add --issuer URL --client-id ID --deployment ID [--deployment ID…]
        --login URL --token URL --jwks URL [--db FILE]
  learn lti add-deployment --issuer URL --client-id ID --deployment ID [--deployment ID…] [--db FILE]
  learn lti list [--db FILE]
  learn lti remove --issuer URL --client-id ID [--db FILE]

Addresses must be https (http only on localhost).

Flags (--db and --public-url are also read from the environment):
`

// listFlag collects a flag given several times.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// runLTI is "learn lti": it opens the database directly, like "learn
// teacher", so it works while the server runs.
func runLTI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lti", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "learn.db", "the database: a SQLite `file`, or a postgres:// URL shared by several servers")
	publicURL := fs.String("public-url", "", "learn's public HTTPS `origin`, as \"learn serve\" is given it (invite)")
	env := withEnv(fs)
	expires := fs.Duration("expires", lti.DefaultInviteLifetime, "how long the invite's address serves (a `duration`; invite)")
	inviteID := fs.Int64("id", 0, "the `number` of an invite, as \"learn lti invites\" lists it (revoke-invite)")
	var p lti.Platform
	var deployments listFlag
	fs.StringVar(&p.Issuer, "issuer", "", "the platform's issuer (`URL`), exactly as the LMS shows it")
	fs.StringVar(&p.ClientID, "client-id", "", "the client `id` the LMS assigned to learn")
	fs.Var(&deployments, "deployment", "a deployment `id` of the LMS that may launch learn (repeat for several)")
	fs.StringVar(&p.AuthURL, "login", "", "the LMS's OIDC authorisation (login) `URL`")
	fs.StringVar(&p.TokenURL, "token", "", "the LMS's OAuth 2 access token `URL`")
	fs.StringVar(&p.JWKSURL, "jwks", "", "the `URL` of the LMS's public key set")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), ltiUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	pos := fs.Args()
	if len(pos) != 1 || !slices.Contains([]string{"add", "add-deployment", "list", "remove", "invite", "invites", "revoke-invite"}, pos[0]) {
		fmt.Fprintln(stderr, "learn lti: give one action: invite, invites, revoke-invite, add, add-deployment, list or remove")
		return errUsage
	}
	if strings.Contains(pos[0], "invite") {
		return runLTIInvites(ctx, pos[0], *db, *publicURL, *expires, *inviteID, stdout, stderr)
	}
	p.DeploymentIDs = deployments
	switch pos[0] {
	case "add":
		if err := lti.CheckPlatform(p); err != nil {
			fmt.Fprintf(stderr, "learn lti add: %v\n", err)
			return errUsage
		}
	case "add-deployment":
		if p.Issuer == "" || p.ClientID == "" || len(p.DeploymentIDs) == 0 {
			fmt.Fprintln(stderr, "learn lti add-deployment: give the --issuer and --client-id of the registration (see \"learn lti list\") and one --deployment or more")
			return errUsage
		}
		if err := lti.CheckDeployments(p.DeploymentIDs); err != nil {
			fmt.Fprintf(stderr, "learn lti add-deployment: %v\n", err)
			return errUsage
		}
	case "remove":
		if p.Issuer == "" || p.ClientID == "" {
			fmt.Fprintln(stderr, "learn lti remove: give the --issuer and --client-id of the registration (see \"learn lti list\")")
			return errUsage
		}
	}
	st, _, err := openDatabase(ctx, *db, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer st.Close()
	switch pos[0] {
	case "add":
		p.CreatedAt = time.Now()
		added, err := st.AddPlatform(ctx, p)
		if errors.Is(err, progress.ErrConflict) {
			return fmt.Errorf("%s with client id %s is registered already; remove it first to change it", p.Issuer, p.ClientID)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "registered %s (client id %s, deployments %s)\n", added.Issuer, added.ClientID, strings.Join(added.DeploymentIDs, ", "))
	case "add-deployment":
		got, err := st.AddDeployments(ctx, p.Issuer, p.ClientID, p.DeploymentIDs)
		if errors.Is(err, lti.ErrNotFound) {
			return fmt.Errorf("no platform %s with client id %s is registered (see \"learn lti list\")", p.Issuer, p.ClientID)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s (client id %s) may launch from deployments %s\n", got.Issuer, got.ClientID, strings.Join(got.DeploymentIDs, ", "))
	case "list":
		ps, err := st.Platforms(ctx)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			fmt.Fprintln(stdout, `no platforms yet; add one with "learn lti add"`)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ISSUER\tCLIENT ID\tDEPLOYMENTS\tLOGIN\tTOKEN\tKEY SET")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Issuer, p.ClientID, strings.Join(p.DeploymentIDs, ","), p.AuthURL, p.TokenURL, p.JWKSURL)
		}
		return tw.Flush()
	case "remove":
		if err := st.RemovePlatform(ctx, p.Issuer, p.ClientID); errors.Is(err, lti.ErrNotFound) {
			return fmt.Errorf("no platform %s with client id %s is registered (see \"learn lti list\")", p.Issuer, p.ClientID)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s (client id %s); launches from it are refused now\n", p.Issuer, p.ClientID)
	}
	return nil
}

// runLTIInvites is "learn lti invite", "invites" and "revoke-invite".
func runLTIInvites(ctx context.Context, action, db, publicURL string, expires time.Duration, id int64, stdout, stderr io.Writer) error {
	var public *url.URL
	switch action {
	case "invite":
		if publicURL == "" {
			fmt.Fprintln(stderr, "learn lti invite: give --public-url, learn's public address as \"learn serve\" has it: the invite is an address of it")
			return errUsage
		}
		u, err := parsePublicURL(publicURL)
		if err != nil {
			fmt.Fprintf(stderr, "learn lti invite: --public-url: %v\n", err)
			return errUsage
		}
		if expires <= 0 {
			fmt.Fprintln(stderr, "learn lti invite: --expires must be a positive duration, such as 48h")
			return errUsage
		}
		public = u
	case "revoke-invite":
		if id <= 0 {
			fmt.Fprintln(stderr, "learn lti revoke-invite: give the --id of the invite (see \"learn lti invites\")")
			return errUsage
		}
	}
	st, _, err := openDatabase(ctx, db, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer st.Close()
	now := time.Now()
	switch action {
	case "invite":
		address, inv, err := lti.NewInvite(ctx, st, public, expires, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "one-time registration address (invite %d), until %s:\n%s\n", inv.ID, inv.ExpiresAt.Local().Format(time.DateTime+" MST"), address)
		fmt.Fprintln(stdout, "Give it to the LMS's administrator to paste into the LMS's dynamic registration; it serves once.")
	case "invites":
		invs, err := st.Invites(ctx)
		if err != nil {
			return err
		}
		if len(invs) == 0 {
			fmt.Fprintln(stdout, `no invites; make one with "learn lti invite"`)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tMADE\tEXPIRES\tSTATE")
		for _, inv := range invs {
			state := "open"
			switch {
			case !inv.UsedAt.IsZero():
				state = "used " + inv.UsedAt.Local().Format(time.DateTime)
			case !now.Before(inv.ExpiresAt):
				state = "expired"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", inv.ID, inv.CreatedAt.Local().Format(time.DateTime), inv.ExpiresAt.Local().Format(time.DateTime), state)
		}
		return tw.Flush()
	case "revoke-invite":
		if err := st.RevokeInvite(ctx, id); errors.Is(err, lti.ErrNotFound) {
			return fmt.Errorf("no invite %d (see \"learn lti invites\")", id)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked invite %d; its address registers nothing now\n", id)
	}
	return nil
}

// ltiKeys returns learn's LTI signing keys, making the first one when
// there is none.
func ltiKeys(ctx context.Context, st lti.Store, now time.Time) ([]lti.Key, error) {
	keys, err := st.SigningKeys(ctx)
	if err != nil || len(keys) > 0 {
		return keys, err
	}
	if err := rotateLTIKey(ctx, st, defaultKeyGrace, now); err != nil {
		return nil, err
	}
	return st.SigningKeys(ctx)
}

// rotateLTIKey makes a new LTI signing key; the one it replaces stays in
// the published key set for grace, and keys retired longer ago go.
func rotateLTIKey(ctx context.Context, st lti.Store, grace time.Duration, now time.Time) error {
	k, err := lti.NewKey(now)
	if err != nil {
		return err
	}
	return st.AddSigningKey(ctx, k, now.Add(-grace))
}

// parsePublicURL reads --public-url: an origin, https except on
// localhost, with no path, query or fragment.
func parsePublicURL(raw string) (*url.URL, error) {
	if err := lti.CheckURL("public address", raw); err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, fmt.Errorf("give the origin alone, such as %s://%s, without a path or query", u.Scheme, u.Host)
	}
	u.Path = ""
	return u, nil
}

// ltiTool returns what serves LTI launches, or nil without --public-url
// (the LTI routes then say so). It makes learn's first signing key when
// there is none.
func ltiTool(ctx context.Context, cfg serveConfig, st database, grace time.Duration, log *slog.Logger) (web.LTI, error) {
	if cfg.publicURL == "" {
		log.Info("LTI launches are off: start with --public-url to take them")
		return nil, nil
	}
	public, err := parsePublicURL(cfg.publicURL)
	if err != nil {
		return nil, fmt.Errorf("--public-url: %w", err)
	}
	if _, err := ltiKeys(ctx, st, time.Now()); err != nil {
		return nil, err
	}
	tool, err := lti.New(lti.Config{Store: st, PublicURL: public, KeyGrace: grace})
	if err != nil {
		return nil, err
	}
	log.Info("LTI launches on", "login", public.JoinPath(lti.LoginPath).String(), "launch", tool.RedirectURI(),
		"jwks", public.JoinPath(lti.JWKSPath).String())
	return tool, nil
}

// ltiRosters returns what reads LMS courses' rosters (Names and Role
// Provisioning) when the server takes launches, nil when it does not.
func ltiRosters(cfg serveConfig, st database) (progress.LMSRosters, error) {
	if cfg.publicURL == "" {
		return nil, nil
	}
	r, err := lti.NewRoster(lti.RosterConfig{Store: st})
	if err != nil {
		return nil, fmt.Errorf("lti rosters: %w", err)
	}
	return r, nil
}

// startScoreSender sends the outbox's scores to the LMSs' gradebooks
// until the returned stop is called (or ctx ends); stop waits for the
// sender to finish the score in hand. Every server sharing the database
// runs one: the outbox's leases keep them from sending the same score.
func startScoreSender(ctx context.Context, st database, log *slog.Logger) (stop func(), err error) {
	sender, err := lti.NewSender(lti.SenderConfig{Store: st, Log: log.With("component", "lti-scores")})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sender.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}, nil
}
