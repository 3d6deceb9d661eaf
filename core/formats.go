package core

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/wire"
)

// The asserted formats (decision D4). They are written here rather than taken from the JSON Schema library so that
// the rule is exactly the RFC's and the same everywhere this module checks a date-time or a URI: uuid is the
// RFC 4122 text form (8-4-4-4-12 hex digits, no "urn:uuid:" prefix, no braces); date-time is RFC 3339 §5.6 with a
// required offset, a leap second only at 23:59:60 UTC; uri is an RFC 3986 URI with a scheme (absolute, fragment
// allowed), ASCII only.

// checkUUID reports why s is not an RFC 4122 UUID in text form.
func checkUUID(s string) error {
	if len(s) != 36 {
		return fmt.Errorf("must be 36 characters (8-4-4-4-12 hex digits), got %d", len(s))
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return fmt.Errorf("character %d must be '-'", i+1)
			}
		default:
			if !isHex(c) {
				return fmt.Errorf("character %d must be a hex digit, got %q", i+1, c)
			}
		}
	}
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ParseDateTime parses an RFC 3339 date-time (§5.6) into an instant, with the rules of decision D4: lowercase "t"
// and "z", any number of fraction digits and a leap second (23:59:60 in UTC, counted as the first instant of the
// next day) are accepted; a missing offset, an offset without a colon, a space for "T" and out-of-range fields are
// not. The parser lives in package wire, beside the DateTime type that uses it, so that the validator and the typed
// objects apply one rule.
func ParseDateTime(s string) (time.Time, error) { return wire.ParseDateTime(s) }

// checkURI reports why s is not an RFC 3986 URI with a scheme.
func checkURI(s string) error {
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return errors.New("must be an absolute URI: no scheme (\"https:\")")
	}
	scheme := s[:colon]
	if scheme == "" || !isAlpha(scheme[0]) {
		return fmt.Errorf("scheme %q must start with a letter", scheme)
	}
	for i := 1; i < len(scheme); i++ {
		if c := scheme[i]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return fmt.Errorf("scheme %q may hold only letters, digits, '+', '-' and '.'", scheme)
		}
	}
	return checkReference(s[colon+1:])
}

const subDelims = "!$&'()*+,;="

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

// checkURIReference reports why s is not an RFC 3986 URI-reference (§4.1): a URI, or a relative reference —
// relative-part ["?" query] ["#" fragment], ASCII only, whose first path segment holds no ":" when there is no
// authority. The library's own check accepted "a b", which RFC 3986 does not (D41).
func checkURIReference(s string) error {
	if end := strings.IndexAny(s, "/?#"); strings.Contains(s[:max(end, 0)], ":") || end < 0 && strings.Contains(s, ":") {
		colon := strings.IndexByte(s, ':')
		if scheme := s[:colon]; scheme != "" && isAlpha(scheme[0]) && strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") == "" {
			return checkURI(s)
		}
		return errors.New("a relative reference's first path segment may not hold \":\" (write \"./\" before it), and no valid scheme precedes it")
	}
	return checkReference(s)
}

// checkReference checks what follows a URI's scheme, or a whole relative reference: an optional "//" authority, the
// path, and the optional query and fragment, each of RFC 3986's characters for its part.
func checkReference(rest string) error {
	fragment, hasFragment := "", false
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest, fragment, hasFragment = rest[:i], rest[i+1:], true
	}
	query, hasQuery := "", false
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest, query, hasQuery = rest[:i], rest[i+1:], true
	}
	path := rest
	if strings.HasPrefix(rest, "//") {
		authority := rest[2:]
		path = ""
		if i := strings.IndexByte(authority, '/'); i >= 0 {
			authority, path = authority[:i], authority[i:]
		}
		if err := checkAuthority(authority); err != nil {
			return err
		}
	}
	if err := checkChars(path, "path", "/"); err != nil {
		return err
	}
	if hasQuery {
		if err := checkChars(query, "query", "/?"); err != nil {
			return err
		}
	}
	if hasFragment {
		if err := checkChars(fragment, "fragment", "/?"); err != nil {
			return err
		}
	}
	return nil
}

// checkChars checks that s is made of pchar (unreserved, pct-encoded, sub-delims, ":" and "@") and extra.
func checkChars(s, part, extra string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isUnreserved(c), strings.IndexByte(subDelims, c) >= 0, c == ':', c == '@', strings.IndexByte(extra, c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Errorf("%s: \"%%\" must start a percent-encoding (%%XX)", part)
			}
			i += 2
		default:
			return fmt.Errorf("%s: character %q is not allowed in a URI (percent-encode it)", part, c)
		}
	}
	return nil
}

func checkAuthority(a string) error {
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		userinfo := a[:i]
		if strings.IndexByte(userinfo, '@') >= 0 {
			return errors.New("userinfo: \"@\" is not allowed (percent-encode it)")
		}
		if err := checkChars(userinfo, "userinfo", ""); err != nil {
			return err
		}
		a = a[i+1:]
	}
	host := a
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return errors.New("host: \"[\" without \"]\"")
		}
		host = a[1:end]
		if err := checkIPLiteral(host); err != nil {
			return err
		}
		a = a[end+1:]
		if a != "" && a[0] != ':' {
			return errors.New("host: only a port may follow \"]\"")
		}
		host = ""
	} else if i := strings.LastIndexByte(a, ':'); i >= 0 {
		host, a = a[:i], a[i:]
	} else {
		a = ""
	}
	if a != "" {
		for i := 1; i < len(a); i++ {
			if !isDigit(a[i]) {
				return fmt.Errorf("port %q must be digits", a[1:])
			}
		}
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		switch {
		case isUnreserved(c), strings.IndexByte(subDelims, c) >= 0:
		case c == '%' && i+2 < len(host) && isHex(host[i+1]) && isHex(host[i+2]):
			i += 2
		default:
			return fmt.Errorf("host: character %q is not allowed", c)
		}
	}
	return nil
}

func checkIPLiteral(h string) error {
	if h != "" && (h[0] == 'v' || h[0] == 'V') {
		dot := strings.IndexByte(h, '.')
		if dot < 2 || dot == len(h)-1 {
			return errors.New("host: IPvFuture must be v<hex>.<chars>")
		}
		for i := 1; i < dot; i++ {
			if !isHex(h[i]) {
				return errors.New("host: IPvFuture version must be hex digits")
			}
		}
		for i := dot + 1; i < len(h); i++ {
			if c := h[i]; !isUnreserved(c) && strings.IndexByte(subDelims, c) < 0 && c != ':' {
				return fmt.Errorf("host: character %q is not allowed in IPvFuture", c)
			}
		}
		return nil
	}
	addr, err := netip.ParseAddr(h)
	if err != nil || !addr.Is6() || addr.Zone() != "" {
		return fmt.Errorf("host: [%s] is not an IPv6 address", h)
	}
	return nil
}

// IsUUID reports whether s is a UUID in RFC 4122 text form, the rule of the schemas' "uuid" format.
func IsUUID(s string) bool { return checkUUID(s) == nil }
