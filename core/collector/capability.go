package collector

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// capabilityBytes is the size of a capability's secret: 256 bits.
const capabilityBytes = 32

// newCapability returns a fresh random capability (256 bits, base64url without padding).
func newCapability(r io.Reader) (string, error) {
	b := make([]byte, capabilityBytes)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("collector: generating a capability: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// continuationCapability derives a continuation query's capability from the collector's secret key. A
// continuation travels inside the accepted receipt, and every duplicate submission must get that receipt byte for
// byte, so the collector has to be able to reproduce the capability; deriving it keeps it out of the store (only
// its hash and the receipt without it are stored) while staying unpredictable to anyone without the key.
func continuationCapability(key []byte, queryID string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("aqp continuation capability\x00"))
	m.Write([]byte(queryID))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// hashCapability is what the store keeps of a capability.
func hashCapability(c string) []byte {
	h := sha256.Sum256([]byte(c))
	return h[:]
}

// bearerToken extracts the token of an `Authorization: Bearer <token>` header value (scheme case-insensitive,
// RFC 9110 §11.1). It returns "" when the header is absent or not a bearer credential.
func bearerToken(header string) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// capabilityMatches compares a presented capability with the stored hash in constant time.
func capabilityMatches(presented string, stored []byte) bool {
	h := hashCapability(presented)
	return subtle.ConstantTimeCompare(h, stored) == 1
}
