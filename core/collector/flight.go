package collector

import "sync"

// flights coalesces identical submissions in flight (D36): while one submission of a query's response is being
// decided — validated, checked, committed — every identical copy (same query, same content hash, D16) waits for
// its outcome instead of being decided again. A copy then neither spends the per-query budget a second time nor
// sees "no acceptance yet" while the acceptance is committing, so every racing copy of the accepted response gets
// the accepted receipt, however many race and however slow the store's commit.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

// flight is one submission being decided; done is closed once out is set.
type flight struct {
	done chan struct{}
	out  Outcome
}

// join returns the flight deciding key, and whether the caller leads it (and must land it).
func (f *flights) join(key string) (*flight, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl, ok := f.m[key]; ok {
		return fl, false
	}
	if f.m == nil {
		f.m = map[string]*flight{}
	}
	fl := &flight{done: make(chan struct{})}
	f.m[key] = fl
	return fl, true
}

// land records the leader's outcome, releases every waiting copy and forgets the flight: a copy arriving later
// finds the acceptance in the store, or is decided on its own.
func (f *flights) land(key string, fl *flight, out Outcome) {
	f.mu.Lock()
	delete(f.m, key)
	f.mu.Unlock()
	fl.out = out
	close(fl.done)
}
