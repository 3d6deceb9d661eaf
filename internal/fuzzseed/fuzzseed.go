// Package fuzzseed holds the inputs that break naive decoders, shared by the seed corpora of every fuzz target in
// the module, so that each target starts from the same hostile shapes (Hardening: long member names, deep nesting,
// duplicate members, lone surrogates, numbers beyond float64 and beyond the D22 bounds, invalid UTF-8, nothing at
// all) and a shape added here reaches them all.
package fuzzseed

import "strings"

// Seed is one hostile input: a name for a failure report, and its bytes.
type Seed struct {
	// Name says what the input is, for a test's log.
	Name string
	// Bytes is the input. Values are JSON values (or meant to be read as one, like the invalid UTF-8 string)
	// that a target embeds where it reads a value; Raw inputs are whole inputs of no particular kind.
	Bytes []byte
}

// LongName is the length of the long member names: past the 3,000 characters a pointer or message that copies a
// name without a bound would carry.
const LongName = 3100

// Depth is how deeply the deep seeds nest: past any recursion bound a decoder or validator might have (the D24
// bound on a jsonSchema is 64; encoding/json stops at 10,000).
const Depth = 1500

// Values returns the hostile JSON values (some well-formed, some not), fresh on every call.
func Values() []Seed {
	return []Seed{
		{"long member name", []byte(`{"` + strings.Repeat("m", LongName) + `":1}`)},
		{"long escaped member name", []byte(`{"` + strings.Repeat("~/", LongName/2) + `":true}`)},
		{"long string", []byte(`"` + strings.Repeat("é", LongName) + `"`)},
		{"deep arrays", []byte(strings.Repeat("[", Depth) + strings.Repeat("]", Depth))},
		{"deep objects", []byte(strings.Repeat(`{"a":`, Depth) + "1" + strings.Repeat("}", Depth))},
		{"deep items", []byte(strings.Repeat(`{"items":`, Depth) + "{}" + strings.Repeat("}", Depth))},
		{"unclosed nesting", []byte(strings.Repeat(`[{"a":`, Depth))},
		{"duplicate members", []byte(`{"a":1,"a":2,"b":{"c":"x","c":"y"}}`)},
		{"lone high surrogate", []byte(`"\ud800"`)},
		{"lone low surrogate", []byte(`"x\udc00y"`)},
		{"reversed surrogates", []byte(`["\udc00\ud800","\ud800\ud800"]`)},
		{"surrogate member name", []byte(`{"\ud800":1,"\udfff":2}`)},
		{"1e400", []byte(`1e400`)},
		{"1e-400", []byte(`-1e-400`)},
		{"2^53+1", []byte(`9007199254740993`)},
		{"1e1000001", []byte(`1e1000001`)},
		{"1,001 digits", []byte("1" + strings.Repeat("0", 1000))},
		{"long fraction", []byte("0." + strings.Repeat("3", 1200))},
		{"numbers", []byte(`[0, -0, 1.0, 1E+2, 0.1e-2, 1e1000, 1e-1000, 1e1001]`)},
		{"invalid UTF-8 in a string", []byte("\"\xff\xfe\"")},
		{"invalid UTF-8 member name", []byte("{\"\xc3\x28\":1}")},
		{"truncated UTF-8", []byte("\"\xe2\x82\"")},
		{"NUL and controls", []byte("\"\\u0000\x01\"")},
		{"trailing data", []byte(`{} {}`)},
		{"empty", []byte{}},
		{"whitespace", []byte(" \t\r\n")},
		{"null", []byte(`null`)},
		{"byte order mark", []byte("\xef\xbb\xbf{}")},
	}
}
