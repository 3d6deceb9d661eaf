// Package httpio holds the few HTTP details that the service surface and the HTTPS binding share: bounded JSON
// bodies with a checked media type, JSON replies, and RFC 9457 problem documents. It decides nothing about AQP.
package httpio

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
)

// MaxBody bounds every request body: the largest document core validates.
const MaxBody = core.MaxDocumentBytes

// WriteProblem writes an RFC 9457 problem document; errs, when given, become its errors member, one per failure
// with code, pointer, keyword and message.
func WriteProblem(w http.ResponseWriter, status int, title, detail string, errs core.Errors) {
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

// BodyError is a request body ReadJSONBody refused, with the HTTP status and a short reason word (for metrics).
type BodyError struct {
	// Status is 415, 413 or 400.
	Status int
	// Reason is media_type, too_large or unreadable.
	Reason string
}

// ReadJSONBody checks the media type (application/json, UTF-8) and reads a body of at most MaxBody bytes. On
// failure it has written the problem document and returns what it refused.
func ReadJSONBody(w http.ResponseWriter, r *http.Request) ([]byte, *BodyError) {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		WriteProblem(w, http.StatusUnsupportedMediaType, "Unsupported media type",
			"the body must be JSON sent as Content-Type: application/json, got "+quoteOrNone(ct), nil)
		return nil, &BodyError{http.StatusUnsupportedMediaType, "media_type"}
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		WriteProblem(w, http.StatusUnsupportedMediaType, "Unsupported media type", "JSON is UTF-8; charset "+cs+" is not accepted", nil)
		return nil, &BodyError{http.StatusUnsupportedMediaType, "media_type"}
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, MaxBody), r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			WriteProblem(w, http.StatusRequestEntityTooLarge, "Body too large", "a body may be at most "+strconv.Itoa(MaxBody)+" bytes", nil)
			return nil, &BodyError{http.StatusRequestEntityTooLarge, "too_large"}
		}
		WriteProblem(w, http.StatusBadRequest, "Unreadable body", err.Error(), nil)
		return nil, &BodyError{http.StatusBadRequest, "unreadable"}
	}
	return body, nil
}

// readBody reads a body into one buffer of the declared Content-Length when there is one (io.ReadAll would grow
// its buffer by doubling, holding up to twice the body while it reads), and into a growing one otherwise. The
// reader is already bounded by MaxBody.
func readBody(rd io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 || declared > MaxBody {
		return io.ReadAll(rd)
	}
	buf := make([]byte, declared)
	if _, err := io.ReadFull(rd, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errors.New("the body ended before its Content-Length")
		}
		return nil, err
	}
	// A body longer than it declared is not read further: net/http stops at Content-Length.
	return buf, nil
}

// WriteJSON writes a JSON body with a status.
func WriteJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ClientAddress is the request's remote address without its port: the identity budgets against floods are kept
// under. It does not trust forwarding headers, which anyone can write.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return `"` + s + `"`
}
