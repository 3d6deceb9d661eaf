package collector

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strings"
)

// ContinuationKeyEnv is the environment variable LoadContinuationKey reads: the continuation key as base64url
// (RFC 4648 §5, padding optional).
const ContinuationKeyEnv = "AQP_CONTINUATION_KEY"

// ContinuationKeySize is the length of a continuation key: 256 bits.
const ContinuationKeySize = 32

// maxKeyFile bounds a key file: base64url of 32 bytes is 43 characters; the rest is room for whitespace.
const maxKeyFile = 1024

// ParseContinuationKey decodes a continuation key written as base64url (padding optional, surrounding whitespace
// ignored) and checks that it is 32 bytes. Generate one with `head -c 32 /dev/urandom | basenc --base64url`.
func ParseContinuationKey(text string) ([]byte, error) {
	t := strings.TrimRight(strings.TrimSpace(text), "=")
	if t == "" {
		return nil, fmt.Errorf("continuation key is empty: want %d random bytes as base64url", ContinuationKeySize)
	}
	if i := strings.IndexAny(t, "+/"); i >= 0 {
		return nil, fmt.Errorf("continuation key has %q at character %d: it must be base64url (- and _), not standard base64", t[i], i+1)
	}
	key, err := base64.RawURLEncoding.DecodeString(t)
	if err != nil {
		return nil, fmt.Errorf("continuation key is not base64url: %v", err)
	}
	if len(key) != ContinuationKeySize {
		return nil, fmt.Errorf("continuation key is %d bytes; it must be %d (%d base64url characters)", len(key), ContinuationKeySize,
			base64.RawURLEncoding.EncodedLen(ContinuationKeySize))
	}
	return key, nil
}

// LoadContinuationKey returns the continuation key kept outside the store (D18): from the file at path when path
// is not empty, otherwise from the environment variable AQP_CONTINUATION_KEY, otherwise nil (the collector then
// uses the key in its store). Both hold the key as base64url. Every error names where the key came from.
func LoadContinuationKey(path string) ([]byte, error) {
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("continuation key file: %w", err)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
		if err != nil {
			return nil, fmt.Errorf("continuation key file %s: %w", path, err)
		}
		if len(data) > maxKeyFile {
			return nil, fmt.Errorf("continuation key file %s is larger than %d bytes: it must hold only the base64url key", path, maxKeyFile)
		}
		key, err := ParseContinuationKey(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return key, nil
	}
	text, ok := os.LookupEnv(ContinuationKeyEnv)
	if !ok {
		return nil, nil
	}
	key, err := ParseContinuationKey(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ContinuationKeyEnv, err)
	}
	return key, nil
}
