package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// ReqSurface is the requirement the service surfaces prove: discovery, the schemas at their $id paths, the OpenAPI
// document.
const ReqSurface = "AQP-SVC-SURFACE"

// ReqD26 is named when discovery lists a binding that is not served, or leaves out one that is.
const ReqD26 = "AQP-D26"

// maxSurface bounds every surface the runner reads.
const maxSurface = 4 << 20

// ServiceSurfaces are the surfaces every collector serves whatever its bindings (§6): GET /.well-known/aqp listing
// exactly the bindings it serves (each endpoint answering) and the schema URLs, the four schemas at the path of
// their $id byte for byte as spec/ writes them, and the OpenAPI document. served are the bindings the run checks,
// which discovery must list.
func ServiceSurfaces(served []string) []harness.Surface {
	return []harness.Surface{
		{Name: "discovery", Requirements: []string{ReqSurface, ReqD26}, Read: func(ctx context.Context, base string, hc *http.Client) error {
			return readDiscovery(ctx, base, hc, served)
		}},
		{Name: "schemas", Requirements: []string{ReqSurface}, Read: readSchemas},
		{Name: "openapi", Requirements: []string{ReqSurface}, Read: readOpenAPI},
	}
}

// readSurface runs one surface as a check: its record over binding b.
func readSurface(ctx context.Context, target string, hc *http.Client, s harness.Surface, b string) Record {
	start := time.Now()
	rec := Record{Scenario: "surface/" + s.Name, File: "(pinned surfaces)", Requirements: slices.Clone(s.Requirements), Binding: b, Status: Pass}
	if err := s.Read(ctx, target, hc); err != nil {
		rec.Status, rec.Evidence, rec.FailedRequirements = Fail, err.Error(), Attribute(err, s.Requirements)
	}
	rec.Seconds = time.Since(start).Seconds()
	return rec
}

// Get fetches a surface: the body of a 200 answer, bounded, or an error saying what came back.
func Get(ctx context.Context, hc *http.Client, u string) ([]byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxSurface+1))
	switch {
	case err != nil:
		return nil, nil, err
	case len(b) > maxSurface:
		return nil, nil, fmt.Errorf("GET %s: more than %d bytes", u, maxSurface)
	case resp.StatusCode != http.StatusOK:
		return nil, nil, fmt.Errorf("GET %s: HTTP %s: %.200s", u, resp.Status, bytes.TrimSpace(b))
	}
	return b, resp.Header, nil
}

func readDiscovery(ctx context.Context, base string, hc *http.Client, served []string) error {
	b, _, err := Get(ctx, hc, base+"/.well-known/aqp")
	if err != nil {
		return err
	}
	var d struct {
		Versions []string `json:"versions"`
		Bindings []struct {
			Binding, Endpoint, Operation string
		} `json:"bindings"`
		Schemas map[string]string `json:"schemas"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("/.well-known/aqp is not the discovery document: %v: %.200s", err, b)
	}
	if !slices.Contains(d.Versions, spec.ProtocolVersion) {
		return fmt.Errorf("/.well-known/aqp lists versions %v, not %s", d.Versions, spec.ProtocolVersion)
	}
	var listed []string
	for _, l := range d.Bindings {
		listed = append(listed, l.Binding)
		u, err := url.Parse(l.Endpoint)
		if err != nil || !u.IsAbs() {
			return fmt.Errorf("/.well-known/aqp lists the %s endpoint %q, not an absolute URL", l.Binding, l.Endpoint)
		}
		// Each endpoint answers at the target (which may be another URL than the public one the collector writes,
		// behind a proxy): an empty POST is refused by the binding, but not as a path nothing serves.
		at := strings.TrimSuffix(base, "/") + u.EscapedPath()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, at, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := hc.Do(req)
		if err != nil {
			return fmt.Errorf("the %s endpoint %s listed by /.well-known/aqp does not answer at %s: %v", l.Binding, l.Endpoint, at, err)
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxSurface))
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return harness.Wire(fmt.Sprintf("the %s endpoint %s listed by /.well-known/aqp answers 404 at %s: it is not served", l.Binding, l.Endpoint, at), ReqD26)
		}
	}
	for _, s := range served {
		if !slices.Contains(listed, s) {
			return harness.Wire(fmt.Sprintf("/.well-known/aqp lists the bindings %v; %s, which the collector serves, is missing", listed, s), ReqD26)
		}
	}
	names := map[string]string{"QueryRequest": spec.RequestSchema, "QueryResponse": spec.ResponseSchema,
		"QueryReceipt": spec.ReceiptSchema, "QuerySubject": spec.SubjectSchema}
	for name, file := range names {
		if u := d.Schemas[name]; !strings.HasSuffix(u, spec.SchemaPath+file) {
			return fmt.Errorf("/.well-known/aqp gives the %s schema as %q, not the path of its $id (%s%s)", name, u, spec.SchemaPath, file)
		}
	}
	return nil
}

func readSchemas(ctx context.Context, base string, hc *http.Client) error {
	for _, f := range spec.SchemaFiles {
		b, _, err := Get(ctx, hc, base+spec.SchemaPath+f)
		if err != nil {
			return err
		}
		if !bytes.Equal(b, spec.File(f)) {
			return fmt.Errorf("%s%s is not the schema's bytes as spec/ writes them (%d bytes, want %d)", spec.SchemaPath, f, len(b), len(spec.File(f)))
		}
	}
	return nil
}

func readOpenAPI(ctx context.Context, base string, hc *http.Client) error {
	b, _, err := Get(ctx, hc, base+"/openapi.yaml")
	if err != nil {
		return err
	}
	var doc struct {
		OpenAPI string         `yaml:"openapi"`
		Paths   map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("/openapi.yaml is not YAML: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") || doc.Paths[spec.HTTPSPath] == nil || doc.Paths["/.well-known/aqp"] == nil {
		return fmt.Errorf("/openapi.yaml is not an OpenAPI 3 document describing %s and /.well-known/aqp (openapi %q, %d paths)", spec.HTTPSPath, doc.OpenAPI, len(doc.Paths))
	}
	return nil
}
