package respondent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/wire"
)

// Grant is a principal's consent for every ask_once query of one consentScope.
type Grant struct {
	// Scope is the consentScope granted.
	Scope string `json:"scope"`
	// ObtainedAt is when the principal granted it; responses carry it as consent.obtainedAt.
	ObtainedAt wire.DateTime `json:"obtainedAt"`
}

// Refusal records a principal's refusal: nothing was sent for the query.
type Refusal struct {
	QueryID string        `json:"queryId"`
	Mode    string        `json:"consentMode"`
	Scope   string        `json:"scope,omitempty"`
	At      wire.DateTime `json:"at"`
}

// GrantStore remembers ask_once grants across restarts and records refusals. Implementations are safe for
// concurrent use.
type GrantStore interface {
	// LookupGrant returns the grant for scope, if one was saved.
	LookupGrant(scope string) (Grant, bool, error)
	// SaveGrant saves g durably before returning, replacing any grant for its scope.
	SaveGrant(g Grant) error
	// RecordRefusal records r durably before returning.
	RecordRefusal(r Refusal) error
}

// maxGrantFile bounds the grant file read at start; maxRefusals bounds the refusals kept (the newest).
const (
	maxGrantFile = 8 << 20
	maxRefusals  = 1000
)

// GrantFile is the embedded GrantStore: one small JSON file, rewritten atomically (a temporary file in the same
// directory, synced, renamed over the old one, the directory synced) on every change, so a crash leaves either
// the old grants or the new ones, never a torn file. One process uses a file at a time.
type GrantFile struct {
	path string
	mu   sync.Mutex
	data grantData
}

type grantData struct {
	Version  int              `json:"version"`
	Grants   map[string]Grant `json:"grants"`
	Refusals []Refusal        `json:"refusals,omitempty"`
}

var _ GrantStore = (*GrantFile)(nil)

// DefaultGrantPath is where the grants of the current user are kept when the host names no file: the user's
// configuration directory, aqp/consent-grants.json.
func DefaultGrantPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("respondent: no directory for the consent grants (%v); name a grant file", err)
	}
	return filepath.Join(dir, "aqp", "consent-grants.json"), nil
}

// OpenGrantFile opens (or, when absent, starts) the grant file at path. A file that is not a grant file is an
// error rather than being overwritten: it may hold grants someone relies on.
func OpenGrantFile(path string) (*GrantFile, error) {
	g := &GrantFile{path: path, data: grantData{Version: 1, Grants: map[string]Grant{}}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return g, nil
	}
	if err != nil {
		return nil, fmt.Errorf("respondent: opening the grant file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGrantFile+1))
	if err != nil {
		return nil, fmt.Errorf("respondent: reading the grant file %s: %w", path, err)
	}
	if len(b) > maxGrantFile {
		return nil, fmt.Errorf("respondent: the grant file %s is larger than %d bytes", path, maxGrantFile)
	}
	if err := json.Unmarshal(b, &g.data); err != nil || g.data.Version != 1 {
		return nil, fmt.Errorf("respondent: %s is not a version 1 grant file (%v); move it away to start afresh", path, err)
	}
	if g.data.Grants == nil {
		g.data.Grants = map[string]Grant{}
	}
	return g, nil
}

// Path is the file's path.
func (g *GrantFile) Path() string { return g.path }

// LookupGrant implements GrantStore.
func (g *GrantFile) LookupGrant(scope string) (Grant, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.data.Grants[scope]
	return gr, ok, nil
}

// SaveGrant implements GrantStore.
func (g *GrantFile) SaveGrant(gr Grant) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	old, had := g.data.Grants[gr.Scope]
	g.data.Grants[gr.Scope] = gr
	if err := g.write(); err != nil {
		if had {
			g.data.Grants[gr.Scope] = old
		} else {
			delete(g.data.Grants, gr.Scope)
		}
		return err
	}
	return nil
}

// RecordRefusal implements GrantStore.
func (g *GrantFile) RecordRefusal(r Refusal) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	prev := g.data.Refusals
	g.data.Refusals = append(append([]Refusal(nil), prev...), r)
	if n := len(g.data.Refusals); n > maxRefusals {
		g.data.Refusals = g.data.Refusals[n-maxRefusals:]
	}
	if err := g.write(); err != nil {
		g.data.Refusals = prev
		return err
	}
	return nil
}

// Refusals returns the recorded refusals, oldest first.
func (g *GrantFile) Refusals() []Refusal {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Refusal(nil), g.data.Refusals...)
}

// write replaces the file atomically; the caller holds g.mu.
func (g *GrantFile) write() error {
	b, err := json.MarshalIndent(g.data, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(g.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("respondent: grant file directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".consent-grants-*")
	if err != nil {
		return fmt.Errorf("respondent: writing the grant file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("respondent: writing the grant file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("respondent: syncing the grant file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("respondent: writing the grant file: %w", err)
	}
	if err := os.Rename(tmp.Name(), g.path); err != nil {
		return fmt.Errorf("respondent: replacing the grant file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// now is the runtime's clock for consent times, at the millisecond the wire carries.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
