package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"learn/grading"
	"learn/sandbox"
)

// apiExerciseRequest is the body of the exercise API.
type apiExerciseRequest struct {
	Code string `json:"code"`
}

// apiExerciseResponse is the answer of the exercise API: one result per
// case; hidden cases carry only their name, verdict and message.
type apiExerciseResponse struct {
	Exercise string               `json:"exercise"`
	Mode     string               `json:"mode"`
	Passed   bool                 `json:"passed"`
	Summary  string               `json:"summary"`
	Cases    []sandbox.CaseResult `json:"cases"`
	Awarded  int                  `json:"awarded"`
	// MCP holds, for an MCP exercise, the transcripts (see sandbox.MCPReport).
	MCP *sandbox.MCPReport `json:"mcp,omitempty"`
}

// apiExercise handles POST /api/exercises/{id}/run and …/submit with
// {"code": "…"}.
func (s *Server) apiExercise(mode grading.Mode) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		// The API always answers JSON, errors included.
		r.Header.Set("Accept", "application/json")
		_, ex, err := s.app.ExerciseFor("", r.PathValue("id"))
		if err != nil {
			return err
		}
		req, err := decodeExerciseRequest(r)
		if err != nil {
			return err
		}
		out, err := s.gradeExercise(r, "", ex.ID, req.Code, mode)
		if err != nil {
			return err
		}
		res := exerciseResult(out.Result, out.Awarded)
		return writeJSON(w, http.StatusOK, apiExerciseResponse{
			Exercise: ex.ID, Mode: string(mode), Passed: res.Passed, Summary: res.Summary, Cases: res.Cases, Awarded: out.Awarded,
			MCP: out.Result.MCP,
		})
	}
}

// decodeExerciseRequest reads the API's body: exactly one JSON object with
// the known fields, sent as application/json. Errors are *Error: 415 for
// another content type, 413 past the body limit, 400 for anything else
// (malformed JSON, an unknown field, data after the object).
func decodeExerciseRequest(r *http.Request) (apiExerciseRequest, error) {
	var req apiExerciseRequest
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return req, &Error{Status: http.StatusUnsupportedMediaType,
			Message: `Send the body as JSON with the header "Content-Type: application/json".`}
	}
	body, err := io.ReadAll(r.Body)
	if err == nil && !utf8.Valid(body) {
		return req, &Error{Status: http.StatusBadRequest, Message: `The body is not valid UTF-8: send the code as UTF-8 text in {"code": "…"}.`}
	}
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err = dec.Decode(&req); err == nil && !errors.Is(dec.Decode(&struct{}{}), io.EOF) {
			// One object and nothing after it but white space.
			err = errTrailingData
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return req, &Error{Status: http.StatusRequestEntityTooLarge, Message: "The request body is too large; send shorter code."}
		}
		return req, &Error{Status: http.StatusBadRequest, Message: `The body must be one JSON object like {"code": "print(42)"}: ` + err.Error()}
	}
	if !isText(req.Code) {
		return req, &Error{Status: http.StatusBadRequest, Message: `The field "code" holds a NUL character (\u0000), which no Python source may contain; remove it and send the code again.`}
	}
	return req, nil
}

// errTrailingData is the complaint about bytes after the JSON object.
var errTrailingData = errors.New("there is more data after the JSON object")
