package progress

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// SessionLifetime is how long a teacher stays signed in on one browser.
const SessionLifetime = 14 * 24 * time.Hour

// Password rules: bcrypt reads at most 72 bytes, and a short password is
// guessed too easily.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 72
)

// signInFailed is the one message for a wrong e-mail or a wrong password,
// so the form never tells which e-mails are teachers'.
const signInFailed = "That e-mail and password do not match a teacher of this server. Check both and try again."

// NormalizeEmail returns the e-mail as it is stored: trimmed, lower case.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// TeacherInput is a new teacher as the operator gives it.
type TeacherInput struct {
	Email, Name, Password string
	Admin                 bool
}

// AddTeacher validates in and saves a new teacher with a bcrypt hash of
// the password. It is the operator's command ("learn teacher add"), so it
// takes the store rather than an actor.
//
// Errors: *Error of kind Invalid for a malformed e-mail, a name over 80
// characters, or a password outside MinPasswordLen..MaxPasswordLen bytes;
// of kind Invalid too when the e-mail is already a teacher's.
func AddTeacher(ctx context.Context, st ClassroomStore, in TeacherInput, now time.Time) (Teacher, error) {
	email := NormalizeEmail(in.Email)
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
		return Teacher{}, &Error{Kind: Invalid, Message: fmt.Sprintf("%q is not an e-mail address; give one like teacher@school.example.", in.Email)}
	}
	name := strings.Join(strings.Fields(in.Name), " ")
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if utf8.RuneCountInString(name) > 80 {
		return Teacher{}, &Error{Kind: Invalid, Message: "The name is longer than 80 characters; give a shorter one."}
	}
	hash, err := hashPassword(in.Password)
	if err != nil {
		return Teacher{}, err
	}
	t, err := st.CreateTeacher(ctx, Teacher{Email: email, Name: name, Admin: in.Admin, PasswordHash: hash, CreatedAt: now})
	if errors.Is(err, ErrConflict) {
		return Teacher{}, &Error{Kind: Invalid, Message: fmt.Sprintf("%s is already a teacher here; remove them first to start again.", email), Err: err}
	}
	return t, err
}

// ListTeachers returns every teacher, for the operator.
func ListTeachers(ctx context.Context, st ClassroomStore) ([]Teacher, error) {
	return st.ListTeachers(ctx)
}

// RemoveTeacher deletes the teacher with this e-mail, their sessions and
// classes (learners keep their progress). Errors: *Error of kind NotFound
// for an e-mail that is no teacher's.
func RemoveTeacher(ctx context.Context, st ClassroomStore, email string) (Teacher, error) {
	t, err := st.FindTeacherByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNotFound) {
		return Teacher{}, &Error{Kind: NotFound, Message: fmt.Sprintf("%s is not a teacher here; \"learn teacher list\" shows who is.", email), Err: err}
	}
	if err != nil {
		return Teacher{}, err
	}
	return t, st.DeleteTeacher(ctx, t.ID)
}

// hashPassword checks the password's length and hashes it with bcrypt.
func hashPassword(pw string) (string, error) {
	if len(pw) < MinPasswordLen {
		return "", &Error{Kind: Invalid, Message: fmt.Sprintf("The password is too short: use at least %d characters.", MinPasswordLen)}
	}
	if len(pw) > MaxPasswordLen {
		return "", &Error{Kind: Invalid, Message: fmt.Sprintf("The password is too long: use at most %d bytes.", MaxPasswordLen)}
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
	if err != nil {
		return "", fmt.Errorf("progress: hash password: %w", err)
	}
	return string(h), nil
}

// newDummyHash makes the hash compared against when the e-mail is
// unknown, so a wrong e-mail costs the same time as a wrong password.
func newDummyHash() string {
	h, err := bcrypt.GenerateFromPassword([]byte("no teacher has this password"), bcrypt.DefaultCost)
	if err != nil {
		return ""
	}
	return string(h)
}

// SignInRequest is a teacher's sign-in form.
type SignInRequest struct {
	Email, Password string
	// Address is the client's network address, for the rate limit.
	Address string
	// OldToken is the session token the browser already carries, if any;
	// it is revoked so that a session is never carried across a sign-in.
	OldToken string
	// KnownTeacherID is the teacher this browser signed in as before (from
	// its signed known-device cookie), 0 for none: that teacher's account
	// skips the doubling delay on this browser.
	KnownTeacherID int64
}

// SignedIn is a new session: the token for the cookie and the teacher.
type SignedIn struct {
	Token   string
	Teacher Teacher
	Expires time.Time
}

// SignIn checks a teacher's e-mail and password and opens a new session.
// The browser's previous session (OldToken) is revoked whatever the
// outcome.
//
// Errors: *Error of kind TooMany (with RetryAfter) past SignInsPerAddress
// tries a minute from one address, past SignInsPerAccount for one e-mail
// from one address, or while the account waits after failures in a row
// (SignInDelay; not on a browser the teacher signed in on before); of kind
// Denied, with one message for either mistake, for a wrong e-mail or
// password.
func (s *Service) SignIn(ctx context.Context, req SignInRequest) (SignedIn, error) {
	if req.OldToken != "" {
		if err := s.classes.DeleteSession(ctx, HashToken(req.OldToken)); err != nil {
			return SignedIn{}, err
		}
	}
	now := s.now()
	email := NormalizeEmail(req.Email)
	wait, err := s.takeTries(ctx, now, RateCheck{s.rules.signInAddr, addressKey(req.Address)},
		RateCheck{s.rules.signInAccount, email + "\x00" + addressKey(req.Address)})
	if err != nil {
		return SignedIn{}, err
	}
	if wait > 0 {
		return SignedIn{}, tooMany(wait, fmt.Sprintf("Too many sign-in attempts from your network. Try again in %s.", delayText(wait)))
	}
	t, err := s.classes.FindTeacherByEmail(ctx, email)
	hash := t.PasswordHash
	if err != nil {
		if !errors.Is(err, ErrNotFound) {
			return SignedIn{}, err
		}
		hash = s.dummyHash()
	}
	key := failureKey("teacher", email)
	known := err == nil && req.KnownTeacherID != 0 && req.KnownTeacherID == t.ID
	if !known {
		wait, werr := s.accountWait(ctx, key, now)
		if werr != nil {
			return SignedIn{}, werr
		}
		if wait > 0 {
			return SignedIn{}, tooMany(wait, fmt.Sprintf("This account had several wrong passwords in a row, so it waits before the next try: try again in %s. A browser that signed in to it before need not wait.", delayText(wait)))
		}
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(req.Password)) != nil || err != nil {
		if err := s.countFailure(ctx, key, now); err != nil {
			return SignedIn{}, err
		}
		return SignedIn{}, &Error{Kind: Denied, Message: signInFailed}
	}
	if err := s.classes.ClearSignInFailures(ctx, key); err != nil {
		return SignedIn{}, err
	}
	return s.openSession(ctx, t, now)
}

// openSession makes a random token and stores its hash.
func (s *Service) openSession(ctx context.Context, t Teacher, now time.Time) (SignedIn, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return SignedIn{}, fmt.Errorf("progress: session token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	sess := Session{TokenHash: HashToken(token), TeacherID: t.ID, CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := s.classes.CreateSession(ctx, sess); err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Token: token, Teacher: t, Expires: sess.ExpiresAt}, nil
}

// HashToken is how a session token is stored: SHA-256 as hex. A token is
// 256 random bits, so a fast hash suffices; a stolen database gives no
// usable cookie.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Authenticate returns a with the teacher of the session token filled in
// (Role, TeacherID, TeacherName, Session). ok is false, and a unchanged,
// for a missing, unknown or expired token.
func (s *Service) Authenticate(ctx context.Context, a Actor, token string) (Actor, bool, error) {
	if token == "" || len(token) > 100 {
		return a, false, nil
	}
	h := HashToken(token)
	_, t, err := s.classes.FindSession(ctx, h, s.now())
	if errors.Is(err, ErrNotFound) {
		return a, false, nil
	}
	if err != nil {
		return a, false, err
	}
	a.Role, a.TeacherID, a.TeacherName, a.Session = RoleTeacher, t.ID, t.Name, h
	if t.Admin {
		a.Role = RoleAdmin
	}
	return a, true, nil
}

// SignOut revokes a's session. A learner has none; nothing happens.
func (s *Service) SignOut(ctx context.Context, a Actor) error {
	if a.Session == "" {
		return nil
	}
	return s.classes.DeleteSession(ctx, a.Session)
}

// ChangePassword checks the teacher's current password, stores the new
// one, revokes every session of the teacher (this one included) and opens
// a fresh session for this browser.
//
// Errors: *Error of kind NotFound for someone not signed in as a teacher;
// Denied for a wrong current password; Invalid for a new password that
// breaks the length rules; TooMany past SignInsPerAccount tries a minute,
// or while the account waits after wrong current passwords in a row
// (SignInDelay, as for signing in, so a stolen session cannot guess the
// password to lock its owner out of the account's other sessions).
func (s *Service) ChangePassword(ctx context.Context, a Actor, current, next, address string) (SignedIn, error) {
	if !a.IsTeacher() {
		return SignedIn{}, notFound("Sign in as a teacher to change your password.")
	}
	now := s.now()
	wait, err := s.takeTries(ctx, now, RateCheck{s.rules.signInAccount, fmt.Sprint("teacher:", a.TeacherID)})
	if err != nil {
		return SignedIn{}, err
	}
	if wait > 0 {
		return SignedIn{}, tooMany(wait, fmt.Sprintf("Too many tries. Try again in %s.", delayText(wait)))
	}
	failures := failureKey("password", fmt.Sprint(a.TeacherID))
	if wait, err := s.accountWait(ctx, failures, now); err != nil {
		return SignedIn{}, err
	} else if wait > 0 {
		return SignedIn{}, tooMany(wait, fmt.Sprintf("The current password was wrong several times in a row, so the next try waits: try again in %s. Nothing was changed.", delayText(wait)))
	}
	t, err := s.classes.FindTeacher(ctx, a.TeacherID)
	if err != nil {
		return SignedIn{}, err
	}
	if bcrypt.CompareHashAndPassword([]byte(t.PasswordHash), []byte(current)) != nil {
		if err := s.countFailure(ctx, failures, now); err != nil {
			return SignedIn{}, err
		}
		return SignedIn{}, &Error{Kind: Denied, Message: "Your current password is not right; nothing was changed."}
	}
	if err := s.classes.ClearSignInFailures(ctx, failures); err != nil {
		return SignedIn{}, err
	}
	hash, err := hashPassword(next)
	if err != nil {
		return SignedIn{}, err
	}
	if err := s.classes.SetTeacherPassword(ctx, t.ID, hash); err != nil {
		return SignedIn{}, err
	}
	return s.openSession(ctx, t, now)
}

// Teachers returns every teacher, for an admin.
//
// Errors: *Error of kind NotFound for anyone but an admin.
func (s *Service) Teachers(ctx context.Context, a Actor) ([]Teacher, error) {
	if !a.IsTeacher() || a.Role != RoleAdmin {
		return nil, notFound("There is no page at this address.")
	}
	return s.classes.ListTeachers(ctx)
}
