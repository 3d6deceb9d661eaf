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

	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/transports"
)

// respondOptions are `aqp respond`'s flags.
type respondOptions struct {
	query, answer, answerText, explanation, confidence, consent, grants string
	from, carrier                                                       string
	respondentKind, provenance                                          string
	allowHTTPLoopback, json                                             bool
	allowHosts                                                          []string
}

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

Running the command is the host's signal that the moment has come: a query timed after_outcome_known,
after_task_complete or deferred is answered now.

Destinations: https to public addresses only. --allow-http-loopback permits plain http to a loopback address (a
collector on this machine, such as "aqp serve"); --allow-host restricts delivery to the hosts listed. The rules
hold on the address actually dialled; redirects are refused.

Exit status: 0 accepted, 1 rejected, 2 usage error, unreadable or dropped query, consent refused, or delivery
failed.`,
		Example: `  aqp respond --query aqp-data/try/query.json --answer-text partly --allow-http-loopback
  aqp query create ... | aqp respond --query - --answer true --consent granted --json
  aqp respond --from http://127.0.0.1:8080/tools --carrier mcp --answer-text yes --allow-http-loopback`,
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
	f.StringVar(&o.respondentKind, "respondent-kind", "", "respondent.kind: agent, human, system (default: the query's requestedRespondent, else agent)")
	f.StringVar(&o.provenance, "provenance", "direct", "respondent.provenance: direct, relayed, inferred")
	f.BoolVar(&o.allowHTTPLoopback, "allow-http-loopback", false, "permit plain http to a loopback address, a collector on this machine (default: refused)")
	f.StringSliceVar(&o.allowHosts, "allow-host", nil, "deliver only to these hosts (repeatable; default: any public host)")
	f.BoolVar(&o.json, "json", false, "print the receipt JSON (default: a summary)")
	_ = cmd.MarkFlagFilename("query", "json")
	_ = cmd.RegisterFlagCompletionFunc("consent", completeWords("granted"))
	_ = cmd.RegisterFlagCompletionFunc("carrier", completeWords(transports.Carriers...))
	_ = cmd.RegisterFlagCompletionFunc("respondent-kind", completeWords("agent", "human", "system"))
	_ = cmd.RegisterFlagCompletionFunc("provenance", completeWords("direct", "relayed", "inferred"))
	return cmd
}

func runRespond(ctx context.Context, o respondOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	switch {
	case o.query == "" && o.from == "":
		return usageError("missing required flag --query FILE (or - for standard input), or --from URL")
	case o.query != "" && o.from != "":
		return usageError("give one of --query FILE and --from URL, not both")
	case o.from != "" && !slices.Contains(transports.Carriers, o.carrier):
		return usageError("--carrier must be one of %s, not %q", strings.Join(transports.Carriers, ", "), o.carrier)
	case (o.answer == "") == (o.answerText == ""):
		return usageError("give exactly one of --answer JSON and --answer-text TEXT")
	case o.consent != "" && o.consent != "granted":
		return usageError("--consent takes only \"granted\"; to refuse, do not answer")
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
	var in *input
	if o.query != "" {
		var err error
		if in, err = readInput(o.query, stdin, &stdinUsed); err != nil {
			return failure(exitUsage, fmt.Errorf("--query: %w", err))
		}
	}
	var err error
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
		Transports: transports.Registry(policy.Client()),
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
			return askConsent(q, stdin, stderr)
		},
		OnRetry: func(e respondent.RetryEvent) {
			fmt.Fprintf(stderr, "attempt %d failed: %s; retrying the same response in %s\n", e.Attempt, oneLine(e.Err.Error()), e.Wait.Round(100*time.Millisecond))
		},
	})
	if err != nil {
		return usageError("%v", err)
	}
	if o.from == "" {
		q, err := r.Intake(o.query, in.data)
		if err != nil {
			return failure(exitUsage, err)
		}
		return answerQuery(ctx, o, r, q, stdout, stderr)
	}
	qs, drops, err := transports.Fetch(ctx, policy.Client(), r, o.carrier, o.from)
	if err != nil {
		return failure(exitUsage, fmt.Errorf("--from: %w", err))
	}
	for _, d := range drops {
		fmt.Fprintf(stderr, "%v\n", d)
	}
	if len(qs) == 0 {
		return failure(exitUsage, fmt.Errorf("--from %s: no query to answer (%d dropped)", o.from, len(drops)))
	}
	var last error
	for _, q := range qs {
		if err := answerQuery(ctx, o, r, q, stdout, stderr); err != nil {
			last = err
		}
	}
	if last == nil && len(drops) > 0 {
		return exitStatus(exitUsage)
	}
	return last
}

// answerQuery answers one query taken in and prints its receipt.
func answerQuery(ctx context.Context, o respondOptions, r *respondent.Respondent, q *respondent.Query, stdout, stderr io.Writer) error {
	// Running the command is the host's signal that the moment has come (see Long).
	r.OutcomeKnown(q.Request.Subject)
	r.TaskComplete(q.Request.Subject)
	d := q.Delivery()
	fmt.Fprintf(stderr, "delivering the answer to query %s over %s to %s\n", q.Request.QueryID, d.Binding, d.Endpoint)
	res, err := r.Respond(ctx, q)
	var rejected *respondent.RejectedError
	switch {
	case errors.As(err, &rejected):
		printReceipt(stdout, o.json, res)
		return exitStatus(exitInvalid)
	case err != nil:
		return failure(exitUsage, err)
	}
	printReceipt(stdout, o.json, res)
	return nil
}

// printReceipt prints the receipt JSON, or a summary of it.
func printReceipt(w io.Writer, asJSON bool, res *respondent.Result) {
	if asJSON {
		fmt.Fprintf(w, "%s\n", res.Receipt)
		return
	}
	rec := res.Parsed
	if res.Accepted {
		fmt.Fprintf(w, "accepted: response %s to query %s, received at %s (%d attempt(s))\n", rec.ResponseID, rec.QueryID, rec.ReceivedAt, res.Attempts)
	} else {
		fmt.Fprintf(w, "rejected: response %s to query %s: %s: %s", rec.ResponseID, rec.QueryID, rec.Error.Code, rec.Error.Message)
		if rec.Error.Pointer != nil {
			fmt.Fprintf(w, " (at %s)", *rec.Error.Pointer)
		}
		fmt.Fprintln(w)
	}
	if res.Continuation != nil {
		fmt.Fprintf(w, "continuation: query %s asks %q; answer it with: aqp respond --query FILE holding this receipt's .continuation\n",
			res.Continuation.Request.QueryID, res.Continuation.Request.Prompt)
	} else if res.ContinuationDrop != nil {
		fmt.Fprintf(w, "continuation dropped: %v\n", res.ContinuationDrop)
	}
}

// askConsent asks the person at the terminal.
func askConsent(q *respondent.Query, stdin io.Reader, stderr io.Writer) (bool, error) {
	req := q.Request
	fmt.Fprintf(stderr, "Query %s asks for your consent (%s", req.QueryID, req.ConsentMode)
	if req.ConsentScope != nil {
		fmt.Fprintf(stderr, ", scope %q: granting it answers every query of this scope without asking again", *req.ConsentScope)
	}
	fmt.Fprintf(stderr, ").\n  prompt: %s\n", req.Prompt)
	if req.DataPolicy != nil {
		fmt.Fprintf(stderr, "  data policy: %s\n", *req.DataPolicy)
	}
	fmt.Fprintf(stderr, "Grant consent and send the answer to %s? [y/N] ", q.Delivery().Endpoint)
	line, err := bufio.NewReader(io.LimitReader(stdin, 1024)).ReadString('\n')
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
