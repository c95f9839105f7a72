package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	"learn/lti"
	"learn/progress"
	"learn/web"
)

const ltiUsage = `Register the learning management systems (LTI 1.3 platforms) that may
launch learn. In the LMS, register learn as a tool with the addresses
"learn serve --public-url" prints: login initiation /lti/login, redirect
(launch) /lti/launch and public key set /lti/jwks.

Usage:
  learn lti add --issuer URL --client-id ID --deployment ID [--deployment ID…]
        --login URL --token URL --jwks URL [--db FILE]
  learn lti list [--db FILE]
  learn lti remove --issuer URL --client-id ID [--db FILE]

Addresses must be https (http only on localhost).

Flags (--db is also read from LEARN_DB):
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
	env := withEnv(fs)
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
	if len(pos) != 1 || (pos[0] != "add" && pos[0] != "list" && pos[0] != "remove") {
		fmt.Fprintln(stderr, "learn lti: give one action: add, list or remove")
		return errUsage
	}
	p.DeploymentIDs = deployments
	switch pos[0] {
	case "add":
		if err := lti.CheckPlatform(p); err != nil {
			fmt.Fprintf(stderr, "learn lti add: %v\n", err)
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
