package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// respondOptions are `aqp respond`'s flags.
type respondOptions struct {
	query, answer, answerText, explanation, confidence, consent, grants string
	from, carrier                                                       string
	respondentKind, provenance                                          string
	allowHTTPLoopback, json                                             bool
	allowHosts                                                          []string
	// signals are the --signal values: the host's timing signals (see hostSignals).
	signals []string
	// maxContinuations bounds a chain of continuations answered one after another.
	maxContinuations int
}

// defaultMaxContinuations is how many continuations in a row `aqp respond` answers by default: a collector's rules
// may ask a follow-up about every answer (even about the follow-up's own), and a respondent must not loop forever.
const defaultMaxContinuations = 10

func newRespondCmd(stdin io.Reader) *cobra.Command {
	var o respondOptions
	cmd := &cobra.Command{
		Use:   "respond (--query FILE|- | --from URL) (--answer JSON | --answer-text TEXT) [flags]",
		Short: "Answer a query: validate it, ask for consent, deliver the response and print the receipt",
		Long: `Answer one query, as an agent host would: the query (a QueryRequest JSON file, or - for standard input) is
validated and dropped if expired; consent is asked on the terminal when the query needs it (ask_once remembers a
grant per consentScope in the grant file; --consent granted answers for you); the answer is checked against the
query's response contract before anything is sent; then the response is delivered over the binding the query's
delivery names, retried (same responseId, same bytes) on a retryable receipt or a transport failure until the
query expires, and the receipt is printed.

--from URL takes the queries from an application instead, the way each binding carries them (--carrier): https
GETs the URL and reads its AQP-Query response headers, mcp calls the first tool of the MCP tool server at the URL
(no arguments) and reads the result's _meta, a2a sends the A2A agent at the URL a message and reads the reply's
metadata. Each query carried is answered in turn; one dropped (invalid, expired, an unauthorised destination) is
reported and not answered. The application is dialled under the same destination rules as delivery.

Timing: without --signal, running the command is the host's signal that the moment has come: a query timed
after_outcome_known, after_task_complete or deferred is answered now. With --signal the host says which signals it
has given, and nothing else counts: KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID (KIND outcome_known or task_complete, for
example outcome_known:tool_result/mcp:call_1; the subject matches by kind, id and protocol) signals one subject
before the query arrives; a bare KIND signals every query's subject; none gives no signal. The flag repeats, or
takes a comma-separated list. A query whose signal was not given waits for it until it expires and is then dropped,
never answered late (nothing else can give the signal later: Ctrl-C stops the wait).

Continuations: a continuation (the follow-up query an accepted receipt carries) is answered next, with the same
answer flags, up to --max-continuations in a chain; the one past the bound is printed, not answered. A
continuation whose contract the answer does not fit is not sent, and the error says why. With --json each receipt
is one line.

Destinations: https to public addresses only. --allow-http-loopback permits plain http to a loopback address (a
collector on this machine, such as "aqp serve"); --allow-host restricts delivery to the hosts listed. The rules
hold on the address actually dialled; redirects are refused.

Exit status: 0 accepted, 1 rejected, 2 usage error, unreadable or dropped query, consent refused, or delivery
failed.`,
		Example: `  # query.json: a query "aqp query create" printed (see its examples), from "aqp serve" on this machine
  aqp respond --query query.json --answer-text partly --allow-http-loopback
  aqp query create --consent-mode ask_once --consent-scope deploys:prod --subject-kind task --subject-id deploy-42 \
    --prompt "Approve the deploy?" --format boolean | aqp respond --query - --answer true --consent granted --json \
    --allow-http-loopback
  # the queries an MCP tool server's results carry (go run ./examples/mcp-tool-server, beside aqp serve)
  aqp respond --from http://127.0.0.1:8090/mcp --carrier mcp --answer-text yes --allow-http-loopback
  # q.json: a boolean query about tool call call_01JQ8QY3EJX9, timed after_outcome_known
  aqp respond --query q.json --answer true --signal outcome_known:tool_call/mcp:call_01JQ8QY3EJX9 --allow-http-loopback
  aqp respond --query query.json --answer-text yes --signal none --max-continuations 0 --allow-http-loopback`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return runRespond(ctx, o, stdin, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.query, "query", "", "the QueryRequest JSON file, - for standard input (required unless --from)")
	f.StringVar(&o.from, "from", "", "take the queries from the application at this URL instead (see --carrier) (default: none, use --query)")
	f.StringVar(&o.carrier, "carrier", "https", "how the application at --from carries queries: https, mcp, a2a")
	f.StringVar(&o.answer, "answer", "", "the answer as JSON: \"partly\", true, 0.5, {\"a\":1} (required unless --answer-text)")
	f.StringVar(&o.answerText, "answer-text", "", "the answer as text, for text and choice queries (required unless --answer)")
	f.StringVar(&o.explanation, "explanation", "", "the response's explanation (default: none)")
	f.StringVar(&o.confidence, "confidence", "", "the response's confidence, 0-1 (default: none)")
	f.StringVar(&o.consent, "consent", "", "\"granted\" to grant consent without being asked (default: ask on the terminal when needed)")
	f.StringVar(&o.grants, "grants", "", "the consent grant file (default: the user's config directory, aqp/consent-grants.json)")
	f.StringVar(&o.respondentKind, "respondent-kind", "", "respondent.kind: "+wordList(aqp.QueryResponseRespondentKindValues)+" (default agent: a program answers as an agent, and a query asking for another kind is not answered)")
	f.StringVar(&o.provenance, "provenance", "direct", "respondent.provenance: "+wordList(aqp.QueryResponseRespondentProvenanceValues))
	f.BoolVar(&o.allowHTTPLoopback, "allow-http-loopback", false, "permit plain http to a loopback address, a collector on this machine (default: refused)")
	f.StringSliceVar(&o.allowHosts, "allow-host", nil, "deliver only to these hosts (repeatable; default: any public host)")
	f.BoolVar(&o.json, "json", false, "print the receipt JSON (default: a summary)")
	f.StringSliceVar(&o.signals, "signal", nil, "a timing signal the host has given: KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID, a bare KIND for every subject, or none (repeatable; default: running the command signals everything)")
	f.IntVar(&o.maxContinuations, "max-continuations", defaultMaxContinuations, "answer at most this many continuations in a chain; 0 prints them unanswered")
	_ = cmd.MarkFlagFilename("query", "json")
	_ = cmd.RegisterFlagCompletionFunc("consent", completeWords("granted"))
	_ = cmd.RegisterFlagCompletionFunc("carrier", completeWords(bindings.Names()...))
	_ = cmd.RegisterFlagCompletionFunc("respondent-kind", completeWords(words(aqp.QueryResponseRespondentKindValues)...))
	_ = cmd.RegisterFlagCompletionFunc("provenance", completeWords(words(aqp.QueryResponseRespondentProvenanceValues)...))
	_ = cmd.RegisterFlagCompletionFunc("signal", completeWords(string(respondent.SignalOutcomeKnown), string(respondent.SignalTaskComplete), "none"))
	return cmd
}

func runRespond(ctx context.Context, o respondOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	switch {
	case o.query == "" && o.from == "":
		return usageError("missing required flag --query FILE (or - for standard input), or --from URL")
	case o.query != "" && o.from != "":
		return usageError("give one of --query FILE and --from URL, not both")
	case o.from != "" && !slices.Contains(bindings.Names(), o.carrier):
		return usageError("--carrier must be one of %s, not %q", strings.Join(bindings.Names(), ", "), o.carrier)
	case (o.answer == "") == (o.answerText == ""):
		return usageError("give exactly one of --answer JSON and --answer-text TEXT")
	case o.consent != "" && o.consent != "granted":
		return usageError("--consent takes only \"granted\"; to refuse, do not answer")
	case o.maxContinuations < 0:
		return usageError("--max-continuations must be 0 or more, not %d", o.maxContinuations)
	}
	host, err := parseHostSignals(o.signals)
	if err != nil {
		return usageError("--signal: %v", err)
	}
	var answer any = o.answerText
	if o.answer != "" {
		if !json.Valid([]byte(o.answer)) {
			return usageError("--answer is not JSON: %q (a text answer needs quotes, or use --answer-text)", o.answer)
		}
		answer = json.RawMessage(o.answer)
	}
	var confidence *float64
	if o.confidence != "" {
		c, err := strconv.ParseFloat(o.confidence, 64)
		if err != nil || c < 0 || c > 1 {
			return usageError("--confidence must be a number from 0 to 1, not %q", o.confidence)
		}
		confidence = &c
	}
	stdinUsed := false
	// One reader for every consent question, so a second question reads the line after the first answer.
	principal := bufio.NewReader(io.LimitReader(stdin, 64<<10))
	var in *input
	if o.query != "" {
		var err error
		if in, err = readInput(o.query, stdin, &stdinUsed); err != nil {
			return failure(exitUsage, fmt.Errorf("--query: %w", err))
		}
	}
	grantPath := o.grants
	if grantPath == "" {
		if grantPath, err = respondent.DefaultGrantPath(); err != nil {
			return failure(exitUsage, err)
		}
	}
	grants, err := respondent.OpenGrantFile(grantPath)
	if err != nil {
		return failure(exitUsage, err)
	}
	policy := &respondent.Policy{AllowHTTPLoopback: o.allowHTTPLoopback, AllowHosts: o.allowHosts}
	r, err := respondent.New(respondent.Config{
		Transports: bindings.Registry(policy),
		Policy:     policy,
		Grants:     grants,
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKind(o.respondentKind), Provenance: aqp.QueryResponseRespondentProvenance(o.provenance)},
		Answer: func(context.Context, *respondent.Query) (respondent.Answer, error) {
			return respondent.Answer{Value: answer, Explanation: o.explanation, Confidence: confidence}, nil
		},
		Consent: func(_ context.Context, q *respondent.Query) (bool, error) {
			if o.consent == "granted" {
				return true, nil
			}
			if stdinUsed {
				return false, errors.New("standard input carries the query, so consent cannot be asked there: pass --consent granted")
			}
			return askConsent(q, principal, stderr)
		},
		OnRetry: func(e respondent.RetryEvent) {
			say(stderr, "attempt %d failed: %s; retrying the same response in %s\n", e.Attempt, oneLine(e.Err.Error()), e.Wait.Round(100*time.Millisecond))
		},
	})
	if err != nil {
		return usageError("%v", err)
	}
	for _, s := range host.subjects {
		_ = r.Signal(s) // given before any query arrives, as a host's earlier signals are (D28)
	}
	if o.from == "" {
		q, err := r.Intake(o.query, in.data)
		if err != nil {
			return failure(exitUsage, err)
		}
		return answerQuery(ctx, o, host, r, q, stdout, stderr)
	}
	qs, drops, err := bindings.Fetch(ctx, policy.Client(), r, o.carrier, o.from)
	if err != nil {
		return failure(exitUsage, fmt.Errorf("--from: %w", err))
	}
	for _, d := range drops {
		say(stderr, "%v\n", d)
	}
	if len(qs) == 0 {
		return failure(exitUsage, fmt.Errorf("--from %s: no query to answer (%d dropped)", o.from, len(drops)))
	}
	var last error
	for _, q := range qs {
		if err := answerQuery(ctx, o, host, r, q, stdout, stderr); err != nil {
			last = err
		}
	}
	if last == nil && len(drops) > 0 {
		return exitStatus(exitUsage)
	}
	return last
}

// hostSignals are the timing signals the host has given, from --signal.
type hostSignals struct {
	// implicit: no --signal, so running the command is every signal for every query (D28).
	implicit bool
	// every are the kinds given bare: signalled for every query's subject.
	every []respondent.SignalKind
	// subjects are the signals about one subject each, given before any query arrives.
	subjects []respondent.Signal
}

// parseHostSignals reads the --signal values: none, bare kinds, or KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID.
func parseHostSignals(values []string) (hostSignals, error) {
	if len(values) == 0 {
		return hostSignals{implicit: true}, nil
	}
	var h hostSignals
	for _, v := range values {
		v = strings.TrimSpace(v)
		switch {
		case v == "none":
			if len(values) > 1 {
				return h, fmt.Errorf("none gives no signal, so it cannot be listed with others (%q)", strings.Join(values, ","))
			}
		case slices.Contains(respondent.SignalKinds, respondent.SignalKind(v)):
			h.every = append(h.every, respondent.SignalKind(v))
		default:
			s, err := respondent.ParseSignal(v)
			if err != nil {
				return h, fmt.Errorf("%w (or a bare %s, %s, or none)", err, respondent.SignalOutcomeKnown, respondent.SignalTaskComplete)
			}
			h.subjects = append(h.subjects, s)
		}
	}
	return h, nil
}

// release gives q's subject the signals the host gives every query, and says whether the signal q waits for has
// been given.
func (h hostSignals) release(r *respondent.Respondent, q *respondent.Query) (awaits respondent.Signal, given bool) {
	kinds := h.every
	if h.implicit {
		kinds = respondent.SignalKinds
	}
	for _, k := range kinds {
		_ = r.Signal(respondent.Signal{Kind: k, Subject: q.Request.Subject})
	}
	awaits, waits := q.Awaits()
	if !waits {
		return awaits, true
	}
	return awaits, slices.Contains(kinds, awaits.Kind) || slices.ContainsFunc(h.subjects, func(s respondent.Signal) bool { return s.String() == awaits.String() })
}

// answerQuery answers one query taken in, and then the continuations its accepted receipts carry, up to
// --max-continuations (respondent.FollowContinuations walks the chain), printing each receipt.
func answerQuery(ctx context.Context, o respondOptions, host hostSignals, r *respondent.Respondent, q *respondent.Query, stdout, stderr io.Writer) error {
	next, err := respondent.FollowContinuations(q, o.maxContinuations, func(q *respondent.Query, followed int) (*respondent.Result, error) {
		if followed > 0 {
			say(stderr, "continuation: query %s asks %q; answering it (%d of at most %d in this chain)\n", q.Request.QueryID, q.Request.Prompt, followed, o.maxContinuations)
		}
		return answerOne(ctx, o, host, r, q, stdout, stderr)
	})
	if err != nil || next == nil {
		return err
	}
	say(stdout, "continuation: query %s asks %q; not answered (--max-continuations %d reached); answer it with: aqp respond --query FILE holding this receipt's .continuation\n",
		next.Request.QueryID, next.Request.Prompt, o.maxContinuations)
	return nil
}

// answerOne answers one query and prints its receipt.
func answerOne(ctx context.Context, o respondOptions, host hostSignals, r *respondent.Respondent, q *respondent.Query, stdout, stderr io.Writer) (*respondent.Result, error) {
	if awaits, given := host.release(r, q); !given {
		say(stderr, "query %s is timed %s: waiting for the host's signal %s (not given by --signal) until it expires at %s, then dropping it\n",
			q.Request.QueryID, q.Request.Timing, awaits, q.Request.ExpiresAt)
	}
	d := q.Delivery()
	res, err := r.Respond(ctx, q)
	var rejected *respondent.RejectedError
	switch {
	case errors.As(err, &rejected):
		printReceipt(stdout, o.json, res)
		return nil, exitStatus(exitInvalid)
	case err != nil:
		return nil, failure(exitUsage, err)
	}
	say(stderr, "delivered the answer to query %s over %s to %s\n", q.Request.QueryID, d.Binding, d.Endpoint)
	printReceipt(stdout, o.json, res)
	return res, nil
}

// printReceipt prints the receipt JSON, or a summary of it.
func printReceipt(w io.Writer, asJSON bool, res *respondent.Result) {
	if asJSON {
		say(w, "%s\n", res.Receipt)
		return
	}
	rec := res.Parsed
	if res.Accepted {
		say(w, "accepted: response %s to query %s, received at %s (%d attempt(s))\n", rec.ResponseID, rec.QueryID, rec.ReceivedAt, res.Attempts)
	} else {
		say(w, "rejected: response %s to query %s: %s: %s", rec.ResponseID, rec.QueryID, rec.Error.Code, rec.Error.Message)
		if rec.Error.Pointer != nil {
			say(w, " (at %s)", *rec.Error.Pointer)
		}
		fmt.Fprintln(w)
	}
	if res.ContinuationDrop != nil {
		say(w, "continuation dropped: %v\n", res.ContinuationDrop)
	}
}

// askConsent asks the person at the terminal.
func askConsent(q *respondent.Query, principal *bufio.Reader, stderr io.Writer) (bool, error) {
	req := q.Request
	say(stderr, "Query %s asks for your consent (%s", req.QueryID, req.ConsentMode)
	if req.ConsentScope != nil {
		say(stderr, ", scope %q: granting it answers every query of this scope without asking again", *req.ConsentScope)
	}
	say(stderr, ").\n  prompt: %s\n", req.Prompt)
	if req.DataPolicy != nil {
		say(stderr, "  data policy: %s\n", *req.DataPolicy)
	}
	say(stderr, "Grant consent and send the answer to %s? [y/N] ", q.Delivery().Endpoint)
	line, err := principal.ReadString('\n')
	if err != nil && line == "" {
		if errors.Is(err, io.EOF) {
			return false, errors.New("no answer on standard input: pass --consent granted to grant consent without being asked")
		}
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
