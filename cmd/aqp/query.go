package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

func newQueryCmd(stdin io.Reader) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "query",
		Short: "Issue queries through a running collector",
		Long: `Commands that talk to a running collector's admin API (see "aqp serve"). They authenticate with the
collector's admin token, read from the environment variable AQP_ADMIN_TOKEN.`,
		Example: `  export AQP_ADMIN_TOKEN=$(cat aqp-data/admin-token)   # kept there by aqp serve at first start
  aqp query create --consent-mode not_required --subject-kind task --subject-id t1 --prompt "Done?" --format boolean`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("missing subcommand: aqp query create")
			}
			return usageError("unknown subcommand %q: aqp query create", args[0])
		},
	}
	cmd.AddCommand(newQueryCreateCmd(stdin))
	return cmd
}

// queryCreateOptions are `aqp query create`'s flags.
type queryCreateOptions struct {
	server, draftFile, typ, prompt, instructions, format, choices, jsonSchemaFile string
	subjectKind, subjectID, subjectScope, subjectProtocol, respondent, timing     string
	consentMode, consentScope, dataPolicy, binding, ttl                           string
	maxLength                                                                     int
}

func newQueryCreateCmd(stdin io.Reader) *cobra.Command {
	var o queryCreateOptions
	cmd := &cobra.Command{
		Use:   "create [flags]",
		Short: "Issue a query through a collector's admin API and print the QueryRequest",
		Long: `Issue a query through a running collector's admin API (POST /admin/v1/queries) and print the QueryRequest
the collector issued, with its queryId, delivery endpoint, delivery authorization and expiry.

The query is built from the flags, or from a QueryDraft JSON file (--draft) whose members the flags then
override. --consent-mode has no default: how consent works is the asker's decision (ask_once also needs
--consent-scope). Without --draft, --prompt, --subject-kind and --subject-id are required too. Missing required
flags are reported before anything is sent.

The collector's admin token is read from the environment variable AQP_ADMIN_TOKEN: "aqp serve" prints it at
first start and keeps it in its data directory (aqp-data/admin-token). The collector's address is --server, or
the environment variable AQP_SERVER.

Exit status: 0 issued, 1 the collector refused the query (its errors are printed), 2 usage error, unreadable
input or no collector reachable.`,
		Example: `  export AQP_ADMIN_TOKEN=$(cat aqp-data/admin-token)   # kept there by aqp serve at first start
  aqp query create --type clarification --consent-mode not_required \
    --subject-kind tool_call --subject-id call_01JQ8QY3EJX9 --subject-protocol mcp \
    --prompt "Did this tool result fully answer the user's request?" --choices yes,partly,no > query.json
  # draft.json: a QueryDraft, the admin API's body (spec/openapi.yaml)
  aqp query create --draft draft.json --ttl 15m
  aqp query create --server http://collector.internal:8080 --consent-mode ask_once --consent-scope deploys:prod \
    --type approval --subject-kind task --subject-id deploy-42 --prompt "Approve the deploy?" --format boolean`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueryCreate(cmd, o, stdin, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", envOr("AQP_SERVER", "http://127.0.0.1:8080"), "collector base URL (env AQP_SERVER)")
	f.StringVar(&o.draftFile, "draft", "", "a QueryDraft JSON file (- for standard input); the other flags override its members (default: none, the query is built from the flags)")
	f.StringVar(&o.typ, "type", "feedback", "query type: "+wordList(aqp.QueryRequestTypeValues))
	f.StringVar(&o.prompt, "prompt", "", "the question, 1-4000 characters (required without --draft)")
	f.StringVar(&o.instructions, "instructions", "", "instructions for the respondent (default: none)")
	f.StringVar(&o.format, "format", "", "answer format: "+wordList(aqp.QueryRequestResponseFormatValues)+" (default: choice with --choices, structured with --json-schema, else text)")
	f.StringVar(&o.choices, "choices", "", "comma-separated choices, for --format choice (default: none)")
	f.IntVar(&o.maxLength, "max-length", 0, "response.maxLength, the longest text answer accepted (default: none, no limit beyond the protocol's)")
	f.StringVar(&o.jsonSchemaFile, "json-schema", "", "file holding response.jsonSchema, for --format structured (default: none)")
	f.StringVar(&o.subjectKind, "subject-kind", "", "subject kind: "+wordList(aqp.QuerySubjectKindValues)+" (required without --draft)")
	f.StringVar(&o.subjectID, "subject-id", "", "subject id (required without --draft)")
	f.StringVar(&o.subjectScope, "subject-id-scope", "", "subject idScope: "+wordList(aqp.QuerySubjectIDScopeValues)+" (default: none, unscoped)")
	f.StringVar(&o.subjectProtocol, "subject-protocol", "", "subject protocol: "+wordList(aqp.QuerySubjectProtocolValues)+" (default: none)")
	f.StringVar(&o.respondent, "respondent", "", "requestedRespondent: "+wordList(aqp.QueryRequestRequestedRespondentValues)+" (default: none, whoever answers)")
	f.StringVar(&o.timing, "timing", "immediate", "timing: "+wordList(aqp.QueryRequestTimingValues))
	f.StringVar(&o.consentMode, "consent-mode", "", "consentMode: "+wordList(aqp.QueryRequestConsentModeValues)+" (required without --draft; no default)")
	f.StringVar(&o.consentScope, "consent-scope", "", "consentScope (required with --consent-mode ask_once; default: none)")
	f.StringVar(&o.dataPolicy, "data-policy", "", "dataPolicy, how the answer will be used and kept (default: none)")
	f.StringVar(&o.binding, "binding", "", "binding to deliver over: "+strings.Join(bindings.Names(), ", ")+" (default: the collector's, https)")
	f.StringVar(&o.ttl, "ttl", "", "time to expiry: seconds or a duration such as 15m, 1s-24h (default: the collector's, 1h)")
	_ = cmd.MarkFlagFilename("draft", "json")
	_ = cmd.MarkFlagFilename("json-schema", "json")
	for flag, words := range map[string][]string{
		"type":             words(aqp.QueryRequestTypeValues),
		"format":           words(aqp.QueryRequestResponseFormatValues),
		"subject-kind":     words(aqp.QuerySubjectKindValues),
		"subject-id-scope": words(aqp.QuerySubjectIDScopeValues),
		"subject-protocol": words(aqp.QuerySubjectProtocolValues),
		"respondent":       words(aqp.QueryRequestRequestedRespondentValues),
		"timing":           words(aqp.QueryRequestTimingValues),
		"consent-mode":     words(aqp.QueryRequestConsentModeValues),
		"binding":          bindings.Names(),
	} {
		_ = cmd.RegisterFlagCompletionFunc(flag, completeWords(words...))
	}
	return cmd
}

// requiredFlags name the flag that sets each draft member a query cannot go without, by the pointer at which
// collector.CheckDraft reports the member missing, in the order a usage message lists them.
var requiredFlags = []struct{ pointer, flag string }{
	{"/consentMode", "consent-mode"}, {"/prompt", "prompt"}, {"/subject/kind", "subject-kind"}, {"/subject/id", "subject-id"},
	{"/consentScope", "consent-scope"},
}

// missingFlags are the flags of the required members the draft lacks, as collector.CheckDraft finds them. The
// binding is left out of the check: a binding the collector does not serve is the collector's to say, and must not
// hide a missing flag.
func missingFlags(draft map[string]any) []string {
	check := make(map[string]any, len(draft))
	for k, v := range draft {
		if k != "binding" {
			check[k] = v
		}
	}
	var ie *collector.IssueError
	if !errors.As(collector.CheckDraft(check), &ie) {
		return nil
	}
	var missing []string
	for _, r := range requiredFlags {
		if slices.ContainsFunc(ie.Errors, func(e core.Error) bool { return e.Keyword == "required" && e.Pointer == r.pointer }) {
			missing = append(missing, "--"+r.flag)
		}
	}
	// Without a consentMode the schema's ask_once condition holds vacuously and asks for a consentScope too; the
	// scope is only missing once the mode is given as ask_once.
	if slices.Contains(missing, "--consent-mode") {
		missing = slices.DeleteFunc(missing, func(f string) bool { return f == "--consent-scope" })
	}
	return missing
}

// runQueryCreate issues a query through a collector's admin API and prints the QueryRequest JSON.
func runQueryCreate(cmd *cobra.Command, o queryCreateOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	changed := cmd.Flags().Changed
	draft := map[string]any{}
	stdinUsed := false
	if o.draftFile != "" {
		in, err := readInput(o.draftFile, stdin, &stdinUsed)
		if err != nil {
			return failure(exitUsage, fmt.Errorf("--draft: %w", err))
		}
		dec := json.NewDecoder(bytes.NewReader(in.data))
		dec.UseNumber()
		if err := dec.Decode(&draft); err != nil {
			return failure(exitUsage, fmt.Errorf("--draft: %s: not a JSON object: %v", o.draftFile, err))
		}
	}
	set := func(key, v string) {
		if v != "" {
			draft[key] = v
		}
	}
	// Flags with a default fill a member the draft lacks, and override it when given.
	for _, d := range []struct{ flag, key, v string }{{"type", "type", o.typ}, {"timing", "timing", o.timing}} {
		if _, ok := draft[d.key]; changed(d.flag) || !ok {
			set(d.key, d.v)
		}
	}
	set("prompt", o.prompt)
	set("instructions", o.instructions)
	set("consentMode", o.consentMode)
	set("consentScope", o.consentScope)
	set("dataPolicy", o.dataPolicy)
	set("requestedRespondent", o.respondent)
	set("binding", o.binding)
	subject, _ := draft["subject"].(map[string]any)
	if subject == nil {
		subject = map[string]any{}
	}
	for k, v := range map[string]string{"kind": o.subjectKind, "id": o.subjectID, "idScope": o.subjectScope, "protocol": o.subjectProtocol} {
		if v != "" {
			subject[k] = v
		}
	}
	draft["subject"] = subject

	missing := missingFlags(draft)
	if len(missing) > 0 {
		where := ""
		if o.draftFile != "" {
			where = " (neither given as flags nor in the --draft file)"
		}
		return usageError("missing required %s %s%s", plural(len(missing), "flag", "flags"), strings.Join(missing, ", "), where)
	}

	response, _ := draft["response"].(map[string]any)
	if response == nil {
		response = map[string]any{}
	}
	if o.format != "" {
		response["format"] = o.format
	}
	if o.choices != "" {
		var cs []string
		for _, c := range strings.Split(o.choices, ",") {
			cs = append(cs, strings.TrimSpace(c))
		}
		response["choices"] = cs
		if _, ok := response["format"]; !ok {
			response["format"] = "choice"
		}
	}
	if o.maxLength != 0 {
		response["maxLength"] = o.maxLength
	}
	if o.jsonSchemaFile != "" {
		in, err := readInput(o.jsonSchemaFile, stdin, &stdinUsed)
		if err != nil {
			return failure(exitUsage, fmt.Errorf("--json-schema: %w", err))
		}
		if !json.Valid(in.data) {
			return failure(exitUsage, fmt.Errorf("--json-schema: %s is not JSON", o.jsonSchemaFile))
		}
		response["jsonSchema"] = json.RawMessage(in.data)
		if _, ok := response["format"]; !ok {
			response["format"] = "structured"
		}
	}
	if _, ok := response["format"]; !ok {
		response["format"] = "text"
	}
	draft["response"] = response
	if o.ttl != "" {
		secs, err := parseTTL(o.ttl)
		if err != nil {
			return usageError("--ttl: %v", err)
		}
		draft["ttlSeconds"] = secs
	}
	body, err := json.Marshal(draft)
	if err != nil {
		return failure(exitUsage, err)
	}
	token := os.Getenv("AQP_ADMIN_TOKEN")
	if token == "" {
		return usageError("set AQP_ADMIN_TOKEN to the collector's admin token (aqp serve prints it at first start and keeps it in its data directory, aqp-data/admin-token)")
	}
	server := strings.TrimSuffix(o.server, "/")
	client, err := api.NewClient(server, api.WithHTTPClient(&http.Client{Timeout: 30 * time.Second}))
	if err != nil {
		return usageError("--server: %v", err)
	}
	resp, err := client.CreateQueryWithBody(context.Background(), "application/json", bytes.NewReader(body),
		func(ctx context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+token)
			return nil
		})
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			say(stderr, "aqp query create: no collector answers at %s (connection refused).\n"+
				"Start one in another terminal: `go run ./cmd/aqp serve` from the repository root, or `aqp serve`;\n"+
				"or point --server (env AQP_SERVER) at a running collector.\n", server)
			return exitStatus(exitUsage)
		}
		return failure(exitUsage, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return failure(exitUsage, fmt.Errorf("reading the reply: %w", err))
	}
	if resp.StatusCode != http.StatusCreated {
		say(stderr, "aqp query create: the collector answered %s:\n%s\n", resp.Status, describeProblem(out))
		return exitStatus(exitInvalid)
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") == nil {
		out = pretty.Bytes()
	}
	say(stdout, "%s\n", out)
	return nil
}

// describeProblem renders a problem document's errors one per line, or the body as it is.
func describeProblem(body []byte) string {
	var p api.Problem
	if json.Unmarshal(body, &p) != nil || p.Title == "" {
		return string(body)
	}
	var b strings.Builder
	b.WriteString("  " + p.Title)
	if p.Detail != nil {
		b.WriteString(": " + *p.Detail)
	}
	if p.Errors != nil {
		for _, e := range *p.Errors {
			ptr := e.Pointer
			if ptr == "" {
				ptr = "(root)"
			}
			say(&b, "\n  %s: %s [%s]", ptr, e.Message, e.Keyword)
		}
	}
	return b.String()
}

func parseTTL(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is neither seconds nor a duration like 15m", s)
	}
	if d%time.Second != 0 {
		return 0, fmt.Errorf("%q is not a whole number of seconds", s)
	}
	return int(d / time.Second), nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
