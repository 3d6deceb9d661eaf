package respondent

import (
	"fmt"
	"slices"
	"sync"
)

// Registry holds one Transport per binding: the runtime delivers a response through the transport registered for
// the binding its query's delivery names. It is the one place a new binding's client is added (see
// bindings.Registry), so a query naming a binding nobody registered is dropped on arrival, with that reason.
type Registry struct {
	mu sync.RWMutex
	m  map[string]Transport
}

// NewRegistry returns a registry holding ts; two transports for one binding are an error.
func NewRegistry(ts ...Transport) (*Registry, error) {
	r := &Registry{m: map[string]Transport{}}
	for _, t := range ts {
		if err := r.Add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers t for its binding; a binding already registered is an error, not a silent replacement.
func (r *Registry) Add(t Transport) error {
	if t == nil {
		return fmt.Errorf("respondent: registering a nil transport")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]Transport{}
	}
	b := t.Binding()
	if b == "" {
		return fmt.Errorf("respondent: a transport (%T) names no binding", t)
	}
	if _, dup := r.m[b]; dup {
		return fmt.Errorf("respondent: a transport for binding %q is already registered", b)
	}
	r.m[b] = t
	return nil
}

// Get returns the transport for binding.
func (r *Registry) Get(binding string) (Transport, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.m[binding]
	return t, ok
}

// Bindings lists the registered bindings, sorted, for messages and the demo.
func (r *Registry) Bindings() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.m))
	for b := range r.m {
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}
