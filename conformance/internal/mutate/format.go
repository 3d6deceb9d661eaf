package mutate

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

var (
	dateTimeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}`)
	uuidRE     = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	uriRE      = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// format perturbs a date-time, uuid or uri at the edges of its grammar.
func (g *Generator) format(doc any) (any, string, bool) {
	n, ok := g.choose(doc, func(n node) bool {
		s, ok := n.v.(string)
		return ok && (dateTimeRE.MatchString(s) || uuidRE.MatchString(s) || uriRE.MatchString(s))
	})
	if !ok {
		return nil, "", false
	}
	s := n.v.(string)
	var vs []string
	switch {
	case dateTimeRE.MatchString(s):
		vs = dateTimes(s)
	case uuidRE.MatchString(s):
		vs = uuids(s)
	default:
		vs = uris(s)
	}
	v := vs[g.rng.IntN(len(vs))]
	return set(doc, n.path, v, false), fmt.Sprintf("%s %q -> %q", pointer(n.path), s, v), true
}

func dateTimes(s string) []string {
	date, clock := s[:10], "19:00:00"
	if len(s) >= 19 {
		clock = s[11:19]
	}
	out := []string{
		date + "t" + clock + "z", date + " " + clock + "Z", date + "_" + clock + "Z", date + "T" + clock,
		date + "T" + clock + "+01:00", date + "T" + clock + "-00:00", date + "T" + clock + "+0100", date + "T" + clock + "+01",
		date + "T" + clock + "+23:59", date + "T" + clock + "+24:00", date + "T" + clock + "-12:60", date + "T" + clock + "+1:00",
		date + "T" + clock + ".5Z", date + "T" + clock + ".123456789Z", date + "T" + clock + ".Z", date + "T" + clock + ",5Z",
		date + "T" + clock[:5] + "Z", date + "T23:59:60Z", date + "T23:59:60+01:00", date + "T12:59:60Z", date + "T24:00:00Z",
		date + "T23:60:00Z", date + "T23:59:61Z", date + "T00:00:00Z",
		"2026-02-29T" + clock + "Z", "2024-02-29T" + clock + "Z", "2100-02-29T" + clock + "Z", "2000-02-29T" + clock + "Z",
		"2026-04-31T" + clock + "Z", "2026-00-10T" + clock + "Z", "2026-13-10T" + clock + "Z", "2026-07-00T" + clock + "Z",
		"2026-07-32T" + clock + "Z", "0000-01-01T" + clock + "Z", "9999-12-31T23:59:59Z", "+2026-07-30T" + clock + "Z",
		"20260730T190000Z", date, date + "T" + clock + "Z ", " " + date + "T" + clock + "Z", "2026-7-30T" + clock + "Z",
		date + "T" + clock + "Z" + "\n", date + "T" + clock + "\u00a0Z", "２０２６" + s[4:],
	}
	return out
}

func uuids(s string) []string {
	l := strings.ToLower(s)
	return []string{
		strings.ToUpper(s), "urn:uuid:" + l, "URN:UUID:" + l, "{" + l + "}", strings.ReplaceAll(l, "-", ""),
		"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", l[:8] + l[9:13] + "-" + l[13:],
		l[:len(l)-1], l + "0", "g" + l[1:], l[:14] + "0" + l[15:], l[:14] + "9" + l[15:], l[:19] + "c" + l[20:],
		" " + l, l + "\n", strings.ReplaceAll(l, "-", "_"), l[:8] + "--" + l[9:],
	}
}

func uris(s string) []string {
	return []string{
		"https://queries.example:443/responses", "https://queries.example:0/x", "https://queries.example:65535/x",
		"https://queries.example:65536/x", "https://queries.example:84a3/x", "https://queries.example:/x",
		"https://user:pw@queries.example/x", "https://[::1]/x", "https://[::1/x", "https://[v1.x]/x", "https://[::1]:8443/x",
		"https://192.0.2.1/x", "https://999.0.2.1/x", "http://", "https:", "https:x", "//queries.example/x", "/responses",
		"responses", "https://queries.example/a b", "https://queries.example/%zz", "https://queries.example/%41",
		"https://queries.example/x#frag", "https://queries.example/x#a#b", "https://queries.example/x?a=b&c",
		"mailto:a@example.com", "urn:isbn:0451450523", "https://queries.example/é", "https://exa mple/x",
		"1http://x", "https://queries.example\\x", "https://a:b:c/x", "HTTPS://QUERIES.EXAMPLE/X", "h+t-t.p://x",
		"https://queries.example/x|y", "https://queries.example/x`y", "https://queries.example/x{y}", "https://queries.example/x^",
		"https://queries.example/x\"y", "https://%41.example/x", "https://-x.example/x", "https://" + strings.Repeat("a", 64) + ".example/",
		s + " ", s + "/", s + "?", s + "#",
	}
}

// addDecimal returns a+b for two decimal numbers, written plainly (no exponent); it returns a when either does
// not parse.
func addDecimal(a, b string) string {
	x, ok1 := new(big.Rat).SetString(a)
	y, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return a
	}
	z := new(big.Rat).Add(x, y)
	if z.IsInt() {
		return z.Num().String()
	}
	t := z.FloatString(40)
	t = strings.TrimRight(t, "0")
	return strings.TrimSuffix(t, ".")
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
