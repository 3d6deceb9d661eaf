package decodegate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// TestGate: at most Cap holders at once; a caller past them waits (counted by Waiting) until a slot is left or
// its context ends; the Handler answers a request that gave up waiting 503 with Retry-After.
func TestGate(t *testing.T) {
	for _, n := range []int{1, 3} {
		g := New(n)
		if g.Cap() != n {
			t.Fatalf("Cap %d, want %d", g.Cap(), n)
		}
		for i := 0; i < n; i++ {
			if !g.Enter(context.Background()) {
				t.Fatal("a free slot was refused")
			}
		}
		got := make(chan bool)
		go func() { got <- g.Enter(context.Background()) }()
		for g.Waiting() != 1 {
			runtime.Gosched()
		}
		g.Leave()
		if !<-got {
			t.Fatal("a waiter did not get the slot left")
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if g.Enter(ctx) {
			t.Fatal("a full gate admitted a caller whose context had ended")
		}
		w := httptest.NewRecorder()
		g.Handler(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequestWithContext(ctx, http.MethodPost, "/", nil))
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
			t.Fatalf("gave up waiting: %d %v", w.Code, w.Header())
		}
	}
	if New(0).Cap() != Default() || Default() < 2 {
		t.Fatalf("New(0) has %d slots, Default %d", New(0).Cap(), Default())
	}
}
