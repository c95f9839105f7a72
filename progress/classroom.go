package progress

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"learn/quiz"
)

// Join codes: six characters from an alphabet without look-alikes (no 0
// and O, no 1, I and L), compared in upper case. 31^6 is about 887
// million codes, so a new one is almost never taken already.
const (
	joinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	JoinCodeLen      = 6
)

// SecretWordCount is how many words a learner's secret has.
const SecretWordCount = 3

// MaxNameLen bounds class names and learners' display names (characters).
const MaxNameLen = 40

//go:embed words.txt
var wordFile string

// secretWords is the embedded list, parsed on use (it is small).
func secretWords() []string {
	var out []string
	for _, line := range strings.Split(wordFile, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// randomIndex returns a uniform random number in [0, n).
func randomIndex(n int) (int, error) {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0, fmt.Errorf("progress: random: %w", err)
	}
	return int(v.Int64()), nil
}

// newJoinCode returns a fresh random join code.
func newJoinCode() (string, error) {
	b := make([]byte, JoinCodeLen)
	for i := range b {
		k, err := randomIndex(len(joinCodeAlphabet))
		if err != nil {
			return "", err
		}
		b[i] = joinCodeAlphabet[k]
	}
	return string(b), nil
}

// NormalizeJoinCode returns a typed code as stored: upper case, with the
// spaces and hyphens people add dropped.
func NormalizeJoinCode(code string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(code) {
		if r == ' ' || r == '-' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newSecret returns SecretWordCount distinct random words.
func newSecret() (string, error) {
	words := secretWords()
	var picked []string
	for len(picked) < SecretWordCount {
		k, err := randomIndex(len(words))
		if err != nil {
			return "", err
		}
		if !contains(picked, words[k]) {
			picked = append(picked, words[k])
		}
	}
	return strings.Join(picked, " "), nil
}

// normalizeSecret folds typed words: lower case, single spaces, anything
// but letters as a space.
func normalizeSecret(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }), " ")
}

// hashSecret hashes secret words for the sign-in comparison. The words
// come from a short list, so the hash is no defence against someone who
// holds the database; it keeps the sign-in path from reading the copy the
// teacher's page shows, and the per-name rate limit stops guessing.
func hashSecret(classID int64, secret string) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("learn secret words\x00%d\x00%s", classID, normalizeSecret(secret))))
	return hex.EncodeToString(sum[:])
}

// cleanName trims a display or class name and folds runs of spaces.
// It returns the name, its key (for uniqueness) and a message when the
// name cannot be used.
func cleanName(name, what string) (clean, key, problem string) {
	clean = strings.Join(strings.Fields(name), " ")
	switch {
	case clean == "":
		return "", "", fmt.Sprintf("Give a %s.", what)
	case utf8.RuneCountInString(clean) > MaxNameLen:
		return "", "", fmt.Sprintf("The %s is longer than %d characters; give a shorter one.", what, MaxNameLen)
	}
	for _, r := range clean {
		if !unicode.IsPrint(r) {
			return "", "", fmt.Sprintf("The %s has a character that cannot be shown; use letters, digits and spaces.", what)
		}
	}
	return clean, strings.ToLower(clean), ""
}

func invalid(msg string) *Error { return &Error{Kind: Invalid, Message: msg} }

// noClass is the one answer for a class the actor may not see, whether or
// not it exists.
func noClass() *Error {
	return notFound("There is no class at this address that you can see. Teachers: sign in to see your classes.")
}

// teachClass returns the class if a owns it or co-teaches it; anyone else
// gets the same NotFound as for a class that does not exist.
func (s *Service) teachClass(ctx context.Context, a Actor, classID int64) (Class, error) {
	if !a.IsTeacher() {
		return Class{}, noClass()
	}
	c, err := s.classes.FindClass(ctx, classID)
	if errors.Is(err, ErrNotFound) {
		return Class{}, noClass()
	}
	if err != nil || c.TeacherID == a.TeacherID {
		return c, err
	}
	co, err := s.classes.IsCoTeacher(ctx, c.ID, a.TeacherID)
	if err != nil {
		return Class{}, err
	}
	if !co {
		return Class{}, noClass()
	}
	return c, nil
}

// ownerClass returns the class if a owns it. A co-teacher gets Forbidden
// with onlyOwner's words; anyone else the NotFound of teachClass.
func (s *Service) ownerClass(ctx context.Context, a Actor, classID int64, onlyOwner string) (Class, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Class{}, err
	}
	if c.TeacherID != a.TeacherID {
		return Class{}, &Error{Kind: Forbidden, Message: onlyOwner}
	}
	return c, nil
}

// zoneOr returns zone when it is a known IANA name, else "UTC".
func zoneOr(zone string) string {
	if _, ok := quiz.Zone(zone); ok && zone != "" && len(zone) <= 64 {
		return zone
	}
	return "UTC"
}

// Classes returns the teacher's classes. Errors: NotFound for anyone but
// a signed-in teacher.
func (s *Service) Classes(ctx context.Context, a Actor) ([]Class, error) {
	if !a.IsTeacher() {
		return nil, notFound("Sign in as a teacher to see your classes.")
	}
	return s.classes.TeacherClasses(ctx, a.TeacherID)
}

// CreateClass makes a class for the teacher a, with a fresh join code,
// counting days in zone (a browser's IANA zone; "UTC" when unknown).
//
// Errors: NotFound for anyone but a signed-in teacher; Invalid for an
// empty or over-long name.
func (s *Service) CreateClass(ctx context.Context, a Actor, name, zone string) (Class, error) {
	if !a.IsTeacher() {
		return Class{}, notFound("Sign in as a teacher to create a class.")
	}
	clean, _, problem := cleanName(name, "class name")
	if problem != "" {
		return Class{}, invalid(problem)
	}
	c := Class{TeacherID: a.TeacherID, Name: clean, TimeZone: zoneOr(zone), CreatedAt: s.now()}
	for range 5 {
		code, err := newJoinCode()
		if err != nil {
			return Class{}, err
		}
		c.JoinCode = code
		created, err := s.classes.CreateClass(ctx, c)
		if !errors.Is(err, ErrConflict) {
			return created, err
		}
	}
	return Class{}, fmt.Errorf("progress: create class: no free join code after 5 tries")
}

// Class returns one of a's classes. Errors: NotFound for a class that is
// not a's (or does not exist).
func (s *Service) Class(ctx context.Context, a Actor, classID int64) (Class, error) {
	return s.teachClass(ctx, a, classID)
}

// ClassChange is one change a teacher makes to a class's settings; only
// the set fields change.
type ClassChange struct {
	Name *string
	// Zone is an IANA time-zone name.
	Zone *string
	// JoinCode is "off" to stop joining, "new" for a fresh code.
	JoinCode    string
	Leaderboard *bool
	// Archive archives (true) or restores (false) the class.
	Archive *bool
}

// ChangeClass applies ch to one of a's classes and returns the class
// after it.
//
// Errors: NotFound for a class not a's; Invalid for a bad name, an unknown
// time zone, a JoinCode other than "off", "new" or "", or a new code for an
// archived class.
func (s *Service) ChangeClass(ctx context.Context, a Actor, classID int64, ch ClassChange) (Class, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return c, err
	}
	if ch.Name != nil {
		clean, _, problem := cleanName(*ch.Name, "class name")
		if problem != "" {
			return c, invalid(problem)
		}
		c.Name = clean
	}
	if ch.Zone != nil {
		if _, ok := quiz.Zone(*ch.Zone); !ok || *ch.Zone == "" {
			return c, invalid(fmt.Sprintf("%q is not a time zone this server knows; give an IANA name such as Europe/Paris.", *ch.Zone))
		}
		c.TimeZone = *ch.Zone
	}
	if ch.Leaderboard != nil {
		c.Leaderboard = *ch.Leaderboard
	}
	if ch.Archive != nil {
		switch {
		case *ch.Archive && !c.Archived():
			c.ArchivedAt = s.now()
			// An archived class takes no one new, and its code is free.
			c.JoinCode = ""
		case !*ch.Archive:
			c.ArchivedAt = time.Time{}
		}
	}
	switch ch.JoinCode {
	case "":
	case "off":
		c.JoinCode = ""
	case "new":
		if c.Archived() {
			return c, invalid("An archived class takes no one new: restore it first to make a join code.")
		}
	default:
		return c, invalid("The join code can be turned off or made new.")
	}
	for try := 0; ; try++ {
		if ch.JoinCode == "new" {
			if c.JoinCode, err = newJoinCode(); err != nil {
				return c, err
			}
		}
		err = s.classes.UpdateClass(ctx, c)
		if !errors.Is(err, ErrConflict) || ch.JoinCode != "new" || try == 5 {
			break
		}
	}
	if errors.Is(err, ErrConflict) {
		return c, invalid("Another class uses this join code now. Make a new code.")
	}
	return c, err
}

// DeleteClass deletes an archived class of a's with its memberships and
// assignments. Learners keep their own progress.
//
// Errors: NotFound for a class a neither owns nor co-teaches; Forbidden
// for a co-teacher (only the owner deletes a class); Invalid while it is
// not archived.
func (s *Service) DeleteClass(ctx context.Context, a Actor, classID int64) error {
	c, err := s.ownerClass(ctx, a, classID, "Only the class's owner can delete its data; ask them, or archive the class.")
	if err != nil {
		return err
	}
	if !c.Archived() {
		return invalid("Archive the class first; only an archived class's data can be deleted.")
	}
	return s.classes.DeleteClass(ctx, c.ID)
}

// Joined is a learner's membership of a class with their secret words.
type Joined struct {
	Class   Class
	Member  Member
	Teacher string
	// Secret is the words to sign in with on another device.
	Secret string
}

// Join adds a to the class whose join code is code, under the display
// name given. Everything a did before stays theirs: the learner id is the
// same. Joining a class again returns the membership already made.
//
// Errors: Invalid for a code that opens no class (wrong, turned off, or
// archived), a bad name, or one already used in the class.
func (s *Service) Join(ctx context.Context, a Actor, code, name string) (Joined, error) {
	c, err := s.classes.FindClassByCode(ctx, NormalizeJoinCode(code))
	if errors.Is(err, ErrNotFound) || NormalizeJoinCode(code) == "" {
		return Joined{}, &Error{Kind: Invalid, Message: "No class takes this code. Check it with your teacher: it has six letters and digits."}
	}
	if err != nil {
		return Joined{}, err
	}
	teacher, err := s.classes.FindTeacher(ctx, c.TeacherID)
	if err != nil {
		return Joined{}, err
	}
	if m, err := s.classes.FindMember(ctx, c.ID, a.ID); err == nil {
		return Joined{Class: c, Member: m, Teacher: teacher.Name, Secret: m.Secret}, nil
	} else if !errors.Is(err, ErrNotFound) {
		return Joined{}, err
	}
	clean, key, problem := cleanName(name, "name")
	if problem != "" {
		return Joined{}, invalid(problem)
	}
	secret, err := newSecret()
	if err != nil {
		return Joined{}, err
	}
	m := Member{ClassID: c.ID, LearnerID: a.ID, Name: clean, NameKey: key, Secret: secret,
		SecretHash: hashSecret(c.ID, secret), JoinedAt: s.now()}
	if err := s.classes.AddMember(ctx, m); errors.Is(err, ErrConflict) {
		return Joined{}, invalid(fmt.Sprintf("Someone in this class already uses the name %q. Add your last initial or pick another.", clean))
	} else if err != nil {
		return Joined{}, err
	}
	s.summaries.forget(a.ID)
	return Joined{Class: c, Member: m, Teacher: teacher.Name, Secret: secret}, nil
}

// LearnerSignIn is the form a learner fills on another device.
type LearnerSignIn struct {
	Code, Name, Secret string
	// Address is the client's network address, for the rate limit.
	Address string
	// UserAgent is the browser's User-Agent header, to tell the learner's
	// devices apart on their page.
	UserAgent string
}

// MaxUserAgentLen bounds the User-Agent kept for a device (bytes).
const MaxUserAgentLen = 200

// SignInLearner finds the learner of a class (named by its class code, or
// by its join code while that admits members) by name and secret words and
// records this browser as one of their devices, so that the web layer can
// make it that learner; the device stays signed in until the teacher makes
// new words, the learner leaves the class or deletes their data, or signs
// out their other devices.
//
// Errors: TooMany past SecretTriesPerName tries in ten minutes for one name
// from one address, SecretTriesPerAddress a minute from one address, or
// while the name waits after failures in a row (SignInDelay); Denied, with
// one message, for a wrong code, name or words.
func (s *Service) SignInLearner(ctx context.Context, in LearnerSignIn) (Device, error) {
	c, m, err := s.wordsMember(ctx, in)
	if err != nil {
		return Device{}, err
	}
	now := s.now()
	id, err := newDeviceID()
	if err != nil {
		return Device{}, err
	}
	d := Device{ID: id, LearnerID: m.LearnerID, ClassID: c.ID, UserAgent: cutUserAgent(in.UserAgent), CreatedAt: now, LastSeen: now}
	if err := s.classes.AddDevice(ctx, d); err != nil {
		return Device{}, err
	}
	// Devices of this learner left idle past DeviceIdleLimit are signed
	// out already (see DeviceSignedIn); their rows go now.
	if _, err := s.classes.DeleteIdleDevices(ctx, m.LearnerID, now.Add(-DeviceIdleLimit)); err != nil {
		return Device{}, err
	}
	return d, nil
}

// wordsMember checks a learner's class code, name and secret words, under
// the rate limits and the delay after failures of SignInLearner (whose
// errors it returns), and returns the class and the member they name.
func (s *Service) wordsMember(ctx context.Context, in LearnerSignIn) (Class, Member, error) {
	now := s.now()
	code := NormalizeJoinCode(in.Code)
	_, key, _ := cleanName(in.Name, "name")
	wait, err := s.takeTries(ctx, now, RateCheck{s.rules.secretAddr, addressKey(in.Address)})
	if err != nil {
		return Class{}, Member{}, err
	}
	if wait > 0 {
		return Class{}, Member{}, tooMany(wait, fmt.Sprintf("Too many tries from your network. Try again in %s, or ask your teacher for your words.", delayText(wait)))
	}
	c, found, err := s.signInClass(ctx, code)
	if err != nil {
		return Class{}, Member{}, err
	}
	// A class's tries and failures count under its class code, whichever
	// of its codes was typed, so two codes give a guesser no more tries.
	account := code
	if found {
		account = NormalizeJoinCode(ClassCode(c.ID))
	}
	wait, err = s.takeTries(ctx, now, RateCheck{s.rules.secretName, account + "\x00" + key + "\x00" + addressKey(in.Address)})
	if err != nil {
		return Class{}, Member{}, err
	}
	if wait > 0 {
		return Class{}, Member{}, tooMany(wait, fmt.Sprintf("Too many tries with this name. Try again in %s, or ask your teacher for your words.", delayText(wait)))
	}
	failures := failureKey("words", account+"\x00"+key)
	if wait, err := s.accountWait(ctx, failures, now); err != nil {
		return Class{}, Member{}, err
	} else if wait > 0 {
		return Class{}, Member{}, tooMany(wait, fmt.Sprintf("Wrong words were tried for this name several times in a row. Try again in %s, or ask your teacher for your words.", delayText(wait)))
	}
	denied := func() (Class, Member, error) {
		if err := s.countFailure(ctx, failures, now); err != nil {
			return Class{}, Member{}, err
		}
		return Class{}, Member{}, &Error{Kind: Denied, Message: "The class code, name and secret words do not match. Check them with your teacher."}
	}
	if !found || key == "" {
		return denied()
	}
	m, err := s.classes.FindMemberByName(ctx, c.ID, key)
	if errors.Is(err, ErrNotFound) {
		return denied()
	}
	if err != nil {
		return Class{}, Member{}, err
	}
	if subtle.ConstantTimeCompare([]byte(hashSecret(c.ID, in.Secret)), []byte(m.SecretHash)) != 1 {
		return denied()
	}
	if err := s.classes.ClearSignInFailures(ctx, failures); err != nil {
		return Class{}, Member{}, err
	}
	return c, m, nil
}

// signInClass returns the class a learner signing in names by code: its
// class code, in any state (archived too: the learner's progress is
// theirs), or the join code of an active class that admits members now.
func (s *Service) signInClass(ctx context.Context, code string) (Class, bool, error) {
	if id, ok := ClassIDFromCode(code); ok {
		c, err := s.classes.FindClass(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return Class{}, false, nil
		}
		return c, err == nil, err
	}
	if code == "" {
		return Class{}, false, nil
	}
	c, err := s.classes.FindClassByCode(ctx, code)
	if errors.Is(err, ErrNotFound) {
		return Class{}, false, nil
	}
	return c, err == nil, err
}

// newDeviceID returns 128 random bits as hex.
func newDeviceID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("progress: new device id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// cutUserAgent keeps at most MaxUserAgentLen bytes of valid, printable
// UTF-8 of a User-Agent header.
func cutUserAgent(ua string) string {
	ua = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(ua, ""))
	for len(ua) > MaxUserAgentLen {
		_, size := utf8.DecodeLastRuneInString(ua)
		ua = ua[:len(ua)-size]
	}
	return ua
}

// DeviceTouchEvery is how stale a device's last-seen time may get before a
// request writes it again, so that a page view rarely writes.
const DeviceTouchEvery = 5 * time.Minute

// DeviceIdleLimit is how long a device signed in with secret words may go
// unseen: past it the device is signed out at its next request (the
// learner signs in again with the class code, name and words) and its row
// is deleted. Half a year: a learner away for a summer signs in again, a
// lost or lent phone does not stay signed in for the cookie's 400 days.
const DeviceIdleLimit = 183 * 24 * time.Hour

// DeviceSignedIn reports whether the device a learner cookie names is
// still signed in as that learner, reading the database on every call, so
// a device signed out on one server is signed out on all at its next
// request. A device unseen for DeviceIdleLimit is signed out and its row
// deleted. It refreshes the device's last-seen time now and then.
func (s *Service) DeviceSignedIn(ctx context.Context, learnerID, deviceID string) (bool, error) {
	d, err := s.classes.FindDevice(ctx, learnerID, deviceID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	now := s.now()
	if now.Sub(d.LastSeen) > DeviceIdleLimit {
		if _, err := s.classes.DeleteIdleDevices(ctx, learnerID, now.Add(-DeviceIdleLimit)); err != nil {
			return false, err
		}
		return false, nil
	}
	if now.Sub(d.LastSeen) >= DeviceTouchEvery {
		if err := s.classes.TouchDevice(ctx, d.ID, now); err != nil {
			return false, err
		}
	}
	return true, nil
}

// Devices returns the devices a signed in on with secret words and still
// signed in (seen within DeviceIdleLimit), last seen first.
func (s *Service) Devices(ctx context.Context, a Actor) ([]Device, error) {
	ds, err := s.classes.LearnerDevices(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	cut := s.now().Add(-DeviceIdleLimit)
	return slices.DeleteFunc(ds, func(d Device) bool { return d.LastSeen.Before(cut) }), nil
}

// SignOutOtherDevices signs out every device a signed in on with secret
// words but keep (the device making the request; "" on the browser a
// started on, which has no device row and stays signed in). It returns
// how many it signed out.
func (s *Service) SignOutOtherDevices(ctx context.Context, a Actor, keep string) (int, error) {
	return s.classes.DeleteDevices(ctx, a.ID, keep)
}

// NewSecret gives a learner of a's class new secret words; the old ones
// stop working. Errors: NotFound for a class not a's or a learner not in
// it.
func (s *Service) NewSecret(ctx context.Context, a Actor, classID int64, learnerID string) (string, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return "", err
	}
	secret, err := newSecret()
	if err != nil {
		return "", err
	}
	if err := s.classes.SetMemberSecret(ctx, c.ID, learnerID, secret, hashSecret(c.ID, secret)); errors.Is(err, ErrNotFound) {
		return "", notFound("This learner is not in the class.")
	} else if err != nil {
		return "", err
	}
	return secret, nil
}

// Leave takes a out of one of their classes; their progress stays theirs.
// Errors: NotFound when a is not in the class.
func (s *Service) Leave(ctx context.Context, a Actor, classID int64) error {
	if err := s.classes.RemoveMember(ctx, classID, a.ID); errors.Is(err, ErrNotFound) {
		return notFound("You are not in this class.")
	} else if err != nil {
		return err
	}
	s.summaries.forget(a.ID)
	return nil
}

// Membership returns the class a is in and a's membership of it, for the
// question before leaving it. Errors: NotFound when a is not in it.
func (s *Service) Membership(ctx context.Context, a Actor, classID int64) (Class, Member, error) {
	m, err := s.classes.FindMember(ctx, classID, a.ID)
	if errors.Is(err, ErrNotFound) {
		return Class{}, Member{}, notFound("You are not in this class.")
	} else if err != nil {
		return Class{}, Member{}, err
	}
	c, err := s.classes.FindClass(ctx, classID)
	return c, m, err
}

// RemovalUndoFor is how long a teacher can undo removing a learner from a
// class (UndoRemoval).
const RemovalUndoFor = 7 * 24 * time.Hour

// RemoveLearner takes a learner out of a's class and returns the
// membership removed; the learner keeps their own progress, their devices
// signed in with the class's words are signed out, and the removal can be
// undone for RemovalUndoFor. Errors: NotFound for a class not a's or a
// learner not in it.
func (s *Service) RemoveLearner(ctx context.Context, a Actor, classID int64, learnerID string) (Member, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Member{}, err
	}
	m, err := s.classes.FindMember(ctx, c.ID, learnerID)
	if errors.Is(err, ErrNotFound) {
		return Member{}, notFound("This learner is not in the class.")
	} else if err != nil {
		return Member{}, err
	}
	now := s.now()
	if err := s.classes.RemoveMemberKeeping(ctx, c.ID, learnerID, now, now.Add(-RemovalUndoFor)); errors.Is(err, ErrNotFound) {
		return Member{}, notFound("This learner is not in the class.")
	} else if err != nil {
		return Member{}, err
	}
	s.summaries.forget(learnerID)
	return m, nil
}

// ClassMember returns a's class and one learner in it, for the questions
// and notes around a teacher's actions on that learner. Errors: NotFound
// for a class not a's or a learner not in it.
func (s *Service) ClassMember(ctx context.Context, a Actor, classID int64, learnerID string) (Class, Member, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Class{}, Member{}, err
	}
	m, err := s.classes.FindMember(ctx, c.ID, learnerID)
	if errors.Is(err, ErrNotFound) {
		return Class{}, Member{}, notFound("This learner is not in the class.")
	}
	return c, m, err
}

// ClassMembers returns a's class with its learners, names and secret
// words included, for the printable word sheet. Errors: NotFound for a
// class not a's.
func (s *Service) ClassMembers(ctx context.Context, a Actor, classID int64) (Class, []Member, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Class{}, nil, err
	}
	ms, err := s.classes.Members(ctx, c.ID)
	return c, ms, err
}

// RecentlyRemoved returns the learners removed from a's class whose
// removal can still be undone, latest first. Errors: NotFound for a class
// not a's.
func (s *Service) RecentlyRemoved(ctx context.Context, a Actor, classID int64) ([]RemovedMember, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return nil, err
	}
	return s.classes.RemovedMembers(ctx, c.ID, s.now().Add(-RemovalUndoFor))
}

// UndoRemoval puts a learner removed from a's class within RemovalUndoFor
// back, with the same name and words; their devices sign in again with
// them. Errors: NotFound for a class not a's or no removal to undo (never
// removed, or longer ago); Invalid when the learner is in the class again
// or another member took the name meanwhile.
func (s *Service) UndoRemoval(ctx context.Context, a Actor, classID int64, learnerID string) (Member, error) {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return Member{}, err
	}
	m, err := s.classes.RestoreMember(ctx, c.ID, learnerID, s.now().Add(-RemovalUndoFor))
	switch {
	case errors.Is(err, ErrNotFound):
		return Member{}, notFound(fmt.Sprintf("There is no removal to undo: a removal can be undone for %d days.", int(RemovalUndoFor/(24*time.Hour))))
	case errors.Is(err, ErrConflict):
		return Member{}, invalid("This learner cannot be put back: they joined the class again, or someone in it now uses their name.")
	case err != nil:
		return Member{}, err
	}
	s.summaries.forget(learnerID)
	return m, nil
}

// DeleteMyData deletes everything a has done: progress, attempts, XP,
// reviews, saved code and class memberships. It cannot be undone; the
// web layer asks first.
func (s *Service) DeleteMyData(ctx context.Context, a Actor) error {
	defer s.summaries.forget(a.ID)
	return s.classes.DeleteLearner(ctx, a.ID)
}

// Assign assigns a lesson of the course to a's class, due at the end of
// the day given ("2006-01-02" in the class's time zone; "" for no due
// date). Assigning again changes the due date.
//
// Errors: NotFound for a class not a's or a lesson not in the course;
// Invalid for a date that does not parse.
func (s *Service) Assign(ctx context.Context, a Actor, classID int64, slug, dueDate string) error {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return err
	}
	if _, ok := s.Course().Lesson(slug); !ok {
		return notFound("There is no such lesson in the course.")
	}
	as := Assignment{ClassID: c.ID, LessonSlug: slug, AssignedAt: s.now()}
	if dueDate = strings.TrimSpace(dueDate); dueDate != "" {
		due, err := parseDue(dueDate, c.TimeZone)
		if err != nil {
			return err
		}
		as.Due = due
		if !as.Due.After(s.now()) {
			return invalid(fmt.Sprintf("%s is already past in the class's time zone (%s), so every learner would be late at once: give a later day or time, or leave the date empty.", dueDate, c.TimeZone))
		}
	}
	return s.classes.SetAssignment(ctx, as)
}

// parseDue reads a due date in the class's zone: a day ("2026-12-05", due
// by the end of it) or a day and a time ("2026-12-05 14:00", or with a T).
func parseDue(text, zone string) (time.Time, error) {
	loc, _ := quiz.Zone(zone)
	text = strings.Replace(strings.TrimSpace(text), "T", " ", 1)
	if day, err := time.ParseInLocation("2006-01-02", text, loc); err == nil {
		return day.AddDate(0, 0, 1), nil
	}
	if t, err := time.ParseInLocation("2006-01-02 15:04", text, loc); err == nil {
		return t, nil
	}
	return time.Time{}, invalid(fmt.Sprintf("%q is not a date; give one like 2026-12-01, with a time like 14:00 if you want one, or leave it empty for no due date.", text))
}

// DueLabel writes a due time in the class's zone as the teacher set it:
// "2026-12-05" for the end of that day, "2026-12-05 14:00" otherwise; ""
// for none.
func DueLabel(due time.Time, zone string) string {
	if due.IsZero() {
		return ""
	}
	loc, _ := quiz.Zone(zone)
	t := due.In(loc)
	if t.Hour() == 0 && t.Minute() == 0 {
		return t.AddDate(0, 0, -1).Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04")
}

// ExtendAssignment gives one learner of a's class a later due time for an
// assigned lesson (due as Assign takes it), or changes it; "late" then
// counts from it for that learner everywhere. Errors: NotFound for a class
// not a's, a learner not in it or a lesson not assigned; Invalid for a
// malformed date, or one not later than the class's due time and now.
func (s *Service) ExtendAssignment(ctx context.Context, a Actor, classID int64, learnerID, slug, due string) error {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return err
	}
	if _, err := s.classes.FindMember(ctx, c.ID, learnerID); errors.Is(err, ErrNotFound) {
		return notFound("This learner is not in the class.")
	} else if err != nil {
		return err
	}
	var as *Assignment
	all, err := s.classes.Assignments(ctx, c.ID)
	if err != nil {
		return err
	}
	for i := range all {
		if all[i].LessonSlug == slug {
			as = &all[i]
		}
	}
	if as == nil {
		return notFound("This lesson is not assigned to the class.")
	}
	t, err := parseDue(due, c.TimeZone)
	if err != nil {
		return err
	}
	if !t.After(as.Due) || !t.After(s.now()) {
		return invalid(fmt.Sprintf("An extension must be later than the class's due time (%s) and than now.", DueLabel(as.Due, c.TimeZone)))
	}
	return s.classes.SetExtension(ctx, c.ID, slug, learnerID, t)
}

// TakeBackExtension ends one learner's extension: the class's due time
// holds for them again. Errors: NotFound for a class not a's.
func (s *Service) TakeBackExtension(ctx context.Context, a Actor, classID int64, learnerID, slug string) error {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return err
	}
	return s.classes.DeleteExtension(ctx, c.ID, slug, learnerID)
}

// Unassign takes a lesson off a's class. Errors: NotFound for a class not
// a's.
func (s *Service) Unassign(ctx context.Context, a Actor, classID int64, slug string) error {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return err
	}
	return s.classes.DeleteAssignment(ctx, c.ID, slug)
}

// DueDay returns the calendar day an assignment is due in the class's
// zone, for showing ("" when it has no due date).
func DueDay(as Assignment, zone string) string {
	return DueLabel(as.Due, zone)
}
