package core

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeJSONIJSON(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	atBound := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	cases := []struct {
		name, in         string
		pointer, keyword string // "" keyword: valid
		message          []string
	}{
		{"duplicate at the top level", `{"answer":1,"answer":2}`, "/answer", KeywordJSON,
			[]string{`duplicate member name "answer"`, "byte offset 12 (line 1, column 13)", "I-JSON", "forbids duplicate names"}},
		{"duplicate nested", "{\"subject\":{\"kind\":\"a\",\n \"kind\":\"b\"}}", "/subject/kind", KeywordJSON,
			[]string{`duplicate member name "kind"`, "line 2, column 2"}},
		{"duplicate with an escaped name", `{"a/b":1,"a\/b":2}`, "/a~1b", KeywordJSON, []string{`"a/b"`}},
		{"duplicate in an array item", `[{"x":1},{"x":1,"x":1}]`, "/1/x", KeywordJSON, []string{`"x"`}},
		{"lone high surrogate", `{"answer":"ab\ud800"}`, "/answer", KeywordJSON,
			[]string{`lone surrogate \ud800`, "byte offset 13", "RFC 7493"}},
		{"lone low surrogate", `{"answer":"\udc00"}`, "/answer", KeywordJSON, []string{`\udc00`, "byte offset 11"}},
		{"high surrogate before a non-surrogate escape", `{"a":["\ud83d\u0041"]}`, "/a/0", KeywordJSON, []string{`\ud83d`}},
		{"high surrogate before a character", `{"a":"\ud83dx"}`, "/a", KeywordJSON, []string{`\ud83d`}},
		{"valid surrogate pair", `{"a":"\ud83d\ude00"}`, "", "", nil},
		{"too deep", deep, strings.Repeat("/0", MaxDepth), KeywordSize, []string{"more than 512 deep", "byte offset 512"}},
		{"at the depth bound", atBound, "", "", nil},
		{"syntax error says where", "{\n  \"a\": [1,]\n}", "", KeywordJSON, []string{"not well-formed JSON", "line 2, column"}},
		{"trailing data", `{} x`, "", KeywordJSON, []string{"more data after the value at byte offset 3 (line 1, column 4)"}},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", "", KeywordJSON, []string{"not valid UTF-8 at byte offset 6 (line 1, column 7)"}},
		{"truncated", `{"a":`, "", KeywordJSON, []string{"unexpected end of input at byte offset 5"}},
		{"empty", ``, "", KeywordJSON, []string{"unexpected end of input"}},
		{"big numbers stay exact", `[9007199254740993, 1e400, -0.10]`, "", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := DecodeJSON([]byte(c.in))
			if c.keyword == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("want *Error, got %v (value %v)", err, v)
			}
			if e.Pointer != c.pointer || e.Keyword != c.keyword {
				t.Errorf("got pointer %q keyword %q, want %q %q (%s)", e.Pointer, e.Keyword, c.pointer, c.keyword, e.Message)
			}
			for _, m := range c.message {
				if !strings.Contains(e.Message, m) {
					t.Errorf("message %q lacks %q", e.Message, m)
				}
			}
		})
	}
	v, _ := DecodeJSON([]byte(`[9007199254740993, 1e400, -0.10, "\ud83d\ude00"]`))
	want := []any{json.Number("9007199254740993"), json.Number("1e400"), json.Number("-0.10"), "😀"}
	if !EqualJSON(v, want) || v.([]any)[2] != json.Number("-0.10") {
		t.Errorf("got %#v", v)
	}
}
