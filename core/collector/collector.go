// Package collector is the binding-agnostic half of AQP that receives answers: it issues queries from drafts with
// scoped capabilities, checks each submitted response in the pinned order (§5 of the design), accepts at most one
// response per query, and returns receipts — byte-identical for duplicates, durable before they are returned.
// It knows nothing of HTTP, MCP or A2A; a binding hands it the submitted bytes and the Authorization header
// and maps its Outcome onto the wire.
package collector

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// Config is what a Collector is built from. Store and PublicURL are required; the rest have defaults.
type Config struct {
	// Store keeps queries and acceptances.
	Store Store
	// PublicURL is the base URL respondents reach this collector at; delivery.endpoint is built from it.
	PublicURL string
	// Endpoints are the bindings this collector serves, as each binding declares them (at least one). A draft or
	// a continuation rule that names another binding is refused, so no query ever names an endpoint nobody
	// answers at.
	Endpoints []Endpoint
	// Rules are the continuation rules; nil issues no follow-ups.
	Rules *Rules
	// Clock returns the current time; default time.Now. Times are truncated to milliseconds.
	Clock func() time.Time
	// NewID returns a fresh queryId; default a UUIDv7.
	NewID func() (string, error)
	// Random is the source of capabilities and of the continuation key; default crypto/rand. It must be safe for
	// concurrent use.
	Random io.Reader
	// RateLimit bounds the submissions that carry a query's capability, per query; the zero value uses
	// DefaultRateLimit.
	RateLimit RateLimit
	// FailureLimit bounds, per client, the submissions that fail before a capability is proven (malformed,
	// unknown query, wrong capability); past it the client's submissions get rate_limited without being
	// validated. The zero value uses DefaultFailureLimit.
	FailureLimit RateLimit
	// MaxConcurrentValidations bounds how many submissions are decoded and validated at once, which bounds the
	// memory a flood of large bodies can take; default twice GOMAXPROCS (at least 4).
	MaxConcurrentValidations int
	// StoreTimeout bounds every store call; one that does not finish in time gives a retryable `unavailable`
	// receipt (and an error from Issue, Lookup, List and Ready). Default DefaultStoreTimeout.
	StoreTimeout time.Duration
	// UnavailableRetryAfter is the retryAfter of an `unavailable` receipt; default 1 second.
	UnavailableRetryAfter time.Duration
	// Logger receives store failures; default slog.Default().
	Logger *slog.Logger
	// ContinuationKey, when set, is the 32-byte key continuation capabilities are derived from (D18), used instead
	// of the key the collector keeps in its store: whoever can read the store then still cannot derive them. Every
	// process sharing a store must be given the same key, and changing it invalidates the capabilities of
	// continuations already issued. LoadContinuationKey reads one from a file or AQP_CONTINUATION_KEY.
	ContinuationKey []byte
}

// Collector issues queries and decides submissions. It is safe for concurrent use, and several Collectors in
// several processes may share one Store.
type Collector struct {
	store     Store
	publicURL string
	endpoints endpointSet
	rules     *Rules
	clock     func() time.Time
	newID     func() (string, error)
	random    io.Reader
	limiter   *limiter // per query, spent by capability holders
	failures  *limiter // per client, spent by failures before a capability is proven
	validate  gate
	retry     int
	log       *slog.Logger
	failLog   *failureLog
	requests  *requestCache
	flights   flights // identical submissions in flight (D36)

	keyMu sync.Mutex // guards key
	key   []byte
}

// New builds a Collector.
func New(cfg Config) (*Collector, error) {
	if cfg.Store == nil {
		return nil, errors.New("collector: Config.Store is required")
	}
	if cfg.PublicURL == "" {
		return nil, errors.New("collector: Config.PublicURL is required")
	}
	endpoints, err := newEndpointSet(cfg.Endpoints)
	if err != nil {
		return nil, err
	}
	if err := cfg.Rules.checkBindings(endpoints); err != nil {
		return nil, err
	}
	c := &Collector{
		store:     cfg.Store,
		publicURL: cfg.PublicURL,
		endpoints: endpoints,
		rules:     cfg.Rules,
		clock:     cfg.Clock,
		newID:     cfg.NewID,
		random:    cfg.Random,
		log:       cfg.Logger,
		requests:  newRequestCache(8192, 32<<20),
	}
	if c.clock == nil {
		c.clock = time.Now
	}
	if c.newID == nil {
		c.newID = func() (string, error) {
			id, err := uuid.NewV7()
			return id.String(), err
		}
	}
	if c.random == nil {
		c.random = rand.Reader
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if cfg.ContinuationKey != nil {
		if len(cfg.ContinuationKey) != ContinuationKeySize {
			return nil, fmt.Errorf("collector: Config.ContinuationKey is %d bytes; it must be %d", len(cfg.ContinuationKey), ContinuationKeySize)
		}
		c.key = append([]byte(nil), cfg.ContinuationKey...)
	}
	c.limiter = newLimiter(cfg.RateLimit, DefaultRateLimit)
	c.failures = newLimiter(cfg.FailureLimit, DefaultFailureLimit)
	n := cfg.MaxConcurrentValidations
	if n <= 0 {
		n = max(4, 2*runtime.GOMAXPROCS(0))
	}
	c.validate = newGate(n)
	timeout := cfg.StoreTimeout
	if timeout <= 0 {
		timeout = DefaultStoreTimeout
	}
	c.store = timedStore{Store: cfg.Store, timeout: timeout}
	c.failLog = newFailureLog(c.log)
	c.retry = int(cfg.UnavailableRetryAfter / time.Second)
	if c.retry < 1 {
		c.retry = 1
	}
	return c, nil
}

// DefaultStoreTimeout is how long a store call may take before the collector gives up on it.
const DefaultStoreTimeout = 5 * time.Second

// now is the collector's clock, truncated to milliseconds (every store keeps at least that precision).
func (c *Collector) now() time.Time {
	return c.clock().UTC().Truncate(time.Millisecond)
}

// continuationKey is the collector's secret for deriving continuation capabilities: Config.ContinuationKey when
// set, otherwise the key kept in the store so that every process sharing it derives the same ones. The store's is
// read once; a failed read is retried on the next call.
func (c *Collector) continuationKey(ctx context.Context) ([]byte, error) {
	c.keyMu.Lock()
	defer c.keyMu.Unlock()
	if c.key != nil {
		return c.key, nil
	}
	key, err := c.store.Secret(ctx, "continuation-capability-key", func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := io.ReadFull(c.random, b)
		return b, err
	})
	if err != nil {
		return nil, err
	}
	c.key = key
	return key, nil
}

// IssueError is a draft the collector cannot issue; Errors say which members break which rules.
type IssueError struct {
	// Errors name each member of the draft that breaks a rule, with the request's pointers.
	Errors core.Errors
}

// Error lists the draft's failures.
func (e *IssueError) Error() string { return "invalid query draft:\n" + e.Errors.String() }

// Issue completes a draft (JSON) into a QueryRequest with a fresh queryId, capability and expiry, stores it, and
// returns the request JSON including delivery.authorization — the only time the capability is ever shown. A bad
// draft gives an *IssueError; anything else is a store failure.
func (c *Collector) Issue(ctx context.Context, draftJSON []byte) ([]byte, error) {
	v, err := core.DecodeJSON(draftJSON)
	if err != nil {
		return nil, &IssueError{Errors: core.Errors{{Code: core.CodeInvalidRequest, Keyword: core.KeywordJSON, Message: err.Error()}}}
	}
	draft, ok := v.(map[string]any)
	if !ok {
		return nil, &IssueError{Errors: core.Errors{{Code: core.CodeInvalidRequest, Keyword: "type", Message: "a draft must be a JSON object"}}}
	}
	id, err := c.newID()
	if err != nil {
		return nil, fmt.Errorf("collector: new queryId: %w", err)
	}
	capability, err := newCapability(c.random)
	if err != nil {
		return nil, err
	}
	now := c.now()
	req, errs := completeDraft(draft, draftDefaults{endpoints: c.endpoints, binding: c.endpoints.defaultBinding(), now: now, queryID: id, endpoint: c.publicURL, capability: capability})
	if len(errs) > 0 {
		return nil, &IssueError{Errors: errs}
	}
	stored, raw := storedRequest(req)
	q := Query{QueryID: id, Request: raw, CapabilityHash: hashCapability(capability),
		CreatedAt: now, ExpiresAt: mustTime(req["expiresAt"])}
	if err := c.store.CreateQueries(ctx, q); err != nil {
		return nil, err
	}
	// The request is decoded already: its first submission reads it (and the query) from the cache rather than
	// reading the store and decoding the stored bytes again. stored holds exactly what decoding raw gives (raw is its encoding, and every member came from
	// the decoder or is a string), and completeDraft validated it.
	c.requests.putIssued(q, &core.Document{Kind: core.KindRequest, Raw: raw, Value: stored})
	return core.CompactJSON(req), nil
}

// QueryState is a query as the admin API shows it.
type QueryState struct {
	// Query is the query as stored.
	Query Query
	// Acceptance is its accepted response and receipt; nil while unanswered.
	Acceptance *Acceptance
	// State is open, answered or expired, at the collector's clock.
	State State
}

// Lookup returns one query with its state; ErrNotFound when unknown.
func (c *Collector) Lookup(ctx context.Context, queryID string) (QueryState, error) {
	q, a, err := c.store.LoadQuery(ctx, strings.ToLower(queryID))
	if err != nil {
		return QueryState{}, err
	}
	return QueryState{Query: q, Acceptance: a, State: StateOf(q, a, c.now())}, nil
}

// List returns a page of queries, newest first, and the cursor of the next page ("" when this is the last).
func (c *Collector) List(ctx context.Context, state State, after string, limit int) ([]QueryState, string, error) {
	now := c.now()
	rows, err := c.store.ListQueries(ctx, ListFilter{State: state, Now: now, After: after, Limit: limit + 1})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(rows) > limit {
		rows = rows[:limit]
		next = rows[limit-1].Query.QueryID
	}
	out := make([]QueryState, len(rows))
	for i, r := range rows {
		out[i] = QueryState{Query: r.Query, Acceptance: r.Acceptance, State: StateOf(r.Query, r.Acceptance, now)}
	}
	return out, next, nil
}

// Endpoints returns the bindings the collector serves, in the pinned order (https, mcp, a2a).
func (c *Collector) Endpoints() []Endpoint {
	out := make([]Endpoint, 0, len(c.endpoints))
	for _, b := range c.endpoints.names() {
		out = append(out, c.endpoints[b])
	}
	return out
}

// Ready reports whether the store is usable.
func (c *Collector) Ready(ctx context.Context) error { return c.store.Ping(ctx) }

func mustTime(v any) time.Time {
	s, _ := v.(string)
	t, err := core.ParseDateTime(s)
	if err != nil {
		panic("collector: a request the collector completed has an invalid expiresAt: " + s)
	}
	return t.UTC()
}

// newEndpointSet checks the endpoints a collector is given: at least one, each a pinned binding with a path, each
// binding once.
func newEndpointSet(eps []Endpoint) (endpointSet, error) {
	if len(eps) == 0 {
		return nil, errors.New("collector: Config.Endpoints is required: the bindings this collector serves")
	}
	set := endpointSet{}
	for _, e := range eps {
		switch {
		case !slices.Contains(pinnedBindings, e.Binding):
			return nil, fmt.Errorf("collector: endpoint binding %q: must be one of %s", e.Binding, strings.Join(pinnedBindings, ", "))
		case !strings.HasPrefix(e.Path, "/"):
			return nil, fmt.Errorf("collector: endpoint of binding %s: path %q must start with /", e.Binding, e.Path)
		}
		if _, dup := set[e.Binding]; dup {
			return nil, fmt.Errorf("collector: binding %s is given two endpoints", e.Binding)
		}
		set[e.Binding] = e
	}
	return set, nil
}
