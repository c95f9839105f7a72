package lti

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// DefaultKeySetTimeout bounds fetching a platform's key set: a launch
// waits for it, so a platform that does not answer must not hold a
// learner for long.
const DefaultKeySetTimeout = 5 * time.Second

// MaxKeySetBytes caps a fetched key set: real ones hold a few keys in a
// few kilobytes.
const MaxKeySetBytes = 256 << 10

// errUnknownKID is returned (wrapped) by KeySets.Key when the set holds no
// RSA key of the id even after fetching it again.
var errUnknownKID = errors.New("lti: no key of this id in the platform's key set")

// DefaultMinRefetch is how soon after a fetch an unknown key id may make
// KeySets fetch a platform's set again: a platform rotates its key rarely,
// and a stream of tokens with made-up key ids must not turn learn into a
// stream of requests to the platform.
const DefaultMinRefetch = 10 * time.Second

// KeySets fetches and caches platforms' public key sets by address. It is
// safe for concurrent use.
type KeySets struct {
	client     *http.Client
	minRefetch time.Duration
	mu         sync.Mutex
	sets       map[string]*jose.JSONWebKeySet
	fetched    map[string]time.Time
}

// NewKeySets returns an empty cache that fetches with client (nil: a
// client whose timeout is DefaultKeySetTimeout) and fetches a cached set
// again for an unknown key id at most once per minRefetch (0: every
// time; a negative value: DefaultMinRefetch).
func NewKeySets(client *http.Client, minRefetch time.Duration) *KeySets {
	if client == nil {
		client = &http.Client{Timeout: DefaultKeySetTimeout}
	}
	if minRefetch < 0 {
		minRefetch = DefaultMinRefetch
	}
	return &KeySets{client: client, minRefetch: minRefetch, sets: map[string]*jose.JSONWebKeySet{}, fetched: map[string]time.Time{}}
}

// Key returns the RSA public key kid of the set at url: from the cache, or
// fetched when the cache lacks the set, or the key (once per call, and not
// sooner than minRefetch after the last fetch), so that a platform's
// rotated key is found at its first use.
func (k *KeySets) Key(ctx context.Context, url, kid string) (*rsa.PublicKey, error) {
	k.mu.Lock()
	set, last := k.sets[url], k.fetched[url]
	k.mu.Unlock()
	if set != nil {
		if pub := rsaKey(set, kid); pub != nil {
			return pub, nil
		}
		if time.Since(last) < k.minRefetch {
			return nil, fmt.Errorf("lti: key %q at %s (fetched %s ago): %w", kid, url, time.Since(last).Round(time.Second), errUnknownKID)
		}
	}
	set, err := k.fetch(ctx, url)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.sets[url], k.fetched[url] = set, time.Now()
	k.mu.Unlock()
	if pub := rsaKey(set, kid); pub != nil {
		return pub, nil
	}
	return nil, fmt.Errorf("lti: key %q at %s: %w", kid, url, errUnknownKID)
}

// rsaKey finds the RSA public key kid in set; a token without a kid may
// use a set's only key.
func rsaKey(set *jose.JSONWebKeySet, kid string) *rsa.PublicKey {
	keys := set.Key(kid)
	if kid == "" && len(set.Keys) == 1 {
		keys = set.Keys
	}
	for _, jwk := range keys {
		if jwk.Use != "" && jwk.Use != "sig" {
			continue
		}
		if pub, ok := jwk.Key.(*rsa.PublicKey); ok {
			return pub
		}
	}
	return nil
}

func (k *KeySets) fetch(ctx context.Context, url string) (*jose.JSONWebKeySet, error) {
	ctx, cancel := context.WithTimeout(ctx, DefaultKeySetTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("lti: fetch key set %s: %w", url, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("lti: fetch key set %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("lti: fetch key set %s: the platform answered %s", url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxKeySetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("lti: fetch key set %s: %w", url, err)
	}
	if len(body) > MaxKeySetBytes {
		return nil, fmt.Errorf("lti: fetch key set %s: larger than %d bytes", url, MaxKeySetBytes)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("lti: fetch key set %s: %w", url, err)
	}
	return &set, nil
}
