package https

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
)

// maxBody bounds every request body: the largest document core validates.
const maxBody = core.MaxDocumentBytes

// writeProblem writes an RFC 9457 problem document.
func writeProblem(w http.ResponseWriter, status int, title, detail string, errs core.Errors) {
	p := api.Problem{Type: "about:blank", Title: title, Status: status}
	if detail != "" {
		p.Detail = &detail
	}
	if len(errs) > 0 {
		ves := make([]api.ValidationError, len(errs))
		for i, e := range errs {
			ves[i] = api.ValidationError{Code: string(e.Code), Pointer: e.Pointer, Keyword: e.Keyword, Message: e.Message}
		}
		p.Errors = &ves
	}
	b, _ := json.Marshal(p)
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// readJSONBody checks the media type and reads a bounded body. On failure it has written the problem and returns
// its status (415, 413 or 400); on success the status is 0.
func readJSONBody(w http.ResponseWriter, r *http.Request) ([]byte, int) {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		writeProblem(w, http.StatusUnsupportedMediaType, "Unsupported media type",
			"the body must be JSON sent as Content-Type: application/json, got "+quoteOrNone(ct), nil)
		return nil, http.StatusUnsupportedMediaType
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		writeProblem(w, http.StatusUnsupportedMediaType, "Unsupported media type",
			"JSON is UTF-8; charset "+cs+" is not accepted", nil)
		return nil, http.StatusUnsupportedMediaType
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeProblem(w, http.StatusRequestEntityTooLarge, "Body too large",
				"a body may be at most "+strconv.Itoa(maxBody)+" bytes", nil)
			return nil, http.StatusRequestEntityTooLarge
		}
		writeProblem(w, http.StatusBadRequest, "Unreadable body", err.Error(), nil)
		return nil, http.StatusBadRequest
	}
	return body, 0
}

// writeJSON writes a JSON body with a status.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return `"` + s + `"`
}
