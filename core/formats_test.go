package core

import (
	"testing"
	"time"
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
		got, err := ParseDateTime(v.in)
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
		if _, err := ParseDateTime(in); err == nil {
			t.Errorf("ParseDateTime(%q) accepted an invalid date-time", in)
		}
	}
}

func TestCheckURI(t *testing.T) {
	for _, in := range []string{
		"https://queries.example/responses", "http://127.0.0.1:8080/aqp/v1/responses", "urn:x", "a:", "mailto:a@b.c",
		"https://[::1]:80/x", "https://[v1.x]/", "https://u:p@h/p?q=1#f", "https://h/%41", "file:///etc/x", "h:?q", "h:#f",
	} {
		if err := checkURI(in); err != nil {
			t.Errorf("checkURI(%q) = %v, want valid", in, err)
		}
	}
	for _, in := range []string{
		"", "/relative", "queries.example/responses", "https://exa mple.com/", "https://é.example/", "https://h/é",
		"1http://x", "ht_tp://x", "https://host:port/", "https://a:b:c/", "https://user@host@x/", "https://[::1/",
		"https://[fe80::1%25eth0]/", "https://h/%4", "https://h/%zz", "https://h/#a#b", "https://h/a\\b", "https://h/<>",
	} {
		if err := checkURI(in); err == nil {
			t.Errorf("checkURI(%q) accepted an invalid URI", in)
		}
	}
}

func TestCheckUUID(t *testing.T) {
	for _, in := range []string{"0198c7cb-1af1-7e79-bd7f-02f8a89b8857", "0198C7CB-1AF1-7E79-BD7F-02F8A89B8857", "00000000-0000-0000-0000-000000000000"} {
		if !IsUUID(in) {
			t.Errorf("IsUUID(%q) = false", in)
		}
	}
	for _, in := range []string{"", "0198c7cb1af17e79bd7f02f8a89b8857", "{0198c7cb-1af1-7e79-bd7f-02f8a89b8857}",
		"urn:uuid:0198c7cb-1af1-7e79-bd7f-02f8a89b8857", "0198c7cb-1af1-7e79-bd7f-02f8a89b885g", "0198c7cb-1af17-e79-bd7f-02f8a89b8857"} {
		if IsUUID(in) {
			t.Errorf("IsUUID(%q) = true", in)
		}
	}
}
