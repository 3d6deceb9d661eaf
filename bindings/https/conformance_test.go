package https_test

import (
	"bufio"
	"net/http"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness/harnesstest"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestConformance runs the whole collector scenario corpus over HTTPS: receipts byte-identical to core's, every
// step's HTTP status and headers checked against the binding's table, and every receipt code reached.
func TestConformance(t *testing.T) {
	harnesstest.Suite(t, targets.HTTPSTarget, harnesstest.Options{Binding: "https", Carries: targets.HTTPSCarries})
}

// TestCarriageVectors runs the HTTPS carriage vectors: each vector's header lines are written as an HTTP/1.1
// response and read back by net/http (so field-name case and the whitespace around a value are HTTP's, not the
// test's), then decoded by Queries; valid vectors' queries are attached by Attach and must come back the same,
// as the vector's exact text where it is canonical.
func TestCarriageVectors(t *testing.T) {
	n := harnesstest.CarriageSuite(t, spec.BindingHTTPS, harnesstest.CarriageCodec{
		Decode: func(v conformance.Carriage) ([][]byte, []conformance.CarriageDrop, error) {
			var wire strings.Builder
			wire.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n")
			for _, h := range v.Headers {
				wire.WriteString(h.Name + ": " + h.Value + "\r\n")
			}
			wire.WriteString("\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(wire.String())), nil)
			if err != nil {
				return nil, nil, err
			}
			resp.Body.Close()
			docs, dropped := https.Queries(resp.Header)
			queries := make([][]byte, len(docs))
			for i, d := range docs {
				queries[i] = d.JSON
			}
			drops := make([]conformance.CarriageDrop, len(dropped))
			for i, d := range dropped {
				drops[i] = conformance.CarriageDrop{Index: d.Index, Rule: string(d.Rule)}
			}
			return queries, drops, nil
		},
		Encode: func(_ conformance.Carriage, queries [][]byte) (conformance.Carriage, error) {
			h := http.Header{}
			for _, q := range queries {
				if err := https.Attach(h, q); err != nil {
					return conformance.Carriage{}, err
				}
			}
			out := conformance.Carriage{Binding: spec.BindingHTTPS}
			for _, value := range h.Values(https.QueryHeader) {
				out.Headers = append(out.Headers, conformance.HeaderField{Name: https.QueryHeader, Value: value})
			}
			return out, nil
		},
	})
	t.Logf("%d HTTPS carriage vectors", n)
}
