package web

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// sealer seals values the browser keeps for learn (a deep linking request
// while the instructor picks, a code that continues a framed launch in a
// new tab) and opens them: AES-256-GCM, with keys derived from the cookie
// keys for one purpose, and the purpose's name as additional data, so a
// value sealed for one purpose never opens for another. The first AEAD
// seals, every one opens (the others come from retired cookie keys).
type sealer struct {
	aeads []cipher.AEAD
	name  []byte
}

// newSealer derives one key for info from each cookie key; name is the
// additional data.
func newSealer(keys [][]byte, info, name string) (*sealer, error) {
	s := &sealer{name: []byte(name)}
	for _, k := range keys {
		key, err := hkdf.Key(sha256.New, k, nil, info, 32)
		if err != nil {
			return nil, fmt.Errorf("web: %s key: %w", name, err)
		}
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, fmt.Errorf("web: %s key: %w", name, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("web: %s key: %w", name, err)
		}
		s.aeads = append(s.aeads, aead)
	}
	return s, nil
}

// seal returns v as JSON, encrypted and authenticated, URL-safe.
func (s *sealer) seal(v any) (string, error) { return s.sealFor(v, "") }

// sealFor seals v bound to bound (such as the learner it is for): it opens
// only with the same bound, which is authenticated, not kept in the value.
func (s *sealer) sealFor(v any, bound string) (string, error) {
	// Without HTML escaping, a platform's data keeps its size.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("web: seal %s: %w", s.name, err)
	}
	plain := buf.Bytes()
	a := s.aeads[0]
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plain)+a.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("web: seal %s: %w", s.name, err)
	}
	return base64.RawURLEncoding.EncodeToString(a.Seal(nonce, nonce, plain, s.data(bound))), nil
}

// data is the additional data of a value sealed for bound.
func (s *sealer) data(bound string) []byte {
	if bound == "" {
		return s.name
	}
	return append(append(append([]byte{}, s.name...), 0), bound...)
}

// open decodes into v what value seals; false when no key opens it or it
// holds no JSON for v.
func (s *sealer) open(value string, v any) bool { return s.openFor(value, "", v) }

// openFor is open of a value sealed for bound (sealFor).
func (s *sealer) openFor(value, bound string, v any) bool {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return false
	}
	for _, a := range s.aeads {
		if len(raw) < a.NonceSize()+a.Overhead() {
			return false
		}
		plain, err := a.Open(nil, raw[:a.NonceSize()], raw[a.NonceSize():], s.data(bound))
		if err != nil {
			continue
		}
		return json.Unmarshal(plain, v) == nil
	}
	return false
}
