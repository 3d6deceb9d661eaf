package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// The part metadata that marks AQP objects in a Message (§6): the same in every protocol generation.
const (
	// ObjectKey is the part metadata member naming the AQP object a part carries.
	ObjectKey = "aqpObject"
	// ObjectResponse marks the part whose content is the QueryResponse.
	ObjectResponse = "response"
	// ObjectReceipt marks the part whose content is the QueryReceipt.
	ObjectReceipt = "receipt"
)

// MediaTypeJSON is the mediaType of an A2A 1.0 part carrying an AQP object: a data part's value, or a raw part's
// bytes (the object's JSON text, which is how an object travels exactly over gRPC).
const MediaTypeJSON = "application/json"

// maxSignificantDigits is how many significant digits a number in an A2A 1.0 data part received over gRPC may have
// (D33). A protobuf Value holds a number as an IEEE double, and every decimal of at most 15 significant digits
// survives a double unchanged (DBL_DIG), so such a number is the one the respondent wrote; a number whose double
// needs more digits may already have been rounded by the respondent's encoder, and is refused rather than judged
// as another value.
const maxSignificantDigits = 15

// callParts is what a send request carries for AQP, whatever the transport: the response's JSON text and the
// message's context and task ids (the reply belongs to them).
type callParts struct {
	response          []byte
	contextID, taskID string
}

// expected says what a send request must carry, in each generation's words, for every invalid-params error.
const (
	expected10 = `the message must carry exactly one part with metadata {"aqpObject": "response"} whose content is the ` +
		`QueryResponse: "data" (the object) or "raw" (its JSON text, base64, mediaType "application/json")`
	expected03 = `the message must carry exactly one part of kind "data" with metadata {"aqpObject": "response"} whose ` +
		`data is the QueryResponse`
)

// part10 is one A2A 1.0 part as JSON writes it, with its content kept as text: exactly one of text, raw, data, url.
type part10 struct {
	Text      json.RawMessage            `json:"text"`
	Raw       json.RawMessage            `json:"raw"`
	Data      json.RawMessage            `json:"data"`
	URL       json.RawMessage            `json:"url"`
	MediaType string                     `json:"mediaType"`
	Metadata  map[string]json.RawMessage `json:"metadata"`
}

// responseText is the QueryResponse's JSON text from a marked 1.0 part: a data part's value as written, or a raw
// part's decoded bytes.
func (p part10) responseText(i int) ([]byte, string) {
	n := 0
	for _, c := range [][]byte{p.Text, p.Raw, p.Data, p.URL} {
		if c != nil {
			n++
		}
	}
	switch {
	case n != 1:
		return nil, fmt.Sprintf(`"message.parts[%d]" must have exactly one of "text", "raw", "data" and "url", it has %d; %s`, i, n, expected10)
	case p.Data != nil:
		if string(bytes.TrimSpace(p.Data)) == "null" {
			return nil, fmt.Sprintf(`"message.parts[%d].data" is null; %s`, i, expected10)
		}
		return p.Data, ""
	case p.Raw != nil:
		var s string
		if err := json.Unmarshal(p.Raw, &s); err != nil {
			return nil, fmt.Sprintf(`"message.parts[%d].raw" must be a base64 string: %v`, i, err)
		}
		b, err := decodeBase64(s)
		if err != nil {
			return nil, fmt.Sprintf(`"message.parts[%d].raw" is not base64: %v`, i, err)
		}
		if mt := mediaTypeOf(p.MediaType); mt != "" && mt != MediaTypeJSON {
			return nil, fmt.Sprintf(`"message.parts[%d]" is a raw part of mediaType %q; the QueryResponse's JSON text is %q`, i, p.MediaType, MediaTypeJSON)
		}
		return b, ""
	}
	return nil, fmt.Sprintf(`"message.parts[%d]" is a text or url part; %s`, i, expected10)
}

// marks reports whether a part's metadata marks it as the AQP object what.
func marks(meta map[string]json.RawMessage, what string) bool {
	v, ok := meta[ObjectKey]
	if !ok {
		return false
	}
	var s string
	return json.Unmarshal(v, &s) == nil && s == what
}

// mediaTypeOf is a media type without its parameters, lower-cased.
func mediaTypeOf(mt string) string {
	mt, _, _ = strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// decodeBase64 reads bytes as ProtoJSON writes and reads them: standard or URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, error) {
	var firstErr error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(s)
		if err == nil {
			return b, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// part03 is one A2A 0.3 part with its data kept as text.
type part03 struct {
	Kind     string                     `json:"kind"`
	Data     json.RawMessage            `json:"data"`
	Metadata map[string]json.RawMessage `json:"metadata"`
}

// parseSend03 finds the one AQP response part of an A2A 0.3 MessageSendParams; the error says what was expected.
func parseSend03(params []byte) (callParts, string) {
	var p struct {
		Message *struct {
			MessageID string          `json:"messageId"`
			ContextID string          `json:"contextId"`
			TaskID    string          `json:"taskId"`
			Role      string          `json:"role"`
			Parts     json.RawMessage `json:"parts"`
		} `json:"message"`
	}
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		return callParts{}, `"params" is missing: it must be MessageSendParams ({"message": {...}}); ` + expected03
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return callParts{}, `"params" is not MessageSendParams: ` + err.Error()
	}
	if p.Message == nil {
		return callParts{}, `"params.message" is missing; ` + expected03
	}
	m := p.Message
	if m.MessageID == "" || m.Role == "" {
		return callParts{}, `"params.message" needs "messageId" and "role" (A2A Message); ` + expected03
	}
	var found []int
	var data json.RawMessage
	// The parts are read one at a time from the array's text, so a body of many parts holds one part's values at
	// a time, never a value per part (D34).
	parts := bytes.TrimSpace(m.Parts)
	if len(parts) > 0 && string(parts) != "null" {
		if parts[0] != '[' {
			return callParts{}, `"params" is not MessageSendParams: "message.parts" is not an array`
		}
		d := jsontext.NewDecoder(bytes.NewReader(parts), scanOptions...)
		if _, err := d.ReadToken(); err != nil {
			return callParts{}, `"params" is not MessageSendParams: ` + err.Error()
		}
		for i := 0; d.PeekKind() != ']'; i++ {
			raw, err := d.ReadValue()
			if err != nil {
				return callParts{}, `"params" is not MessageSendParams: ` + err.Error()
			}
			var part part03
			if err := json.Unmarshal(raw, &part); err != nil {
				return callParts{}, fmt.Sprintf(`"params.message.parts[%d]" is not a Part: %v`, i, err)
			}
			if part.Kind != "data" || !marks(part.Metadata, ObjectResponse) {
				continue
			}
			found = append(found, i)
			data = part.Data
		}
	}
	switch {
	case len(found) == 0:
		return callParts{}, expected03 + "; it carries none"
	case len(found) > 1:
		return callParts{}, fmt.Sprintf("%s; it carries %d (parts %v)", expected03, len(found), found)
	case len(data) == 0 || string(data) == "null":
		return callParts{}, fmt.Sprintf(`"params.message.parts[%d].data" is missing; %s`, found[0], expected03)
	}
	return callParts{response: data, contextID: m.ContextID, taskID: m.TaskID}, ""
}

// replyMessage10 is the agent's A2A 1.0 reply carrying a receipt, as JSON writes it: a Message (role ROLE_AGENT)
// in the request's context whose one data part (mediaType application/json, metadata {"aqpObject": "receipt"}) is
// the receipt's bytes, unchanged.
func replyMessage10(messageID, contextID, taskID string, receipt []byte) []byte {
	b := make([]byte, 0, len(receipt)+320)
	b = append(b, `{"messageId":`...)
	b = appendString(b, messageID)
	b = appendContext(b, contextID, taskID)
	b = append(b, `,"role":"ROLE_AGENT","extensions":[`...)
	b = appendString(b, spec.A2AExtension)
	b = append(b, `],"parts":[{"data":`...)
	b = append(b, receipt...)
	b = append(b, `,"mediaType":"application/json","metadata":{"aqpObject":"receipt"}}]}`...)
	return b
}

// replyMessage03 is the agent's A2A 0.3 reply carrying a receipt: a Message (kind message, role agent) whose one
// DataPart ({"aqpObject": "receipt"}) is the receipt's bytes, unchanged.
func replyMessage03(messageID, contextID, taskID string, receipt []byte) []byte {
	b := make([]byte, 0, len(receipt)+256)
	b = append(b, `{"kind":"message","messageId":`...)
	b = appendString(b, messageID)
	b = append(b, `,"role":"agent"`...)
	b = appendContext(b, contextID, taskID)
	b = append(b, `,"extensions":[`...)
	b = appendString(b, spec.A2AExtension)
	b = append(b, `],"parts":[{"kind":"data","data":`...)
	b = append(b, receipt...)
	b = append(b, `,"metadata":{"aqpObject":"receipt"}}]}`...)
	return b
}

// appendContext writes a reply's contextId and taskId members, each only when the request named it.
func appendContext(b []byte, contextID, taskID string) []byte {
	if contextID != "" {
		b = append(b, `,"contextId":`...)
		b = appendString(b, contextID)
	}
	if taskID != "" {
		b = append(b, `,"taskId":`...)
		b = appendString(b, taskID)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// valueJSON writes a protobuf Value received in a gRPC data part as JSON, refusing (D33) any number a double may
// have rounded: the error names the member and the rule. Object members are written in sorted order (a Struct is a
// map and keeps no order), numbers in their shortest round-trip form.
func valueJSON(v *structpb.Value) ([]byte, error) {
	var b []byte
	var walk func(v *structpb.Value, at string) error
	walk = func(v *structpb.Value, at string) error {
		switch k := v.GetKind().(type) {
		case nil, *structpb.Value_NullValue:
			b = append(b, "null"...)
		case *structpb.Value_BoolValue:
			b = strconv.AppendBool(b, k.BoolValue)
		case *structpb.Value_StringValue:
			b = appendString(b, k.StringValue)
		case *structpb.Value_NumberValue:
			f := k.NumberValue
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Errorf("the number at %s is not finite", pointerOr(at))
			}
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if f == math.Trunc(f) && math.Abs(f) < 1e21 {
				s = strconv.FormatFloat(f, 'f', -1, 64) // an integer as integers are written: 123456789012345, not 1.23456789012345e+14
			}
			if digits := significantDigits(s); digits > maxSignificantDigits {
				return fmt.Errorf("the number at %s (%s as a double) has %d significant digits; a data part over gRPC "+
					"carries numbers as doubles, exact only to %d digits (D33): send the QueryResponse as a raw part "+
					"(its JSON text, mediaType %q)", pointerOr(at), s, digits, maxSignificantDigits, MediaTypeJSON)
			}
			b = append(b, s...)
		case *structpb.Value_ListValue:
			b = append(b, '[')
			for i, e := range k.ListValue.GetValues() {
				if i > 0 {
					b = append(b, ',')
				}
				if err := walk(e, at+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
			b = append(b, ']')
		case *structpb.Value_StructValue:
			fields := k.StructValue.GetFields()
			names := make([]string, 0, len(fields))
			for n := range fields {
				names = append(names, n)
			}
			slices.Sort(names)
			b = append(b, '{')
			for i, n := range names {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, n)
				b = append(b, ':')
				if err := walk(fields[n], at+"/"+escapePointer(n)); err != nil {
					return err
				}
			}
			b = append(b, '}')
		default:
			return fmt.Errorf("the value at %s is of no JSON kind", pointerOr(at))
		}
		return nil
	}
	if err := walk(v, ""); err != nil {
		return nil, err
	}
	return b, nil
}

// significantDigits counts the significant digits of a number as strconv's 'g' or 'f' format writes it (trailing
// zeros of an integer are not significant: 1e20 written out has one).
func significantDigits(s string) int {
	mant, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	mant = strings.Replace(mant, ".", "", 1)
	mant = strings.TrimLeft(mant, "0")
	mant = strings.TrimRight(mant, "0")
	return max(len(mant), 1)
}

func pointerOr(at string) string {
	if at == "" {
		return `"" (the whole value)`
	}
	return at
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
