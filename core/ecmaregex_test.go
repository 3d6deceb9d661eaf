package core

import (
	"strings"
	"testing"
)

// TestECMAPatterns: a pattern is judged by its ECMA-262 meaning (D41): translated to the RE2 expression that means
// the same, or refused naming the construct whose meaning differs or that RE2 cannot evaluate.
func TestECMAPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern      string
		refused      string   // a substring of the refusal; "" when the pattern compiles
		match, nomat []string // strings it must and must not match
	}{
		{pattern: `^[a-z]+$`, match: []string{"abc"}, nomat: []string{"Abc", "abc\n"}},
		{pattern: `^(/([^/~]|~[01])*)*$`, match: []string{"", "/a~0/b"}, nomat: []string{"/~2"}},
		{pattern: `^\s$`, match: []string{" ", "\u00a0", "\ufeff", "\v", "\u2028"}, nomat: []string{"x"}},
		{pattern: `^[\s,]+$`, match: []string{"\u3000,"}},
		{pattern: `^\S$`, match: []string{"x"}, nomat: []string{"\u00a0"}},
		{pattern: `^.$`, match: []string{"x", "é", "😀"}, nomat: []string{"\n", "\r", "\u2028", "\u2029"}},
		{pattern: `^\u00e9\u{1F600}\uD83D\uDE00$`, match: []string{"é😀😀"}},
		{pattern: `^\p{Lu}\P{L}$`, match: []string{"É1"}, nomat: []string{"é1"}},
		{pattern: `^a{2,3}\x41\0?$`, match: []string{"aaA", "aaaA\x00"}},
		{pattern: `^(?<y>\d{4})-(?:\d\d)\b`, match: []string{"2026-07"}},
		{pattern: `\/\.\*`, match: []string{"/.*"}},
		{pattern: `(?=a)b`, refused: "a lookahead"},
		{pattern: `(?!a)b`, refused: "a lookahead"},
		{pattern: `(?<=a)b`, refused: "a lookbehind"},
		{pattern: `(a)\1`, refused: "a backreference"},
		{pattern: `(?<n>a)\k<n>`, refused: "a named backreference"},
		{pattern: `(?i)abc`, refused: "RE2 reads as flags"},
		{pattern: `[]a]`, refused: "an empty class"},
		{pattern: `[^]`, refused: "an empty class"},
		{pattern: `[[:alpha:]]`, refused: "POSIX class"},
		{pattern: `a{,2}`, refused: `a "{" that starts no`},
		{pattern: `a}`, refused: `a "}" that ends no quantifier`},
		{pattern: `a]`, refused: `a "]" that ends no character class`},
		{pattern: `\p{Greek}`, refused: `the property "Greek"`},
		{pattern: `\Qa\E`, refused: `the escape "\\Q"`},
		{pattern: `\z`, refused: `the escape "\\z"`},
		{pattern: `\a`, refused: `the escape "\\a"`},
		{pattern: `[\S]`, refused: `"\S" inside a character class`},
		{pattern: `\uD800`, refused: "a lone surrogate escape"},
		{pattern: `[a`, refused: "an unterminated character class"},
		{pattern: `\`, refused: "a trailing backslash"},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			re, err := compileECMA(tc.pattern)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "D41") {
					t.Fatalf("got %v, want a refusal saying %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if re.String() != tc.pattern {
				t.Errorf("String() = %q, want the ECMA-262 source", re.String())
			}
			for _, s := range tc.match {
				if !re.MatchString(s) {
					t.Errorf("%q does not match %q", tc.pattern, s)
				}
			}
			for _, s := range tc.nomat {
				if re.MatchString(s) {
					t.Errorf("%q matches %q", tc.pattern, s)
				}
			}
		})
	}
}

// TestURIReference: format uri-reference is RFC 3986's URI-reference (D41): a URI or a relative reference, ASCII,
// no space, no ":" in a first segment that is not a scheme's.
func TestURIReference(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"https://collector.example/aqp?x#y", true},
		{"../a/b?c=d#e", true},
		{"//host:8080/p", true},
		{"", true},
		{"#frag", true},
		{"./a:b", true},
		{"a%20b", true},
		{"a b", false},
		{"a:b c", false},
		{"1a:b", false},
		{"é", false},
		{"a%2", false},
		{"//ho st/", false},
		{"?a b", false},
	} {
		if err := checkURIReference(tc.s); (err == nil) != tc.ok {
			t.Errorf("checkURIReference(%q) = %v, want ok %v", tc.s, err, tc.ok)
		}
	}
}
