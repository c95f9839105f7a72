package lti

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned (wrapped) by a Store for a row that does not
// exist: an unknown platform, or a launch state already used or never
// made.
var ErrNotFound = errors.New("lti: not found")

// ErrReplayed is returned (wrapped) by Store.UseNonce for a nonce already
// used.
var ErrReplayed = errors.New("lti: nonce already used")

// Platform is a registered LMS: the issuer and the client id it gave learn,
// its endpoints, and the deployments it may launch from.
type Platform struct {
	ID       int64
	Issuer   string
	ClientID string
	// AuthURL is the platform's OIDC authorisation endpoint, where the
	// login initiation redirects.
	AuthURL string
	// TokenURL is its OAuth 2 token endpoint (for the services to come).
	TokenURL string
	// JWKSURL is the address of its public key set.
	JWKSURL       string
	DeploymentIDs []string
	CreatedAt     time.Time
}

// HasDeployment reports whether id is one of p's deployments.
func (p Platform) HasDeployment(id string) bool {
	for _, d := range p.DeploymentIDs {
		if d == id {
			return true
		}
	}
	return false
}

// State is a launch begun by a login initiation, kept until the platform
// posts the id_token back.
type State struct {
	// StateHash and BrowserHash are the SHA-256 (hex) of the state sent to
	// the platform and of the browser's launch cookie.
	StateHash, BrowserHash string
	Nonce                  string
	PlatformID             int64
	// Target is the target_link_uri of the login initiation.
	Target    string
	ExpiresAt time.Time
}

// Key is one of learn's RSA signing keys, as PKCS #8 DER.
type Key struct {
	KID        string
	PrivateKey []byte
	CreatedAt  time.Time
	// RetiredAt is zero for the key that signs.
	RetiredAt time.Time
}

// Invite is a one-time registration address made by a learn
// administrator for LTI Dynamic Registration: only the SHA-256 (hex) of
// its token is kept.
type Invite struct {
	ID        int64
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
	// UsedAt is zero until a registration spends the invite.
	UsedAt time.Time
}

// Store keeps what LTI launches need in the database, so that every server
// sharing it sees the same platforms, keys, states and nonces. Methods are
// safe for concurrent use; errors are wrapped with the backend's context.
type Store interface {
	// AddPlatform registers p (ID and CreatedAt are set by the store) and
	// returns it; an issuer and client id already registered is an error
	// wrapping progress.ErrConflict.
	AddPlatform(ctx context.Context, p Platform) (Platform, error)
	// Platforms returns every registered platform, by issuer and client
	// id.
	Platforms(ctx context.Context) ([]Platform, error)
	// FindPlatform returns the platform of issuer and client id; clientID
	// "" matches the issuer's only registration. Errors wrap ErrNotFound.
	FindPlatform(ctx context.Context, issuer, clientID string) (Platform, error)
	// FindPlatformByID returns the platform; errors wrap ErrNotFound.
	FindPlatformByID(ctx context.Context, id int64) (Platform, error)
	// AddDeployments adds deployment ids to the registration of issuer
	// and client id (those it has already are kept once) and returns it;
	// errors wrap ErrNotFound.
	AddDeployments(ctx context.Context, issuer, clientID string, ids []string) (Platform, error)
	// RemovePlatform deletes the registration of issuer and client id with
	// its deployments and pending states; errors wrap ErrNotFound.
	RemovePlatform(ctx context.Context, issuer, clientID string) error

	// SaveState keeps a launch state until it expires, and deletes
	// the ones expired at now.
	SaveState(ctx context.Context, s State, now time.Time) error
	// TakeState deletes the state whose hash is stateHash and returns it,
	// in one statement, so that it serves exactly once on any server;
	// an unknown, used or expired (at now) state wraps ErrNotFound.
	TakeState(ctx context.Context, stateHash string, now time.Time) (State, error)
	// UseNonce records a nonce of issuer until expires; a nonce already
	// recorded and not expired wraps ErrReplayed.
	UseNonce(ctx context.Context, issuer, nonce string, expires, now time.Time) error

	// SigningKeys returns learn's keys, newest first; none is not an
	// error.
	SigningKeys(ctx context.Context) ([]Key, error)
	// AddSigningKey stores k as the key that signs and retires the one
	// that signed before (at k.CreatedAt), in one transaction; keys
	// retired before forgetBefore are deleted.
	AddSigningKey(ctx context.Context, k Key, forgetBefore time.Time) error

	// AddInvite stores a registration invite (ID is set by the store) and
	// deletes the invites that expired before forgetBefore.
	AddInvite(ctx context.Context, inv Invite, forgetBefore time.Time) (Invite, error)
	// Invites returns every invite kept, newest first.
	Invites(ctx context.Context) ([]Invite, error)
	// FindInvite returns the invite whose token hash is tokenHash, used
	// or not; errors wrap ErrNotFound.
	FindInvite(ctx context.Context, tokenHash string) (Invite, error)
	// SpendInvite marks the invite used at now in one statement, so that
	// it serves once on every server, and returns it; an unknown, used or
	// expired (at now) invite wraps ErrNotFound.
	SpendInvite(ctx context.Context, tokenHash string, now time.Time) (Invite, error)
	// RestoreInvite makes a spent invite unused again (its registration
	// failed); errors wrap ErrNotFound.
	RestoreInvite(ctx context.Context, id int64) error
	// RevokeInvite deletes an invite; errors wrap ErrNotFound.
	RevokeInvite(ctx context.Context, id int64) error
}
