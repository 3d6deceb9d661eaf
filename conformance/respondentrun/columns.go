package respondentrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"google.golang.org/grpc"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Column is one binding at one protocol generation over one transport, as the respondent under test meets it: the
// carrier it reads the query from and the collector it delivers to speak only that generation and transport. The
// collector of a column listens on a loopback port of its own, whose agent card (A2A) lists only the column's
// interface and which refuses every other generation and transport, and the query's delivery endpoint names it;
// so a respondent that does not choose what the column offers delivers nothing, and fails the column.
type Column struct {
	// Name is the column's name, as the collector runner and the reports spell it.
	Name string
	// Binding is the binding, as delivery.binding and {binding} name it.
	Binding string
	// Version is the binding protocol's version ("" for HTTPS).
	Version string
	// Transport is A2A's transport (JSONRPC, HTTP+JSON, GRPC); "" for the others.
	Transport a2a.TransportProtocol
}

// Columns are the columns the runner checks a respondent over, in the collector runner's order and by the names
// of the one list (conformance/targets.All; TestColumnsAreTheTable holds them equal), each with what a respondent
// meets on it.
var Columns = []Column{
	{Name: targets.HTTPSColumns[0].Name, Binding: https.Name},
	{Name: targets.MCPColumnModern, Binding: aqpmcp.Name, Version: aqpmcp.ProtocolVersionModern},
	{Name: targets.MCPColumnLegacy, Binding: aqpmcp.Name, Version: aqpmcp.ProtocolVersionLegacy},
	{Name: targets.A2AColumnJSONRPC, Binding: a2ab.Name, Version: a2ab.Version, Transport: a2a.TransportProtocolJSONRPC},
	{Name: targets.A2AColumnHTTPJSON, Binding: a2ab.Name, Version: a2ab.Version, Transport: a2a.TransportProtocolHTTPJSON},
	{Name: targets.A2AColumnGRPC, Binding: a2ab.Name, Version: a2ab.Version, Transport: a2a.TransportProtocolGRPC},
	{Name: targets.A2AColumnLegacy, Binding: a2ab.Name, Version: a2ab.LegacyVersion, Transport: a2a.TransportProtocolJSONRPC},
}

// ColumnNames are the --binding words: each binding (all its columns), then each column.
func ColumnNames() []string { return harness.ColumnNames(asHarness(Columns)) }

// SelectColumns picks columns by selector: a column's name, or a binding's name for all of its columns, as the
// collector runner picks them (harness.SelectColumns).
func SelectColumns(selectors []string) ([]Column, error) {
	if len(selectors) == 0 {
		return Columns, nil
	}
	picked, ok := harness.SelectColumns(asHarness(Columns), strings.Join(selectors, ","))
	if !ok {
		return nil, fmt.Errorf("unknown binding or column in %q: want one of %s", strings.Join(selectors, ","), strings.Join(ColumnNames(), ", "))
	}
	var out []Column
	for _, p := range picked {
		for _, c := range Columns {
			if c.Name == p.Name {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// asHarness is the columns as the harness names them, for its selection.
func asHarness(cs []Column) []harness.Column {
	out := make([]harness.Column, len(cs))
	for i, c := range cs {
		out[i] = harness.Column{Name: c.Name, Binding: c.Binding}
	}
	return out
}

// columnServer is a column's collector: the embedded collector's handler behind the column's filter, with the
// column's agent card, on a loopback listener of its own (unencrypted HTTP/2 too, for A2A's gRPC).
type columnServer struct {
	base string
	hs   *http.Server
}

func startColumn(c Column, collector http.Handler) (*columnServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cs := &columnServer{base: "http://" + ln.Addr().String()}
	h := columnFilter(c, collector)
	if c.Binding == a2ab.Name {
		card := columnCard(c, cs.base)
		mux := http.NewServeMux()
		mux.Handle(spec.A2AAgentCardPath, card)
		mux.Handle("/", h)
		h = mux
	}
	cs.hs = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	cs.hs.Protocols = new(http.Protocols)
	cs.hs.Protocols.SetHTTP1(true)
	cs.hs.Protocols.SetUnencryptedHTTP2(true)
	go func() { _ = cs.hs.Serve(ln) }()
	return cs, nil
}

// columnCard serves an agent card at base listing only the column's interface, in the generation's form.
func columnCard(c Column, base string) http.Handler {
	card := a2ab.AgentCard(base)
	var keep []*a2a.AgentInterface
	for _, in := range card.SupportedInterfaces {
		if in.ProtocolBinding == c.Transport && string(in.ProtocolVersion) == c.Version {
			keep = append(keep, in)
		}
	}
	card.SupportedInterfaces = keep
	return cardHandler(card, c.Version == a2ab.LegacyVersion)
}

// cardHandler serves card: in 0.3's form (a2a-go/v2's compatibility union) for a 0.3 interface, else as 1.0 writes it.
func cardHandler(card *a2a.AgentCard, legacy bool) http.Handler {
	if legacy {
		return a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card))
	}
	return a2asrv.NewStaticAgentCardHandler(card)
}

// columnFilter lets through only what the column speaks, answering everything else as an agent or server of that
// generation and transport alone would: over MCP 2026-07-28 the initialize handshake is refused, over 2025-11-25
// server/discover and requests marked 2026-07-28; over A2A only the column's transport and generation reach the
// collector.
func columnFilter(c Column, next http.Handler) http.Handler {
	if c.Binding == https.Name {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := refuses(c, r); why != "" {
			if strings.HasPrefix(r.URL.Path, "/lf.a2a") {
				w.Header().Set("Content-Type", "application/grpc")
				w.Header().Set("Grpc-Status", "12") // UNIMPLEMENTED
				w.Header().Set("Grpc-Message", why)
				w.WriteHeader(http.StatusOK)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32601, "message": why}})
			_, _ = w.Write(b)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuses says why the column's collector refuses r, or "".
func refuses(c Column, r *http.Request) string {
	path := r.URL.Path
	switch c.Binding {
	case aqpmcp.Name:
		if (path != spec.MCPPath && !strings.HasPrefix(path, "/carrier/")) || r.Method != http.MethodPost {
			return ""
		}
		method := peekMethod(r)
		if c.Version == aqpmcp.ProtocolVersionModern && method == "initialize" {
			return "this server speaks MCP " + aqpmcp.ProtocolVersionModern + " only: there is no initialize handshake"
		}
		if c.Version == aqpmcp.ProtocolVersionLegacy && (method == "server/discover" ||
			r.Header.Get("MCP-Protocol-Version") == aqpmcp.ProtocolVersionModern) {
			return "this server speaks MCP " + aqpmcp.ProtocolVersionLegacy + " (initialize) only"
		}
	case a2ab.Name:
		grpcPath := strings.HasPrefix(path, "/"+a2ab.GRPCService+"/")
		restPath := strings.HasPrefix(path, spec.A2APath+"/")
		rpcPath := path == spec.A2APath
		switch c.Transport {
		case a2a.TransportProtocolGRPC:
			if restPath || rpcPath {
				return "this agent serves A2A over gRPC only"
			}
		case a2a.TransportProtocolHTTPJSON:
			if grpcPath || rpcPath {
				return "this agent serves A2A over HTTP+JSON only"
			}
		case a2a.TransportProtocolJSONRPC:
			if grpcPath || restPath {
				return "this agent serves A2A over JSON-RPC only"
			}
			if rpcPath && r.Method == http.MethodPost {
				m := peekMethod(r)
				v10 := m == a2ab.SendMethod || m == a2ab.StreamMethod
				v03 := m == a2ab.LegacySendMethod || m == a2ab.LegacyStreamMethod
				if (c.Version == a2ab.Version && v03) || (c.Version == a2ab.LegacyVersion && v10) {
					return "this agent serves A2A " + c.Version + " only; " + m + " is another generation's method"
				}
			}
		}
	}
	return ""
}

// peekMethod reads a JSON-RPC request's method and puts the body back (bounded, as the bindings bound it).
func peekMethod(r *http.Request) string {
	body, err := io.ReadAll(io.LimitReader(r.Body, a2ab.MaxRequest+1))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return ""
	}
	var env struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &env)
	return env.Method
}

// a2aCarrier serves the carrier agent over the column's transport and generation, with a card listing only that
// interface at the carrier's URL. gRPC needs a listener of its own (its paths are the service's, at the root), so
// it is started here and closed by stop.
func a2aCarrier(c Column, query []byte, mountURL string) (h http.Handler, url string, stop func(), err error) {
	handler := a2asrv.NewHandler(carrierAgent{query: query})
	card := func(u string, t a2a.TransportProtocol) *a2a.AgentCard {
		return &a2a.AgentCard{Name: "AQP conformance carrier", Description: "Replies with a query in its metadata.",
			Version: "1", DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
			SupportedInterfaces: []*a2a.AgentInterface{{URL: u, ProtocolBinding: t, ProtocolVersion: a2a.ProtocolVersion(c.Version)}},
			Skills:              []a2a.AgentSkill{{ID: "forecast", Name: "Forecast", Description: "Tells the weather.", Tags: []string{"weather"}}}}
	}
	withCard := func(u string, inner http.Handler) http.Handler {
		mux := http.NewServeMux()
		mux.Handle(strings.TrimPrefix(u, "http://"+hostOf(u))+spec.A2AAgentCardPath,
			cardHandler(card(u, c.Transport), c.Version == a2ab.LegacyVersion))
		mux.Handle("/", inner)
		return mux
	}
	switch {
	case c.Transport == a2a.TransportProtocolGRPC:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, "", nil, err
		}
		gs := grpc.NewServer()
		a2agrpc.NewHandler(handler).RegisterWith(gs)
		u := "http://" + ln.Addr().String()
		cardMux := http.NewServeMux()
		cardMux.Handle(spec.A2AAgentCardPath, cardHandler(card(ln.Addr().String(), c.Transport), false))
		hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
				gs.ServeHTTP(w, r)
				return
			}
			cardMux.ServeHTTP(w, r)
		})}
		hs.Protocols = new(http.Protocols)
		hs.Protocols.SetHTTP1(true)
		hs.Protocols.SetUnencryptedHTTP2(true)
		go func() { _ = hs.Serve(ln) }()
		return nil, u, func() { _ = hs.Close() }, nil
	case c.Transport == a2a.TransportProtocolHTTPJSON:
		prefix := strings.TrimPrefix(mountURL, "http://"+hostOf(mountURL))
		return withCard(mountURL, http.StripPrefix(prefix, a2asrv.NewRESTHandler(handler))), mountURL, func() {}, nil
	case c.Version == a2ab.LegacyVersion:
		return withCard(mountURL, a2av0.NewJSONRPCHandler(handler)), mountURL, func() {}, nil
	}
	return withCard(mountURL, a2asrv.NewJSONRPCHandler(handler)), mountURL, func() {}, nil
}

func hostOf(u string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	host, _, _ := strings.Cut(rest, "/")
	return host
}
