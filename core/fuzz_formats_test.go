package core_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/fuzzseed"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// dateTimeSeeds are date-times at the edges of RFC 3339 §5.6 and of D4/D15: leap seconds, lowercase, long
// fractions, extreme offsets and years, and the near misses a lax parser accepts.
var dateTimeSeeds = []string{
	"2026-07-30T17:05:12Z", "2026-07-30t17:05:12z", "2026-07-30T19:05:12+02:00", "2026-07-30T17:05:12-00:00",
	"2026-07-30T17:05:12.123456789123Z", "2026-07-30T17:05:12.000000000000000000000000000000001Z",
	"2016-12-31T23:59:60Z", "2016-12-31T15:59:60-08:00", "2016-12-31T23:59:60+00:01", "9999-12-31T23:59:60Z",
	"0000-01-01T00:00:00Z", "0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59.999999999-23:59", "2024-02-29T00:00:00Z",
	"2100-02-29T00:00:00Z", "2026-07-30T17:05:12", "2026-07-30 17:05:12Z", "2026-07-30T17:05:12+0200",
	"2026-07-30T17:05:12,5Z", "2026-07-30T17:05:12.Z", "2026-07-30T17:05:12+24:00", "2026-07-30T1:05:12Z",
	"+2026-07-30T17:05:12Z", "2026-07-30T17:05:12ZZ", "2026-07-30T17:05:12\u00a0Z", "２０２６-07-30T17:05:12Z",
	"2026-07-30T17:05:12.5+02:00\x00", "2026-07-30T24:00:00Z", "2026-07-30T23:59:60Z", "", "\xff\xfe",
}

// FuzzDateTime: core.ParseDateTime and wire.ParseDateTime never panic and agree; a date-time they accept names an
// instant that Time gives too, and that formatted back as RFC 3339 parses to the same instant. Go's own
// time.Parse(time.RFC3339Nano) is the reference for the forms both read — uppercase "T" and "Z", no leap second,
// at most nine fraction digits, a "." before them — so each must accept what the other accepts there, at the same
// instant. The schemas' date-time format (a response's createdAt) agrees with ParseDateTime.
func FuzzDateTime(f *testing.F) {
	for _, s := range dateTimeSeeds {
		f.Add(s)
	}
	for _, s := range fuzzseed.Values() {
		f.Add(string(s.Bytes))
		f.Add("2026-07-30T17:05:12" + string(s.Bytes))
	}
	f.Add("2026-07-30T17:05:12." + strings.Repeat("9", fuzzseed.LongName) + "Z")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := core.ParseDateTime(s)
		w, werr := wire.ParseDateTime(s)
		if (err == nil) != (werr == nil) || err == nil && !got.Equal(w) {
			t.Fatalf("core and wire disagree on %q: %v, %v / %v, %v", s, got, err, w, werr)
		}
		if tt, terr := wire.DateTime(s).Time(); (terr == nil) != (err == nil) || err == nil && !tt.Equal(got) {
			t.Fatalf("DateTime(%q).Time() = %v, %v; ParseDateTime = %v, %v", s, tt, terr, got, err)
		}
		if err != nil && err.Error() == "" {
			t.Fatalf("%q refused without a reason", s)
		}
		if err == nil {
			// A leap second at the end of 9999 names the first instant of 10000, which RFC 3339 cannot write.
			if got.Year() <= 9999 {
				back := got.Format(time.RFC3339Nano)
				again, err := core.ParseDateTime(back)
				if err != nil || !again.Equal(got) {
					t.Fatalf("%q is %v; formatted back as %q it parses to %v, %v", s, got, back, again, err)
				}
			}
		}
		if ref, rerr := time.Parse(time.RFC3339Nano, s); rerr == nil && goForm(s) {
			if err != nil || !got.Equal(ref) {
				t.Fatalf("time.Parse reads %q as %v; ParseDateTime: %v, %v", s, ref, got, err)
			}
		} else if err == nil && goForm(s) && !strings.Contains(s, ":60") {
			t.Fatalf("ParseDateTime reads %q as %v; time.Parse refuses it: %v", s, got, rerr)
		}
		if utf8.ValidString(s) {
			text, _ := json.Marshal(s)
			doc := core.Parse(core.KindResponse, bytes.Replace(fuzzResponse(`"answer":"x"`), []byte(`"createdAt":"2026-07-30T17:05:12Z"`), append([]byte(`"createdAt":`), text...), 1))
			failed := false
			for _, e := range doc.Errors {
				if e.Pointer == "/createdAt" {
					failed = true
				}
			}
			if failed != (err != nil) {
				t.Fatalf("createdAt %q: the schema's verdict (%v) differs from ParseDateTime's (%v)", s, doc.Errors, err)
			}
		}
	})
}

// goForm reports whether s is written the way time.Parse(time.RFC3339Nano) reads it and RFC 3339 allows: an
// uppercase "T", an uppercase "Z" if any, a fraction (if any) of one to nine digits after a ".", and an offset
// hour below 24 (time.Parse reads "+24:00" to "+99:59", which RFC 3339's time-hour does not allow).
func goForm(s string) bool {
	if len(s) < 20 || s[10] != 'T' || strings.ContainsAny(s, "z,") {
		return false
	}
	if n := len(s); s[n-1] != 'Z' && n >= 6 && (s[n-6] == '+' || s[n-6] == '-') && s[n-5:n-3] >= "24" {
		return false
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		n := 0
		for i+1+n < len(s) && '0' <= s[i+1+n] && s[i+1+n] <= '9' {
			n++
		}
		return n <= 9
	}
	return true
}

// FuzzUUID: core.IsUUID never panics and agrees with github.com/google/uuid on 36-character strings (the RFC 4122
// text form is the only one of uuid.Parse's forms with 36 characters, and the only one the schemas accept), and
// with the schemas' uuid format (a response's responseId).
func FuzzUUID(f *testing.F) {
	for _, s := range []string{
		"0198c7d0-2180-7729-b005-d33c99fc7452", "0198C7D0-2180-7729-B005-D33C99FC7452", "00000000-0000-0000-0000-000000000000",
		"urn:uuid:0198c7d0-2180-7729-b005-d33c99fc7452", "{0198c7d0-2180-7729-b005-d33c99fc7452}",
		"0198c7d021807729b005d33c99fc7452", "0198c7d0-2180-7729-b005-d33c99fc745", "0198c7d0-2180-7729-b005-d33c99fc74522",
		"0198c7d0+2180-7729-b005-d33c99fc7452", "0198c7d0-2180-7729-b005-d33c99fc745g", "0198c7d0-2180-7729-b005-d33c99fc745\u00e9",
		"0198c7d0-2180-7729-b005-d33c99fc7452\n", " 0198c7d0-2180-7729-b005-d33c99fc7452", "", "\xff",
	} {
		f.Add(s)
	}
	for _, s := range fuzzseed.Values() {
		f.Add(string(s.Bytes))
	}
	f.Fuzz(func(t *testing.T, s string) {
		ok := core.IsUUID(s)
		_, err := uuid.Parse(s)
		if ref := len(s) == 36 && err == nil; ok != ref {
			t.Fatalf("IsUUID(%q) = %v; github.com/google/uuid says %v (%v)", s, ok, ref, err)
		}
		if !utf8.ValidString(s) {
			return
		}
		text, _ := json.Marshal(s)
		doc := core.Parse(core.KindResponse, bytes.Replace(fuzzResponse(`"answer":"x"`), []byte(`"responseId":"0198c7d0-2180-7729-b005-d33c99fc7452"`), append([]byte(`"responseId":`), text...), 1))
		failed := false
		for _, e := range doc.Errors {
			if e.Pointer == "/responseId" {
				failed = true
			}
		}
		if failed == ok {
			t.Fatalf("responseId %q: the schema's verdict (%v) differs from IsUUID's (%v)", s, doc.Errors, ok)
		}
	})
}
