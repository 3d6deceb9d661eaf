package collector

import (
	"context"
	"errors"
	"time"
)

// Store is the collector's durable state: issued queries and, per query, at most one accepted response with its
// receipt. Implementations decide races in the database (constraints and transactions), never with process-local
// locks alone, so several collector processes can share one store.
//
// All byte slices handed to a Store are owned by it afterwards; all byte slices it returns are owned by the caller.
type Store interface {
	// CreateQueries stores newly issued queries in one transaction. A queryId that exists already is an error
	// (ErrDuplicateQuery) and nothing is stored.
	CreateQueries(ctx context.Context, qs ...Query) error

	// LoadQuery returns one query together with its acceptance (with its Continuation loaded), if any, in one
	// read: the submission hot path's only read. It returns ErrNotFound when the query does not exist.
	LoadQuery(ctx context.Context, queryID string) (Query, *Acceptance, error)

	// Accept records a's response and receipt as the query's one accepted answer, and creates the continuation
	// query a carries (if any), in one transaction that is durable (on disk, or committed on the server) before
	// Accept returns. When the query already has an accepted response — even one committed by another process an
	// instant earlier — Accept stores nothing and returns that acceptance (Continuation loaded) with
	// ErrAlreadyAccepted; a retried Accept of the same acceptance gets ErrAlreadyAccepted too, never
	// ErrDuplicateQuery for its continuation. On success it returns the acceptance as stored. It returns
	// ErrNotFound when the query does not exist. Any other error does not prove that nothing was stored (a
	// commit can succeed and its reply be lost): callers treat a retry's ErrAlreadyAccepted as the answer.
	Accept(ctx context.Context, a Acceptance) (*Acceptance, error)

	// ListQueries returns queries newest first (by queryId, which is a UUIDv7, in byte order), each with its
	// acceptance, at most f.Limit of them, starting after f.After when it is set. State filtering uses f.Now. A
	// Limit outside 1–MaxListLimit or an unknown State is an error.
	ListQueries(ctx context.Context, f ListFilter) ([]QueryWithAcceptance, error)

	// Secret returns the named collector secret, creating it from generate on first use. Concurrent first uses,
	// in this or another process, all get the one value that was stored; a losing generate's value is discarded,
	// so generate must be cheap and free of side effects.
	Secret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error)

	// Ping reports whether the store is reachable and usable (for /readyz); it fails once the store is closed.
	Ping(ctx context.Context) error

	// Close releases the store; pending Accepts finish first.
	Close() error
}

// Errors a Store returns; compare with errors.Is.
var (
	ErrNotFound        = errors.New("collector: query not found")
	ErrAlreadyAccepted = errors.New("collector: query already has an accepted response")
	ErrDuplicateQuery  = errors.New("collector: queryId already exists")
)

// Query is an issued query as stored.
type Query struct {
	// QueryID is the query's UUIDv7.
	QueryID string
	// Request is the QueryRequest JSON as issued, without delivery.authorization: the capability is never stored.
	Request []byte
	// CapabilityHash is SHA-256 of the capability; submissions are compared against it in constant time.
	CapabilityHash []byte
	// CreatedAt is when the query was issued (UTC).
	CreatedAt time.Time
	// ExpiresAt is the request's expiresAt (UTC).
	ExpiresAt time.Time
}

// Acceptance is a query's one accepted response and the receipt it got.
type Acceptance struct {
	// QueryID is the answered query.
	QueryID string
	// ResponseID is the accepted response's responseId.
	ResponseID string
	// Response is the QueryResponse as received.
	Response []byte
	// ContentHash is SHA-256 of the response's canonical JSON: a resubmission with the same responseId and the
	// same hash is a duplicate; with another hash, a response_id_conflict.
	ContentHash []byte
	// Receipt is the accepted receipt as stored (see Collector for how a continuation's capability is kept out
	// of it).
	Receipt []byte
	// AcceptedAt is the receipt's receivedAt.
	AcceptedAt time.Time
	// Continuation, when set, is the follow-up query issued with this acceptance, created in the same
	// transaction.
	Continuation *Query
}

// MaxPageSize is the largest page of queries the admin API lists.
const MaxPageSize = 500

// MaxListLimit is the largest ListFilter.Limit a Store accepts: a page and one more, which tells the collector
// whether another page follows.
const MaxListLimit = MaxPageSize + 1

// QueryWithAcceptance is one row of a listing.
type QueryWithAcceptance struct {
	// Query is the listed query.
	Query Query
	// Acceptance is nil when unanswered; its Continuation is not loaded in listings.
	Acceptance *Acceptance
}

// State is a query's lifecycle state.
type State string

// Query states. A query is answered once a response is accepted, expired when unanswered past its expiresAt,
// and open otherwise.
const (
	StateOpen     State = "open"
	StateAnswered State = "answered"
	StateExpired  State = "expired"
)

// StateOf derives a query's state at time now.
func StateOf(q Query, a *Acceptance, now time.Time) State {
	switch {
	case a != nil:
		return StateAnswered
	case now.After(q.ExpiresAt):
		return StateExpired
	}
	return StateOpen
}

// ListFilter selects queries for ListQueries.
type ListFilter struct {
	// State, when set, keeps only queries in that state at Now.
	State State
	// Now is the instant states are computed at.
	Now time.Time
	// After, when set, is the queryId the previous page ended with.
	After string
	// Limit is the page size (1–500).
	Limit int
}
