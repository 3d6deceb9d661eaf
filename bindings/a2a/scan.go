package a2a

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// The request readers below walk a body once with jsontext, keeping the texts they need as slices of it, where
// encoding/json would validate and copy each level again (the envelope, the params, each part): on the submission
// path that was a quarter of the binding's time. Duplicate member names and invalid UTF-8 are let through, as
// encoding/json lets them through, so a response the core would answer with a receipt reaches the core unchanged.
var scanOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// rpcEnvelope is a JSON-RPC request's members, each kept as text (Params and ID exactly as written).
type rpcEnvelope struct {
	JSONRPC, Method string
	hasJSONRPC      bool
	ID, Params      []byte
}

// scanEnvelope reads a JSON-RPC request object, keeping its id and params as text.
func scanEnvelope(body []byte) (rpcEnvelope, error) {
	var env rpcEnvelope
	d := jsontext.NewDecoder(bytes.NewBuffer(body), scanOptions...) // parsed in place, no copy
	if err := expectObject(d); err != nil {
		return env, err
	}
	for d.PeekKind() != '}' {
		name, err := readName(d)
		if err != nil {
			return env, err
		}
		switch name {
		case "jsonrpc", "method":
			v, err := d.ReadValue()
			if err != nil {
				return env, err
			}
			if v.Kind() != '"' {
				if name == "method" {
					return env, errors.New(`"method" must be a string`)
				}
				env.hasJSONRPC = true
				continue
			}
			s, err := unquote(v)
			if err != nil {
				return env, err
			}
			if name == "method" {
				env.Method = s
			} else {
				env.JSONRPC, env.hasJSONRPC = s, true
			}
		case "id", "params":
			v, err := d.ReadValue()
			if err != nil {
				return env, err
			}
			if name == "id" {
				env.ID = bytes.Clone(v) // a Value is the decoder's until its next read
			} else {
				env.Params = bytes.Clone(v)
			}
		default:
			if err := d.SkipValue(); err != nil {
				return env, err
			}
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return env, err
	}
	if _, err := d.ReadToken(); err == nil {
		return env, errors.New("text follows the request object")
	}
	return env, nil
}

// scanSend10 finds the one AQP response part of an A2A 1.0 SendMessageRequest, as parseSend10 does, in one pass.
func scanSend10(params []byte) (callParts, string) {
	t := bytes.TrimSpace(params)
	if len(t) == 0 || string(t) == "null" {
		return callParts{}, `the SendMessageRequest is missing: it must be {"message": {...}}; ` + expected10
	}
	d := jsontext.NewDecoder(bytes.NewBuffer(t), scanOptions...)
	if err := expectObject(d); err != nil {
		return callParts{}, "not a SendMessageRequest: " + err.Error()
	}
	var call callParts
	var found []int
	var msgSeen bool
	var messageID, role string
	for d.PeekKind() != '}' {
		name, err := readName(d)
		if err != nil {
			return callParts{}, "not a SendMessageRequest: " + err.Error()
		}
		if name != "message" {
			if err := d.SkipValue(); err != nil {
				return callParts{}, "not a SendMessageRequest: " + err.Error()
			}
			continue
		}
		if d.PeekKind() == 'n' {
			_, _ = d.ReadToken()
			continue
		}
		msgSeen = true
		if err := expectObject(d); err != nil {
			return callParts{}, `"message" is not a Message: ` + err.Error()
		}
		for d.PeekKind() != '}' {
			name, err := readName(d)
			if err != nil {
				return callParts{}, `"message" is not a Message: ` + err.Error()
			}
			switch name {
			case "messageId", "contextId", "taskId", "role":
				s, err := readString(d)
				if err != nil {
					return callParts{}, fmt.Sprintf(`"message.%s" must be a string: %v`, name, err)
				}
				switch name {
				case "messageId":
					messageID = s
				case "contextId":
					call.contextID = s
				case "taskId":
					call.taskID = s
				case "role":
					role = s
				}
			case "parts":
				if d.PeekKind() == 'n' {
					_, _ = d.ReadToken()
					continue
				}
				if tok, err := d.ReadToken(); err != nil || tok.Kind() != '[' {
					return callParts{}, `"message.parts" must be an array of Part`
				}
				for i := 0; d.PeekKind() != ']'; i++ {
					p, perr := scanPart(d)
					if perr != nil {
						return callParts{}, fmt.Sprintf(`"message.parts[%d]" is not a Part: %v`, i, perr)
					}
					if !p.marked {
						continue
					}
					found = append(found, i)
					c, msg := p.part.responseText(i)
					if msg != "" {
						return callParts{}, msg
					}
					call.response = c
				}
				if _, err := d.ReadToken(); err != nil {
					return callParts{}, `"message.parts" is not an array: ` + err.Error()
				}
			default:
				if err := d.SkipValue(); err != nil {
					return callParts{}, `"message" is not a Message: ` + err.Error()
				}
			}
		}
		if _, err := d.ReadToken(); err != nil {
			return callParts{}, `"message" is not a Message: ` + err.Error()
		}
	}
	switch {
	case !msgSeen:
		return callParts{}, `"message" is missing; ` + expected10
	case messageID == "" || role == "":
		return callParts{}, `"message" needs "messageId" and "role" (A2A 1.0 Message); ` + expected10
	case len(found) == 0:
		return callParts{}, expected10 + "; it carries none"
	case len(found) > 1:
		return callParts{}, fmt.Sprintf("%s; it carries %d (parts %v)", expected10, len(found), found)
	}
	return call, ""
}

// scannedPart is one part with its content kept as text, and whether its metadata marks it as the response.
type scannedPart struct {
	part   part10
	marked bool
}

// scanPart reads the next value of d as one A2A 1.0 part: its content members as text, its mediaType, and its
// metadata's aqpObject (the rest of the metadata is skipped, never decoded).
func scanPart(d *jsontext.Decoder) (scannedPart, error) {
	var sp scannedPart
	if err := expectObject(d); err != nil {
		return sp, err
	}
	for d.PeekKind() != '}' {
		name, err := readName(d)
		if err != nil {
			return sp, err
		}
		switch name {
		case "text", "raw", "data", "url":
			v, err := d.ReadValue()
			if err != nil {
				return sp, err
			}
			v = bytes.Clone(v) // a Value is the decoder's until its next read
			switch name {
			case "text":
				sp.part.Text = []byte(v)
			case "raw":
				sp.part.Raw = []byte(v)
			case "data":
				sp.part.Data = []byte(v)
			case "url":
				sp.part.URL = []byte(v)
			}
		case "mediaType":
			s, err := readString(d)
			if err != nil {
				return sp, fmt.Errorf(`"mediaType" must be a string: %v`, err)
			}
			sp.part.MediaType = s
		case "metadata":
			if d.PeekKind() != '{' {
				if err := d.SkipValue(); err != nil {
					return sp, err
				}
				continue
			}
			_, _ = d.ReadToken()
			for d.PeekKind() != '}' {
				key, err := readName(d)
				if err != nil {
					return sp, err
				}
				if key == ObjectKey && d.PeekKind() == '"' {
					s, err := readString(d)
					if err != nil {
						return sp, err
					}
					sp.marked = s == ObjectResponse
					continue
				}
				if err := d.SkipValue(); err != nil {
					return sp, err
				}
			}
			if _, err := d.ReadToken(); err != nil {
				return sp, err
			}
		default:
			if err := d.SkipValue(); err != nil {
				return sp, err
			}
		}
	}
	_, err := d.ReadToken()
	return sp, err
}

func expectObject(d *jsontext.Decoder) error {
	tok, err := d.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("a JSON %v, not an object", tok.Kind())
	}
	return nil
}

func readName(d *jsontext.Decoder) (string, error) {
	tok, err := d.ReadToken()
	if err != nil {
		return "", err
	}
	return tok.String(), nil
}

func readString(d *jsontext.Decoder) (string, error) {
	tok, err := d.ReadToken()
	if err != nil {
		return "", err
	}
	if tok.Kind() != '"' {
		return "", fmt.Errorf("a JSON %v", tok.Kind())
	}
	return tok.String(), nil
}

func unquote(v jsontext.Value) (string, error) {
	d := jsontext.NewDecoder(bytes.NewBuffer(v), scanOptions...)
	return readString(d)
}
