package core

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema names ECMA-262 (with Unicode semantics, the "u" flag) as the dialect of "pattern",
// "patternProperties" and format "regex"; this module evaluates them with Go's RE2 (D41). RE2 runs in linear time,
// which bounds what a hostile pattern can cost, but it is not ECMA-262: some syntax means something else in each
// ("\s", ".", "[]", "[[:alpha:]]", "a{,2}", "(?i)", "\p{Greek}"), and some ECMA-262 has no RE2 form (lookaround,
// backreferences). translateECMA writes an ECMA-262 pattern as the RE2 expression with the same meaning, and
// refuses, naming the construct and its offset, any pattern it cannot write so — never judging a pattern silently
// by the other dialect's rule.

// ecmaRegexp is a compiled pattern that reports its ECMA-262 text.
type ecmaRegexp struct {
	*regexp.Regexp
	source string
}

func (r ecmaRegexp) String() string { return r.source }

// compileECMA is the schema library's regexp engine: the pattern translated to RE2, then compiled.
func compileECMA(pattern string) (jsonschema.Regexp, error) {
	re2, err := translateECMA(pattern)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(re2)
	if err != nil {
		return nil, fmt.Errorf("ECMA-262 pattern %q has no RE2 form (D41): %v", pattern, err)
	}
	return ecmaRegexp{re, pattern}, nil
}

// ecmaSpace is ECMA-262's WhiteSpace and LineTerminator, what "\s" matches; RE2's "\s" is only [\t\n\f\r ].
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// ecmaCategories are the General_Category values "\p{…}" may name in both dialects with the same meaning.
var ecmaCategories = map[string]bool{}

func init() {
	for _, c := range strings.Fields("L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Co Cs") {
		ecmaCategories[c] = true
	}
}

// translateECMA returns the RE2 expression that matches exactly what the ECMA-262 pattern matches, or an error
// naming the first construct whose meaning differs or that RE2 cannot evaluate.
func translateECMA(p string) (string, error) {
	var b strings.Builder
	refuse := func(i int, what string) (string, error) {
		return "", fmt.Errorf("pattern %q at offset %d: %s (D41: patterns are ECMA-262, evaluated with RE2 only where both mean the same)", p, i, what)
	}
	inClass := false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return refuse(i, "a trailing backslash")
			}
			e := p[i+1]
			switch {
			case e == 'd' || e == 'D' || e == 'w' || e == 'W' || e == 't' || e == 'n' || e == 'v' || e == 'f' || e == 'r':
				b.WriteString(p[i : i+2]) // the same in both: \d and \w are ASCII in ECMA-262 and in RE2
			case e == 's':
				if inClass {
					b.WriteString(ecmaSpace)
				} else {
					b.WriteString("[" + ecmaSpace + "]")
				}
			case e == 'S':
				if inClass {
					return refuse(i, `"\S" inside a character class has no RE2 form with ECMA-262's meaning`)
				}
				b.WriteString("[^" + ecmaSpace + "]")
			case (e == 'b' || e == 'B') && !inClass:
				b.WriteString(p[i : i+2]) // an ASCII word boundary in both
			case e == 'x':
				if i+3 >= len(p) || !isHex(p[i+2]) || !isHex(p[i+3]) {
					return refuse(i, `"\x" must be followed by two hex digits`)
				}
				b.WriteString(p[i : i+4])
				i += 4
				continue
			case e == 'u':
				r, n, err := ecmaUnicodeEscape(p[i:])
				if err != "" {
					return refuse(i, err)
				}
				fmt.Fprintf(&b, `\x{%x}`, r)
				i += n
				continue
			case e == '0' && (i+2 >= len(p) || !isDigit(p[i+2])):
				b.WriteString(`\x00`)
			case e >= '1' && e <= '9':
				return refuse(i, "a backreference (RE2 cannot evaluate backreferences)")
			case e == 'k':
				return refuse(i, "a named backreference (RE2 cannot evaluate backreferences)")
			case e == 'p' || e == 'P':
				end := strings.IndexByte(p[i:], '}')
				if i+2 >= len(p) || p[i+2] != '{' || end < 0 {
					return refuse(i, `"\p" must name a property in braces`)
				}
				name := p[i+3 : i+end]
				if !ecmaCategories[name] {
					return refuse(i, fmt.Sprintf("the property %q: only General_Category values (L, Lu, Nd …) mean the same in ECMA-262 and RE2", name))
				}
				b.WriteString(p[i : i+end+1])
				i += end + 1
				continue
			case strings.IndexByte(`^$\.*+?()[]{}|/`, e) >= 0 || e == '-' && inClass:
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				return refuse(i, fmt.Sprintf("the escape %q, which ECMA-262 with Unicode semantics does not define", p[i:i+2]))
			}
			i += 2
			continue
		case inClass:
			if c == '[' && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '=' || p[i+1] == '.') {
				return refuse(i, fmt.Sprintf("%q inside a character class, which RE2 reads as a POSIX class and ECMA-262 as literal characters", p[i:i+2]))
			}
			if c == ']' {
				inClass = false
			}
			if c == '[' {
				b.WriteString(`\[`)
				i++
				continue
			}
		case c == '[':
			inClass = true
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				return refuse(i, fmt.Sprintf("%q: in ECMA-262 an empty class (matching nothing, or with ^ anything), in RE2 a class holding \"]\"", p[i:j+1]))
			}
			b.WriteString(p[i:j])
			i = j
			continue
		case c == '.':
			b.WriteString(`[^\n\r\x{2028}\x{2029}]`) // ECMA-262's "." excludes every line terminator, RE2's only \n
			i++
			continue
		case c == '(':
			if i+1 < len(p) && p[i+1] == '?' {
				rest := p[i+2:]
				switch {
				case strings.HasPrefix(rest, ":"):
				case strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "!"):
					return refuse(i, "a lookahead (RE2 cannot evaluate lookaround)")
				case strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!"):
					return refuse(i, "a lookbehind (RE2 cannot evaluate lookaround)")
				case strings.HasPrefix(rest, "<"):
					// A named group: (?<name>…) in both.
				default:
					return refuse(i, fmt.Sprintf("%q, which RE2 reads as flags and ECMA-262 does not define", p[i:min(len(p), i+3)]))
				}
			}
		case c == '{':
			n := quantifierLength(p[i:])
			if n == 0 {
				return refuse(i, `a "{" that starts no {n}, {n,} or {n,m} quantifier: a syntax error in ECMA-262, a literal in RE2`)
			}
			b.WriteString(p[i : i+n])
			i += n
			continue
		case c == '}':
			return refuse(i, `a "}" that ends no quantifier: a syntax error in ECMA-262, a literal in RE2`)
		case c == ']':
			return refuse(i, `a "]" that ends no character class: a syntax error in ECMA-262, a literal in RE2`)
		}
		_, size := utf8.DecodeRuneInString(p[i:])
		b.WriteString(p[i : i+size])
		i += size
	}
	if inClass {
		return refuse(len(p), "an unterminated character class")
	}
	return b.String(), nil
}

// ecmaUnicodeEscape reads \uXXXX (a surrogate pair of two as one code point) or \u{X…} at the start of s.
func ecmaUnicodeEscape(s string) (rune, int, string) {
	if strings.HasPrefix(s, `\u{`) {
		end := strings.IndexByte(s, '}')
		if end < 4 || end > 9 {
			return 0, 0, `"\u{…}" must hold 1 to 6 hex digits`
		}
		v, err := strconv.ParseUint(s[3:end], 16, 32)
		if err != nil || v > 0x10ffff || v >= 0xd800 && v <= 0xdfff {
			return 0, 0, `"\u{…}" must name a Unicode scalar value`
		}
		return rune(v), end + 1, ""
	}
	hex4 := func(t string) (uint64, bool) {
		if len(t) < 6 || t[0] != '\\' || t[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(t[2:6], 16, 32)
		return v, err == nil && !strings.ContainsAny(t[2:6], "+-")
	}
	v, ok := hex4(s)
	if !ok {
		return 0, 0, `"\u" must be followed by four hex digits or {…}`
	}
	if v >= 0xd800 && v <= 0xdbff {
		lo, ok := hex4(s[6:])
		if !ok || lo < 0xdc00 || lo > 0xdfff {
			return 0, 0, "a lone surrogate escape"
		}
		return rune(0x10000 + (v-0xd800)<<10 + (lo - 0xdc00)), 12, ""
	}
	if v >= 0xdc00 && v <= 0xdfff {
		return 0, 0, "a lone surrogate escape"
	}
	return rune(v), 6, ""
}

// quantifierLength is the length of a {n}, {n,} or {n,m} quantifier at the start of s, or 0.
func quantifierLength(s string) int {
	i := 1
	digits := func() int {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i - start
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}
