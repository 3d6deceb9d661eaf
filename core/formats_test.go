package core

import (
	"testing"
)

// ParseDateTime is wire.ParseDateTime: its table is wire/datetime_test.go, and FuzzDateTime holds the two equal.

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
