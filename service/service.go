// Package service is a collector's HTTP service surface apart from the bindings: the admin API that issues and
// lists queries, discovery (/.well-known/aqp), the schemas at the path of their $id, the OpenAPI document, health
// and readiness, and metrics. It composes the bindings it is given — each declares its endpoint and builds its
// handler over the one Submitter the service hands it (the collector, observed once for every binding) — so
// discovery lists exactly the bindings being served, and the collector issues queries for no other.
package service

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/metrics"
)

// Binding is what the service needs of a binding: the endpoint it serves, and its handler over a Submitter. The
// service mounts the handler at Endpoint().Path.
type Binding interface {
	// Endpoint is the binding's name, path and delivery.operation.
	Endpoint() collector.Endpoint
	// Handler serves the binding's endpoint, handing every submission to sub.
	Handler(sub collector.Submitter) http.Handler
}

// ExtraRoutes is implemented by a binding that serves more than its endpoint, such as A2A's agent card at
// /.well-known/agent-card.json. The service mounts each route beside the binding's endpoint; a path another
// binding or route already holds is a configuration error, not a panic. publicURL is the collector's public URL
// (without a trailing slash), for documents that name the collector's own endpoints.
type ExtraRoutes interface {
	// Routes returns the extra handlers by path, built over the same Submitter as the binding's endpoint.
	Routes(publicURL string, sub collector.Submitter) map[string]http.Handler
}

// Endpoints lists the endpoints of bindings, for collector.Config.Endpoints: the collector learns what it serves
// from the bindings themselves.
func Endpoints(bindings ...Binding) []collector.Endpoint {
	out := make([]collector.Endpoint, len(bindings))
	for i, b := range bindings {
		out[i] = b.Endpoint()
	}
	return out
}

// Config is what a Service is built from. Collector (its Store and PublicURL), AdminToken and at least one binding
// are required.
type Config struct {
	// Collector configures the collector that issues queries and decides submissions. The service sets its
	// Endpoints from Bindings (leave them empty), so the collector issues queries for exactly the bindings served;
	// its PublicURL is the service's too.
	Collector collector.Config
	// Bindings are the bindings served, each at its endpoint's path.
	Bindings []Binding
	// AdminToken guards the admin API; only its hash is kept.
	AdminToken string
	// Metrics counts receipts; nil makes a fresh set.
	Metrics *metrics.Metrics
	// Logger receives failures; default slog.Default().
	Logger *slog.Logger
}

// Service is the composed HTTP surface; Handler serves it.
type Service struct {
	c         *collector.Collector
	bindings  []Binding
	publicURL string
	adminHash [32]byte
	metrics   *metrics.Metrics
	log       *slog.Logger
	handler   http.Handler
}

var _ api.ServerInterface = (*Service)(nil)

// New builds the collector and composes the service around it. The collector learns the bindings it serves from
// Bindings, so a query never names an endpoint nobody answers at, and discovery lists exactly what is there.
func New(cfg Config) (*Service, error) {
	switch {
	case cfg.AdminToken == "":
		return nil, errors.New("service: Config.AdminToken is required")
	case len(cfg.Bindings) == 0:
		return nil, errors.New("service: Config.Bindings is required: at least one binding to serve")
	case len(cfg.Collector.Endpoints) > 0:
		return nil, errors.New("service: leave Config.Collector.Endpoints empty: the service sets them from Config.Bindings")
	}
	cc := cfg.Collector
	cc.Endpoints = Endpoints(cfg.Bindings...)
	if cc.Logger == nil {
		cc.Logger = cfg.Logger
	}
	c, err := collector.New(cc)
	if err != nil {
		return nil, err
	}
	s := &Service{c: c, bindings: cfg.Bindings, publicURL: strings.TrimSuffix(cc.PublicURL, "/"),
		adminHash: sha256.Sum256([]byte(cfg.AdminToken)), metrics: cfg.Metrics, log: cfg.Logger}
	if s.metrics == nil {
		s.metrics = metrics.New()
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	sub := Observe(c, s.metrics)
	surface := http.NewServeMux()
	api.HandlerWithOptions(s, api.StdHTTPServerOptions{
		BaseRouter: surface,
		ErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			httpio.WriteProblem(w, http.StatusBadRequest, "Bad request parameter", err.Error(), nil)
		},
	})
	top := http.NewServeMux()
	mounted := map[string]string{}
	mount := func(path, by string, h http.Handler) error {
		if other, dup := mounted[path]; dup {
			return fmt.Errorf("service: %s and %s both serve %s", other, by, path)
		}
		if !strings.HasPrefix(path, "/") {
			return fmt.Errorf("service: %s serves %q, which is not an absolute path", by, path)
		}
		mounted[path] = by
		top.Handle(path, h)
		return nil
	}
	for _, b := range cfg.Bindings {
		if err := mount(b.Endpoint().Path, "the "+b.Endpoint().Binding+" binding", b.Handler(sub)); err != nil {
			return nil, err
		}
		if er, ok := b.(ExtraRoutes); ok {
			for path, h := range er.Routes(s.publicURL, sub) {
				if err := mount(path, "the "+b.Endpoint().Binding+" binding's extra route", h); err != nil {
					return nil, err
				}
			}
		}
	}
	top.Handle("/", problemsForMux(surface))
	s.handler = top
	return s, nil
}

// Handler serves the whole surface: the bindings at their paths and everything in spec/openapi.yaml.
func (s *Service) Handler() http.Handler { return s.handler }

// Collector returns the collector the service composed, for programs that also issue queries in-process.
func (s *Service) Collector() *collector.Collector { return s.c }

// Metrics returns the metrics the service records into.
func (s *Service) Metrics() *metrics.Metrics { return s.metrics }

// SubmitResponse answers POST /aqp/v1/responses when the HTTPS binding is not served (when it is, its handler is
// mounted at that path and this is never reached).
func (s *Service) SubmitResponse(w http.ResponseWriter, r *http.Request) {
	httpio.WriteProblem(w, http.StatusNotFound, "Binding not served", "this collector does not serve the https binding; see /.well-known/aqp for the bindings it serves", nil)
}

// problemsForMux turns the mux's own plain-text 404 and 405 replies into problem documents, keeping the Allow
// header, so every error this server writes is application/problem+json.
func problemsForMux(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r) // routes again so that the handler sees the pattern's path values
			return
		}
		rec := &recorder{header: http.Header{}, code: http.StatusOK}
		h.ServeHTTP(rec, r)
		switch rec.code {
		case http.StatusMethodNotAllowed:
			if allow := rec.header.Get("Allow"); allow != "" {
				w.Header().Set("Allow", allow)
			}
			httpio.WriteProblem(w, rec.code, "Method not allowed", r.Method+" is not allowed on "+r.URL.Path+"; allowed: "+rec.header.Get("Allow"), nil)
		case http.StatusNotFound:
			httpio.WriteProblem(w, rec.code, "Not found", "nothing is served at "+r.URL.Path+"; see /.well-known/aqp and /openapi.yaml", nil)
		default: // the mux's redirects to a cleaned path
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.code)
			_, _ = w.Write(rec.body.Bytes())
		}
	})
}

// recorder keeps what the mux's own fallback handler (404, 405 or a redirect) writes, so it can be rewritten.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// authorizedAdmin checks the admin bearer token in constant time.
func (s *Service) authorizedAdmin(w http.ResponseWriter, r *http.Request) bool {
	token := strings.TrimSpace(r.Header.Get("Authorization"))
	scheme, tok, ok := strings.Cut(token, " ")
	h := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(h[:], s.adminHash[:]) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="aqp-admin"`)
		httpio.WriteProblem(w, http.StatusUnauthorized, "Unauthorized", "the admin API needs Authorization: Bearer <admin token> (AQP_ADMIN_TOKEN)", nil)
		return false
	}
	return true
}
