package mcp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// JSON-RPC ids are echoed exactly (D34): mcp-go reads a numeric id into a float64, so an id past 2^53 (or written
// with a fraction or an exponent) would come back rounded or respelled. The fast path echoes the id's text as
// written; a request bound for mcp-go has such an id swapped for a unique string before mcp-go reads it, and the
// string swapped back for the id's text in the response.

// exactInteger reports whether id is a JSON integer literal that mcp-go echoes unchanged: at most 2^53 in
// magnitude, no fraction, no exponent, no minus zero.
func exactInteger(id []byte) bool {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n <= 1<<53 && n >= -(1<<53) && strconv.FormatInt(n, 10) == string(id)
}

// numericID returns the top-level "id" member of a JSON-RPC message when it is a number, and its byte offsets in
// body; ok is false for any other id or a body that is not a JSON object.
func numericID(body []byte) (id []byte, start, end int, ok bool) {
	d := jsontext.NewDecoder(bytes.NewReader(body), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if t, err := d.ReadToken(); err != nil || t.Kind() != '{' {
		return nil, 0, 0, false
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadToken()
		if err != nil || name.Kind() != '"' {
			return nil, 0, 0, false
		}
		if name.String() != "id" || d.PeekKind() != '0' {
			if err := d.SkipValue(); err != nil {
				return nil, 0, 0, false
			}
			continue
		}
		v, err := d.ReadValue()
		if err != nil {
			return nil, 0, 0, false
		}
		end := int(d.InputOffset())
		return bytes.Clone(v), end - len(v), end, true
	}
	return nil, 0, 0, false
}

// idSwap is a request's numeric id that mcp-go would not echo exactly, replaced by a unique string in the body.
type idSwap struct {
	raw, token []byte // the id as written; `"<token>"` as it stands in the body
}

// swapID replaces a numeric id mcp-go would round with a unique string, returning the body to hand to mcp-go and
// the swap to undo in its response (nil when the id needs none).
func swapID(body []byte) ([]byte, *idSwap) {
	id, start, end, ok := numericID(body)
	if !ok || exactInteger(id) {
		return body, nil
	}
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	token := []byte(`"aqp-exact-id-` + hex.EncodeToString(nonce[:]) + `"`)
	out := make([]byte, 0, len(body)-len(id)+len(token))
	out = append(append(append(out, body[:start]...), token...), body[end:]...)
	return out, &idSwap{raw: id, token: token}
}

// idWriter buffers mcp-go's response and writes it with the swapped id's text put back.
type idWriter struct {
	http.ResponseWriter
	swap   *idSwap
	buf    bytes.Buffer
	status int
}

func (w *idWriter) WriteHeader(status int) { w.status = status }
func (w *idWriter) Write(b []byte) (int, error) {
	return w.buf.Write(b)
}

// Flush is a no-op: the response is written whole by finish.
func (w *idWriter) Flush() {}

func (w *idWriter) finish() {
	out := bytes.Replace(w.buf.Bytes(), w.swap.token, w.swap.raw, 1)
	w.ResponseWriter.Header().Del("Content-Length")
	if w.status != 0 {
		w.ResponseWriter.WriteHeader(w.status)
	}
	_, _ = w.ResponseWriter.Write(out)
}
