package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzExerciseRequest feeds the exercise API's body decoder arbitrary
// bodies and content types: it may not panic, refuses with 400, 413 or 415
// and a message, and accepts only one JSON object of known fields.
func FuzzExerciseRequest(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"code": "print(42)"}`, "application/json"},
		{`{"code": "print(1)"} {"code": "x"}`, "application/json; charset=utf-8"},
		{`{"code": 1}`, "application/json"},
		{`{"source": "x"}`, "application/json"},
		{`["code"]`, "application/json"},
		{`code=print(1)`, "application/x-www-form-urlencoded"},
		{`{"code": "\ud800"}`, "Application/JSON"},
		{"", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, body, contentType string) {
		req := httptest.NewRequest(http.MethodPost, "/api/exercises/x/run", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Body = http.MaxBytesReader(httptest.NewRecorder(), req.Body, 4<<10)
		got, err := decodeExerciseRequest(req)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Message == "" || (e.Status != 400 && e.Status != 413 && e.Status != 415) {
				t.Fatalf("refusal %v, want a 400, 413 or 415 *Error with a message", err)
			}
			return
		}
		var obj map[string]json.RawMessage
		if len(body) > 4<<10 || json.Unmarshal([]byte(body), &obj) != nil {
			t.Fatalf("accepted a body that is not one JSON object under the cap: %q", body)
		}
		for k := range obj {
			if !strings.EqualFold(k, "code") {
				t.Errorf("accepted an unknown field %q", k)
			}
		}
		if raw, ok := obj["code"]; ok && string(raw) != "null" {
			var code string
			if json.Unmarshal(raw, &code) != nil || code != got.Code {
				t.Errorf("decoded code %q from %s", got.Code, raw)
			}
		}
	})
}
