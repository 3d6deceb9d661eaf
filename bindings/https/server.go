// Package https is AQP's HTTPS binding and the rest of a collector's HTTP service surface (admin API, discovery,
// schemas, health, metrics), implemented on the server interface generated from spec/openapi.yaml. It maps
// collector outcomes onto HTTP — status codes, headers, problem documents — and nothing more: every protocol
// decision is the collector's.
package https

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/metrics"
)

// Config is what the HTTPS binding serves.
type Config struct {
	// Collector decides submissions and issues queries.
	Collector *collector.Collector
	// PublicURL is the base URL clients reach this server at (discovery and schema URLs are built from it).
	PublicURL string
	// AdminToken guards the admin API; only its hash is kept.
	AdminToken string
	// Metrics counts receipts; nil makes a fresh set.
	Metrics *metrics.Metrics
	// Logger receives request failures; default slog.Default().
	Logger *slog.Logger
	// Bindings lists the bindings this server exposes, for discovery; default just https.
	Bindings []string
}

// Server implements api.ServerInterface.
type Server struct {
	c         *collector.Collector
	publicURL string
	adminHash [32]byte
	metrics   *metrics.Metrics
	log       *slog.Logger
	bindings  []string
}

var _ api.ServerInterface = (*Server)(nil)

// New builds the binding's server.
func New(cfg Config) (*Server, error) {
	if cfg.Collector == nil {
		return nil, errors.New("https: Config.Collector is required")
	}
	if cfg.AdminToken == "" {
		return nil, errors.New("https: Config.AdminToken is required")
	}
	s := &Server{c: cfg.Collector, publicURL: strings.TrimSuffix(cfg.PublicURL, "/"), adminHash: sha256.Sum256([]byte(cfg.AdminToken)),
		metrics: cfg.Metrics, log: cfg.Logger, bindings: cfg.Bindings}
	if s.metrics == nil {
		s.metrics = metrics.New()
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if len(s.bindings) == 0 {
		s.bindings = []string{"https"}
	}
	return s, nil
}

// Handler routes the service surface (every path of spec/openapi.yaml but the JSON-RPC ones) on mux, or on a
// new mux when mux is nil. Other bindings add their own paths to the same mux.
func (s *Server) Handler(mux *http.ServeMux) http.Handler {
	if mux == nil {
		mux = http.NewServeMux()
	}
	return api.HandlerWithOptions(s, api.StdHTTPServerOptions{
		BaseRouter: mux,
		ErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			writeProblem(w, http.StatusBadRequest, "Bad request parameter", err.Error(), nil)
		},
	})
}

// Metrics returns the metrics the server records into, for other bindings to share.
func (s *Server) Metrics() *metrics.Metrics { return s.metrics }

// authorizedAdmin checks the admin bearer token in constant time.
func (s *Server) authorizedAdmin(w http.ResponseWriter, r *http.Request) bool {
	token := strings.TrimSpace(r.Header.Get("Authorization"))
	scheme, tok, ok := strings.Cut(token, " ")
	h := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(h[:], s.adminHash[:]) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="aqp-admin"`)
		writeProblem(w, http.StatusUnauthorized, "Unauthorized", "the admin API needs Authorization: Bearer <admin token> (AQP_ADMIN_TOKEN)", nil)
		return false
	}
	return true
}
