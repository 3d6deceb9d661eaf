package storetest

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

var idState struct {
	sync.Mutex
	ms, seq int64
}

// newID returns a UUIDv7-shaped queryId that sorts after every id this process returned before, as the
// collector's UUIDv7s do; the listing tests depend on that order.
func newID() string {
	idState.Lock()
	ms := time.Now().UnixMilli()
	switch {
	case ms > idState.ms:
		idState.ms, idState.seq = ms, 0
	case idState.seq < 0xfff:
		idState.seq++
	default:
		idState.ms, idState.seq = idState.ms+1, 0
	}
	ms, seq := idState.ms, idState.seq
	idState.Unlock()
	var r [8]byte
	rand.Read(r[:])
	tail := binary.BigEndian.Uint64(r[:])&(1<<62-1) | 1<<63 // RFC 9562 variant bits
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		uint64(ms)>>16, uint64(ms)&0xffff, 0x7000|seq, tail>>48, tail&(1<<48-1))
}

// randomBytes returns n random bytes that always include a NUL and a 0xff byte, so a store that treats blobs as
// text or trims them fails the byte-exact comparisons.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	if n >= 2 {
		b[0], b[n-1] = 0x00, 0xff
	}
	return b
}

// base is a fixed instant with nanoseconds, so stores that keep less precision fail the round trip.
var base = time.Date(2026, 7, 30, 12, 34, 56, 123456789, time.UTC)

func newQuery(created time.Time, ttl time.Duration) collector.Query {
	id := newID()
	return collector.Query{
		QueryID:        id,
		Request:        append([]byte(`{"queryId":"`+id+`","prompt":"x"}`), 0x00, 0xff),
		CapabilityHash: randomBytes(32),
		CreatedAt:      created,
		ExpiresAt:      created.Add(ttl),
	}
}

func newAcceptance(queryID string, withContinuation bool) collector.Acceptance {
	a := collector.Acceptance{
		QueryID:     queryID,
		ResponseID:  newID(),
		Response:    randomBytes(300),
		ContentHash: randomBytes(32),
		Receipt:     randomBytes(200),
		AcceptedAt:  base.Add(time.Minute).Truncate(time.Millisecond),
	}
	if withContinuation {
		c := newQuery(a.AcceptedAt, time.Hour)
		a.Continuation = &c
	}
	return a
}

// cloneAcceptance deep-copies a, so the test keeps its own expectation while the store owns what it was given.
func cloneAcceptance(a collector.Acceptance) collector.Acceptance {
	a.Response, a.ContentHash, a.Receipt = bytes.Clone(a.Response), bytes.Clone(a.ContentHash), bytes.Clone(a.Receipt)
	if a.Continuation != nil {
		c := cloneQuery(*a.Continuation)
		a.Continuation = &c
	}
	return a
}

func cloneQuery(q collector.Query) collector.Query {
	q.Request, q.CapabilityHash = bytes.Clone(q.Request), bytes.Clone(q.CapabilityHash)
	return q
}

func cloneQueries(qs []collector.Query) []collector.Query {
	out := make([]collector.Query, len(qs))
	for i, q := range qs {
		out[i] = cloneQuery(q)
	}
	return out
}

// checkQuery fails t unless got equals want field by field: bytes exactly, times as the same instant in UTC.
func checkQuery(t testing.TB, what string, got, want collector.Query) {
	t.Helper()
	if got.QueryID != want.QueryID {
		t.Errorf("%s: QueryID = %q, want %q", what, got.QueryID, want.QueryID)
	}
	if !bytes.Equal(got.Request, want.Request) {
		t.Errorf("%s: Request = %q, want %q", what, got.Request, want.Request)
	}
	if !bytes.Equal(got.CapabilityHash, want.CapabilityHash) {
		t.Errorf("%s: CapabilityHash = %x, want %x", what, got.CapabilityHash, want.CapabilityHash)
	}
	checkTime(t, what+": CreatedAt", got.CreatedAt, want.CreatedAt)
	checkTime(t, what+": ExpiresAt", got.ExpiresAt, want.ExpiresAt)
}

func checkTime(t testing.TB, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s = %s, want %s", what, got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	}
	if got.Location() != time.UTC {
		t.Errorf("%s is in %v, want UTC", what, got.Location())
	}
}

// checkAcceptance fails t unless got equals want; the continuation is compared only when withContinuation (listings
// do not load it), and must then be present exactly when want has one.
func checkAcceptance(t testing.TB, what string, got, want *collector.Acceptance, withContinuation bool) {
	t.Helper()
	switch {
	case got == nil && want == nil:
		return
	case got == nil:
		t.Errorf("%s: no acceptance, want response %s", what, want.ResponseID)
		return
	case want == nil:
		t.Errorf("%s: acceptance of response %s, want none", what, got.ResponseID)
		return
	}
	if got.QueryID != want.QueryID || got.ResponseID != want.ResponseID {
		t.Errorf("%s: acceptance of %s/%s, want %s/%s", what, got.QueryID, got.ResponseID, want.QueryID, want.ResponseID)
	}
	for _, f := range []struct {
		name      string
		got, want []byte
	}{
		{"Response", got.Response, want.Response},
		{"ContentHash", got.ContentHash, want.ContentHash},
		{"Receipt", got.Receipt, want.Receipt},
	} {
		if !bytes.Equal(f.got, f.want) {
			t.Errorf("%s: %s = %x, want %x", what, f.name, f.got, f.want)
		}
	}
	checkTime(t, what+": AcceptedAt", got.AcceptedAt, want.AcceptedAt)
	if !withContinuation {
		if got.Continuation != nil {
			t.Errorf("%s: listing loaded continuation %s", what, got.Continuation.QueryID)
		}
		return
	}
	switch {
	case got.Continuation == nil && want.Continuation != nil:
		t.Errorf("%s: no continuation, want %s", what, want.Continuation.QueryID)
	case got.Continuation != nil && want.Continuation == nil:
		t.Errorf("%s: continuation %s, want none", what, got.Continuation.QueryID)
	case got.Continuation != nil:
		checkQuery(t, what+": continuation", *got.Continuation, *want.Continuation)
	}
}
