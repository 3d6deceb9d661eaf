package respondent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/wire"
)

// Grant is a principal's consent for every ask_once query of one consentScope from one issuing collector (D38).
type Grant struct {
	// Issuer is the issuing collector: the origin (scheme://host[:port], RFC 6454) of the queries' delivery
	// endpoint, as Issuer computes it. A grant is never shared with another collector that reuses the scope text.
	Issuer string `json:"issuer"`
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
	// LookupGrant returns the grant for scope from issuer (an origin, see Issuer), if one was saved.
	LookupGrant(issuer, scope string) (Grant, bool, error)
	// SaveGrant saves g durably before returning, replacing any grant for its issuer and scope.
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

// grantData is the file's content. Version 2 keys grants by issuer and scope (grantKey); a version 1 file's grants
// were keyed by scope alone, so nothing says which collector they were given to, and they are dropped on opening
// (the principal is asked again), while its refusals are kept.
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
	g := &GrantFile{path: path, data: grantData{Version: 2, Grants: map[string]Grant{}}}
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
	if err := json.Unmarshal(b, &g.data); err != nil || g.data.Version != 1 && g.data.Version != 2 {
		return nil, fmt.Errorf("respondent: %s is not a version 1 or 2 grant file (%v); move it away to start afresh", path, err)
	}
	if g.data.Version == 1 {
		g.data.Version, g.data.Grants = 2, nil // grants of no known issuer: asked again (D38)
	}
	if g.data.Grants == nil {
		g.data.Grants = map[string]Grant{}
	}
	return g, nil
}

// Path is the file's path.
func (g *GrantFile) Path() string { return g.path }

// grantKey is a grant's key in the file: its issuer and scope (an origin holds no space).
func grantKey(issuer, scope string) string { return issuer + " " + scope }

// LookupGrant implements GrantStore.
func (g *GrantFile) LookupGrant(issuer, scope string) (Grant, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.data.Grants[grantKey(issuer, scope)]
	return gr, ok, nil
}

// SaveGrant implements GrantStore.
func (g *GrantFile) SaveGrant(gr Grant) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if gr.Issuer == "" {
		return errors.New("respondent: a grant needs its issuer (D38)")
	}
	key := grantKey(gr.Issuer, gr.Scope)
	old, had := g.data.Grants[key]
	g.data.Grants[key] = gr
	if err := g.write(); err != nil {
		if had {
			g.data.Grants[key] = old
		} else {
			delete(g.data.Grants, key)
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

// Issuer is the issuing collector of a query, as grants are keyed (D38): the origin of its delivery endpoint —
// the scheme and host in lower case and the port, left out when it is the scheme's default (RFC 6454). Two
// collectors on one origin are one issuer to the principal, as they are to a browser.
func Issuer(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("respondent: delivery.endpoint %q has no origin (scheme and host)", endpoint)
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}
