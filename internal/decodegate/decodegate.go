// Package decodegate bounds how many requests a binding decodes at once where the decoding is not its own: a
// library that turns a body into generic values (mcp-go's JSON-RPC dispatch, grpc-go's protobuf Structs) costs
// many times the body's size in memory before anything is known about the sender, so the number of such decodings
// in flight — not the number of connections — must bound the process's memory (issue 16, item 1; D34).
package decodegate

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
)

// Gate admits at most its capacity of holders at once; the zero Gate is not usable, use New.
type Gate struct {
	slots   chan struct{}
	waiting atomic.Int64
}

// New returns a gate of n slots; n <= 0 means Default.
func New(n int) *Gate {
	if n <= 0 {
		n = Default()
	}
	return &Gate{slots: make(chan struct{}, n)}
}

// Default is the capacity a binding's gate has unless told otherwise: GOMAXPROCS, at least 2. A decoding uses a
// CPU throughout, so more in flight would only share the CPUs and add memory.
func Default() int { return max(2, runtime.GOMAXPROCS(0)) }

// Enter waits for a slot until ctx ends, reporting whether it got one; a holder calls Leave once.
func (g *Gate) Enter(ctx context.Context) bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	select {
	case g.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// Waiting is how many callers of Enter are waiting for a slot now.
func (g *Gate) Waiting() int { return int(g.waiting.Load()) }

// Cap is the gate's number of slots.
func (g *Gate) Cap() int { return cap(g.slots) }

// Leave gives back a slot taken by Enter.
func (g *Gate) Leave() { <-g.slots }

// Handler serves h with a slot held for the whole request; a request whose context ends while it waits gets 503
// with Retry-After: 1 (an HTTP/2 gRPC client sees Unavailable, which it may retry).
func (g *Gate) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.admit(w, r) {
			return
		}
		defer g.Leave()
		h.ServeHTTP(w, r)
	})
}

// admit takes a slot for r, or, when r's context ends while it waits, answers 503 with Retry-After: 1.
func (g *Gate) admit(w http.ResponseWriter, r *http.Request) bool {
	if g.Enter(r.Context()) {
		return true
	}
	w.Header().Set("Retry-After", "1")
	http.Error(w, "the server is busy", http.StatusServiceUnavailable)
	return false
}

// HandlerUntilDecoded is Handler for a library that decodes the whole request before it calls the binding's code
// (grpc-go's unary dispatch): the slot is held from arrival until that code calls Decoded with the request's
// context, or until the request ends, whichever is first. What follows the decoding — validation, the durable
// commit, the reply — holds no slot, so a store's group commit can batch more submissions than the gate has
// slots, as it does for every other binding; the memory the gate bounds is the decoding's, which is over by then.
func (g *Gate) HandlerUntilDecoded(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.admit(w, r) {
			return
		}
		held := &slot{leave: g.Leave}
		defer held.release()
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), slotKey{}, held)))
	})
}

// Decoded gives back, once, the slot HandlerUntilDecoded holds for the request whose context (or a context derived
// from it) is ctx; on any other context it does nothing.
func Decoded(ctx context.Context) {
	if held, ok := ctx.Value(slotKey{}).(*slot); ok {
		held.release()
	}
}

type slotKey struct{}

// slot is one request's hold on a gate, given back exactly once.
type slot struct {
	once  sync.Once
	leave func()
}

func (s *slot) release() { s.once.Do(s.leave) }
