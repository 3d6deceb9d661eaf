package service

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"

	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// GetDiscovery is GET /.well-known/aqp: what this collector speaks and where.
func (s *Service) GetDiscovery(w http.ResponseWriter, r *http.Request) {
	d := api.Discovery{Versions: []string{spec.ProtocolVersion}, Schemas: map[string]string{}}
	for _, e := range s.c.Endpoints() {
		db := api.DiscoveryBinding{Binding: api.DiscoveryBindingBinding(e.Binding), Endpoint: s.publicURL + e.Path}
		if e.Operation != "" {
			op := e.Operation
			db.Operation = &op
		}
		for _, t := range e.Transports {
			dt := api.DiscoveryTransport{ProtocolVersion: t.ProtocolVersion, Transport: t.Name, Endpoint: s.publicURL + t.Path}
			if t.HostPort {
				dt.Endpoint = hostPort(s.publicURL)
			}
			if t.Operation != "" {
				op := t.Operation
				dt.Operation = &op
			}
			if db.Transports == nil {
				db.Transports = &[]api.DiscoveryTransport{}
			}
			*db.Transports = append(*db.Transports, dt)
		}
		d.Bindings = append(d.Bindings, db)
	}
	names := map[string]string{spec.RequestSchema: "QueryRequest", spec.ResponseSchema: "QueryResponse",
		spec.ReceiptSchema: "QueryReceipt", spec.SubjectSchema: "QuerySubject"}
	for _, f := range spec.SchemaFiles {
		d.Schemas[names[f]] = s.publicURL + spec.SchemaPath + f
	}
	openapi := s.publicURL + "/openapi.yaml"
	d.Openapi = &openapi
	b, _ := json.Marshal(d)
	httpio.WriteJSON(w, http.StatusOK, b)
}

// hostPort is the public URL's host:port, the port being the URL's own or its scheme's default.
func hostPort(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" {
		return publicURL
	}
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// GetSchema serves a schema at the path of its $id, byte for byte as in spec/.
func (s *Service) GetSchema(w http.ResponseWriter, r *http.Request, file api.GetSchemaParamsSchemaFile) {
	b, err := spec.FS.ReadFile(string(file))
	if err != nil || !isSchemaFile(string(file)) {
		httpio.WriteProblem(w, http.StatusNotFound, "Unknown schema", "schemas: "+spec.RequestSchema+", "+spec.ResponseSchema+", "+spec.ReceiptSchema+", "+spec.SubjectSchema, nil)
		return
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(b)
}

func isSchemaFile(f string) bool {
	for _, s := range spec.SchemaFiles {
		if s == f {
			return true
		}
	}
	return false
}

// GetOpenAPI serves spec/openapi.yaml.
func (s *Service) GetOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(spec.File("openapi.yaml"))
}

// GetHealth is the liveness probe: the process answers.
func (s *Service) GetHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

// GetReady is the readiness probe: the store answers.
func (s *Service) GetReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := s.c.Ready(r.Context()); err != nil {
		// The store's error names hosts, users and databases: it goes to the log, never to the caller.
		s.log.Warn("service: not ready", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("store unavailable\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

// GetMetrics serves Prometheus metrics.
func (s *Service) GetMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.Handler().ServeHTTP(w, r)
}
