package core

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"
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

// ParseDateTime parses an RFC 3339 date-time (§5.6) into an instant. Unlike time.Parse it accepts every form the
// RFC allows — lowercase "t" and "z", any number of fraction digits, a leap second (23:59:60 in UTC, counted as
// the first instant of the next day) — and rejects every form it does not: a missing offset, an offset without a
// colon, a space for "T", out-of-range fields.
func ParseDateTime(s string) (time.Time, error) {
	// full-date "T" partial-time time-offset; the shortest is 2006-01-02T15:04:05Z (20 bytes).
	if len(s) < 20 {
		return time.Time{}, fmt.Errorf("too short for an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss and an offset)")
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			if !isDigit(s[i]) {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, errors.New("date must be YYYY-MM-DD")
	}
	if month < 1 || month > 12 {
		return time.Time{}, fmt.Errorf("month %02d is out of range 01-12", month)
	}
	if day < 1 || day > daysIn(year, month) {
		return time.Time{}, fmt.Errorf("day %02d is out of range for %04d-%02d", day, year, month)
	}
	if s[10] != 'T' && s[10] != 't' {
		return time.Time{}, fmt.Errorf("date and time must be separated by \"T\", got %q", s[10])
	}
	hour, ok1 := num(11, 13)
	minute, ok2 := num(14, 16)
	second, ok3 := num(17, 19)
	if !ok1 || !ok2 || !ok3 || s[13] != ':' || s[16] != ':' {
		return time.Time{}, errors.New("time must be hh:mm:ss")
	}
	if hour > 23 || minute > 59 || second > 60 {
		return time.Time{}, fmt.Errorf("time %02d:%02d:%02d is out of range", hour, minute, second)
	}
	rest := s[19:]
	nanos := 0
	if rest != "" && rest[0] == '.' {
		i := 1
		for i < len(rest) && isDigit(rest[i]) {
			if i <= 9 {
				nanos = nanos*10 + int(rest[i]-'0')
			}
			i++
		}
		if i == 1 {
			return time.Time{}, errors.New("a fraction of a second needs at least one digit after \".\"")
		}
		for d := i - 1; d < 9; d++ {
			nanos *= 10
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(len(s)-5, len(s)-3)
		om, ok2 := num(len(s)-2, len(s))
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return time.Time{}, fmt.Errorf("offset %q is out of range (+hh:mm, hh 00-23, mm 00-59)", rest)
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	case rest == "":
		return time.Time{}, errors.New("an offset is required (\"Z\" or +hh:mm/-hh:mm)")
	default:
		return time.Time{}, fmt.Errorf("offset must be \"Z\" or +hh:mm/-hh:mm, got %q", rest)
	}
	leap := second == 60
	if leap {
		second = 59
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.FixedZone("", offset))
	if leap {
		if u := t.UTC(); u.Hour() != 23 || u.Minute() != 59 {
			return time.Time{}, errors.New("a leap second (:60) can only be 23:59:60 in UTC")
		}
		t = t.Add(time.Second)
	}
	return t, nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

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
	rest := s[colon+1:]
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

const subDelims = "!$&'()*+,;="

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
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
