package lti

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha256" // the thumbprint's hash
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// keyBits is the size of learn's RSA keys: RS256 with 2048 bits is what
// the Security Framework asks platforms to accept.
const keyBits = 2048

// NewKey makes a fresh RSA signing key made at now; its key id is the
// RFC 7638 thumbprint of its public half, so it never collides.
func NewKey(now time.Time) (Key, error) {
	priv, err := rsa.GenerateKey(rand.Reader, keyBits)
	if err != nil {
		return Key{}, fmt.Errorf("lti: new key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return Key{}, fmt.Errorf("lti: new key: %w", err)
	}
	thumb, err := (&jose.JSONWebKey{Key: &priv.PublicKey}).Thumbprint(crypto.SHA256)
	if err != nil {
		return Key{}, fmt.Errorf("lti: new key: %w", err)
	}
	return Key{KID: base64.RawURLEncoding.EncodeToString(thumb), PrivateKey: der, CreatedAt: now}, nil
}

// rsaKey parses k's private key.
func (k Key) rsaKey() (*rsa.PrivateKey, error) {
	parsed, err := x509.ParsePKCS8PrivateKey(k.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("lti: key %s: %w", k.KID, err)
	}
	priv, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("lti: key %s is not an RSA key", k.KID)
	}
	return priv, nil
}

// PublicKeySet is the key set learn publishes: the public half of every
// key that signs or was retired less than grace before now, so that a
// platform holding a message signed just before a rotation still verifies
// it.
func PublicKeySet(keys []Key, grace time.Duration, now time.Time) (jose.JSONWebKeySet, error) {
	var set jose.JSONWebKeySet
	for _, k := range keys {
		if !k.RetiredAt.IsZero() && now.Sub(k.RetiredAt) >= grace {
			continue
		}
		priv, err := k.rsaKey()
		if err != nil {
			return jose.JSONWebKeySet{}, err
		}
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &priv.PublicKey, KeyID: k.KID, Algorithm: string(jose.RS256), Use: "sig"})
	}
	return set, nil
}

// ErrNoKey is returned (wrapped) by SigningKey when no key signs yet.
var ErrNoKey = errors.New("lti: no signing key; start the server once or run \"learn rotate-keys\"")

// SigningKey returns the key that signs learn's messages (deep-linking
// responses and service assertions): the newest that is not retired.
func SigningKey(keys []Key) (jose.SigningKey, error) {
	for _, k := range keys {
		if k.RetiredAt.IsZero() {
			priv, err := k.rsaKey()
			if err != nil {
				return jose.SigningKey{}, err
			}
			return jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: priv, KeyID: k.KID}}, nil
		}
	}
	return jose.SigningKey{}, ErrNoKey
}

// Signer returns a signer of JWTs with the key SigningKey picks from keys:
// RS256, with the key's id in the kid header, as platforms look learn's
// key up in its published set.
func Signer(keys []Key) (jose.Signer, error) {
	key, err := SigningKey(keys)
	if err != nil {
		return nil, err
	}
	kid := key.Key.(jose.JSONWebKey).KeyID
	return jose.NewSigner(key, (&jose.SignerOptions{}).WithType("JWT").WithHeader(jose.HeaderKey("kid"), kid))
}
