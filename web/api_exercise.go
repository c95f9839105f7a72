package web

import (
	"encoding/json"
	"errors"
	"net/http"

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
		var req apiExerciseRequest
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return &Error{Status: http.StatusRequestEntityTooLarge, Message: "The request body is too large; send shorter code."}
			}
			return &Error{Status: http.StatusBadRequest, Message: `The body must be JSON like {"code": "print(42)"}: ` + err.Error()}
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
