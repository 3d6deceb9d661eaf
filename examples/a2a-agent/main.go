// Command a2a-agent is an A2A agent that asks: it answers any message and attaches a Quickstart-style query to its
// reply ("Did this reply fully answer your request?"), issued by an AQP collector through its admin API. It is an
// ordinary a2a-go/v2 (A2A 1.0) agent wrapped in bindings/a2a.AskingExecutor.
//
//	aqp serve &                                   # a collector on 127.0.0.1:8080
//	export AQP_ADMIN_TOKEN=...                    # the token aqp serve printed
//	go run ./examples/a2a-agent -demo             # serve, then play the caller once and exit
//
// Without -demo it keeps serving at -addr (agent card at /.well-known/agent-card.json, A2A 1.0 JSON-RPC at / and
// HTTP+JSON at /message:send) until interrupted. With -demo it also plays the other side once: it reads the card,
// sends itself a message with a2a-go/v2's client, extracts the query from the reply, answers it over the A2A
// binding (whose client reads the collector's card and picks the newest interface) and prints the receipt.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	aqp "github.com/agentqueryprotocol/aqp-go"
	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// replier is the existing agent: it answers any message.
type replier struct{}

func (replier) Execute(ctx context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := "(no text)"
		if execCtx.Message != nil {
			for _, p := range execCtx.Message.Parts {
				if t := p.Text(); t != "" {
					text = t
					break
				}
			}
		}
		reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("You said: "+text))
		reply.ContextID = execCtx.ContextID
		yield(reply, nil)
	}
}

func (replier) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// draftFor asks the Quickstart's question about the reply message it is attached to.
func draftFor(_ context.Context, _ *a2asrv.ExecutorContext, ev a2a.Event) []byte {
	m, ok := ev.(*a2a.Message)
	if !ok {
		return nil
	}
	d, _ := json.Marshal(map[string]any{
		"binding": "a2a", "type": "clarification", "ttlSeconds": 600,
		"subject":             map[string]any{"kind": "message", "id": m.ID, "idScope": "local", "protocol": "a2a"},
		"requestedRespondent": "agent", "prompt": "Did this reply fully answer your request?",
		"timing": "immediate", "consentMode": "not_required",
		"response": map[string]any{"format": "choice", "choices": []string{"yes", "partly", "no"}},
	})
	return d
}

func main() {
	addr := flag.String("addr", "127.0.0.1:9090", "listen address of the agent")
	collectorURL := flag.String("collector", "http://127.0.0.1:8080", "the AQP collector's URL (its admin API issues the queries)")
	demo := flag.Bool("demo", false, "send the agent one message, answer the query on its reply, print the receipt, and exit")
	flag.Parse()
	if err := run(*addr, *collectorURL, *demo); err != nil {
		log.Fatal(err)
	}
}

func run(addr, collectorURL string, demo bool) error {
	issuer, err := service.NewAdminClient(collectorURL, os.Getenv("AQP_ADMIN_TOKEN"), nil)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	card := &a2a.AgentCard{Name: "AQP example agent", Description: "Answers any message and asks whether the answer helped.",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(url, a2a.TransportProtocolJSONRPC),
			a2a.NewAgentInterface(url, a2a.TransportProtocolHTTPJSON)}, Version: "1",
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "reply", Name: "Reply", Description: "Replies to any message.", Tags: []string{"example"}}}}
	agent := &a2ab.AskingExecutor{Agent: replier{}, Issuer: issuer, Draft: draftFor,
		OnError: func(err error) { log.Printf("the reply goes without its query: %v", err) }}
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	handler := a2asrv.NewHandler(agent)
	mux.Handle("POST /message:send", a2asrv.NewRESTHandler(handler))
	mux.Handle("POST /message:stream", a2asrv.NewRESTHandler(handler))
	mux.Handle("/", a2asrv.NewJSONRPCHandler(handler))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	log.Printf("A2A agent at %s, asking through the collector at %s", url, collectorURL)
	if demo {
		return playCaller(url)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
	return nil
}

// playCaller is the other agent: it sends a message, finds the query on the reply and answers it.
func playCaller(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := a2ab.SendText(ctx, http.DefaultClient, url, "Summarise the release notes.")
	if err != nil {
		return err
	}
	reply, ok := res.(*a2a.Message)
	if !ok {
		return fmt.Errorf("the agent answered with a %T", res)
	}
	fmt.Printf("reply: %s\n", reply.Parts[0].Text())
	queries, dropped := a2ab.Queries(reply)
	for _, d := range dropped {
		fmt.Printf("dropped query %d: %s\n", d.Index, d.Reason)
	}
	if len(queries) == 0 {
		return errors.New("the reply carries no query (is aqp serve running, and AQP_ADMIN_TOKEN set?)")
	}
	q := queries[0].Request
	fmt.Printf("query %s: %s\n", q.QueryID, q.Prompt)
	resp, err := aqp.NewResponse(q, aqp.Respondent{Kind: "agent", Provenance: "direct"}, "partly")
	if err != nil {
		return err
	}
	explanation := "The summary left out the breaking changes."
	resp.Explanation = &explanation
	// One typed call over the binding the query names; the collector in this example is plain http on this
	// machine, so the destination policy allows loopback (a real collector is https, under the zero Policy).
	client, err := aqp.NewClient(aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true}))
	if err != nil {
		return err
	}
	receipt, err := client.Submit(ctx, q, resp)
	if err != nil {
		return err
	}
	fmt.Printf("receipt: %s, response %s\n", receipt.Status, receipt.ResponseID)
	return nil
}
