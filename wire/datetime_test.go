package wire_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/wire"
)

func TestParseDateTime(t *testing.T) {
	utc := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	valid := []struct {
		in   string
		want time.Time
	}{
		{"2026-07-30T17:05:12Z", utc("2026-07-30T17:05:12Z")},
		{"2026-07-30t17:05:12z", utc("2026-07-30T17:05:12Z")},
		{"2026-07-30T19:05:12+02:00", utc("2026-07-30T17:05:12Z")},
		{"2026-07-30T17:05:12.123456789123Z", utc("2026-07-30T17:05:12.123456789Z")},
		{"2024-02-29T00:00:00Z", utc("2024-02-29T00:00:00Z")},
		{"2016-12-31T23:59:60Z", utc("2017-01-01T00:00:00Z")},
		{"2016-12-31T15:59:60-08:00", utc("2017-01-01T00:00:00Z")},
		{"0000-01-01T00:00:00Z", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, v := range valid {
		got, err := wire.ParseDateTime(v.in)
		if err != nil || !got.Equal(v.want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v", v.in, got, err, v.want)
		}
	}
	invalid := []string{
		"2026-07-30T17:05:12", "2026-07-30 17:05:12Z", "2026-07-30T17:05:12+0200", "2026-07-30T17:05:12+02",
		"2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-07-30T24:00:00Z", "2026-07-30T23:60:00Z", "2026-07-30T12:00:60Z", "2026-07-30T23:59:61Z",
		"2026-07-30T17:05:12.Z", "2026-07-30T17:05:12+24:00", "2026-07-30T17:05:12+02:60", "26-07-30T17:05:12Z",
		"2026-07-30T17:05:12ZZ", "+2026-07-30T17:05:12Z", "2026-07-30T1:05:12Z", "",
	}
	for _, in := range invalid {
		if _, err := wire.ParseDateTime(in); err == nil {
			t.Errorf("ParseDateTime(%q) accepted an invalid date-time", in)
		}
	}
}

// TestDateTimeRoundTrip: every form RFC 3339 allows decodes and encodes back to the same text, which time.Time
// cannot do for the lowercase, leap-second, long-fraction and offset forms.
func TestDateTimeRoundTrip(t *testing.T) {
	for _, text := range []string{
		`"2026-07-30T17:05:12Z"`, `"2026-07-30t17:05:12z"`, `"2016-12-31T23:59:60Z"`,
		`"2026-07-30T17:05:12.123456789123Z"`, `"2026-07-30T19:05:12+02:00"`, `"2026-07-30T17:05:12.000Z"`,
	} {
		var d wire.DateTime
		if err := json.Unmarshal([]byte(text), &d); err != nil {
			t.Errorf("Unmarshal(%s): %v", text, err)
			continue
		}
		out, err := json.Marshal(d)
		if err != nil || string(out) != text {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v", text, out, err)
		}
		if _, err := d.Time(); err != nil {
			t.Errorf("%s.Time(): %v", text, err)
		}
	}
	// An escaped character decodes to the date-time it spells.
	var d wire.DateTime
	if err := json.Unmarshal([]byte(`"2026-07-30\u005417:05:12Z"`), &d); err != nil || d != "2026-07-30T17:05:12Z" {
		t.Errorf("escaped T: %q, %v", d, err)
	}
}

func TestDateTimeRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"2026-07-30T17:05:12.5"`, "an offset is required"},
		{`"yesterday"`, "too short"},
		{`1785430000`, "must be a JSON string, got a number"},
		{`{}`, "must be a JSON string, got an object"},
		{`true`, "must be a JSON string, got a boolean"},
	} {
		var d wire.DateTime
		err := json.Unmarshal([]byte(c.in), &d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
	// Encoding writes any text, so that a validator can point at the member that holds it.
	if out, err := json.Marshal(wire.DateTime("2026-07-30 17:05:12Z")); err != nil || string(out) != `"2026-07-30 17:05:12Z"` {
		t.Errorf("Marshal = %s, %v", out, err)
	}
	// null leaves the value as it was, as encoding/json does.
	d := wire.DateTime("2026-07-30T17:05:12Z")
	if err := json.Unmarshal([]byte(`null`), &d); err != nil || d != "2026-07-30T17:05:12Z" {
		t.Errorf("Unmarshal(null) = %q, %v", d, err)
	}
}

func TestNewDateTime(t *testing.T) {
	at := time.Date(2026, 7, 30, 19, 5, 13, 987654321, time.FixedZone("", 2*3600))
	if got := wire.NewDateTime(at); got != "2026-07-30T17:05:13.987Z" {
		t.Errorf("NewDateTime = %q", got)
	}
	if got := wire.NewDateTime(time.Date(2026, 7, 30, 17, 5, 13, 0, time.UTC)); got != "2026-07-30T17:05:13.000Z" {
		t.Errorf("NewDateTime = %q", got)
	}
}
