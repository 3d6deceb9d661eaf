package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/gen/api"
)

func runQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprintln(stderr, "Usage: aqp query create [flags]   (see aqp query create --help)")
		return exitUsage
	}
	return runQueryCreate(args[1:], stdin, stdout, stderr)
}

// runQueryCreate issues a query through a collector's admin API and prints the QueryRequest JSON.
func runQueryCreate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aqp query create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", envOr("AQP_SERVER", "http://127.0.0.1:8080"), "collector base URL (env AQP_SERVER)")
	draftFile := fs.String("draft", "", "a QueryDraft JSON file (- for standard input); the other draft flags then override its members")
	typ := fs.String("type", "", "query type: feedback, evaluation, clarification, approval, status, preference, correction, survey, custom")
	prompt := fs.String("prompt", "", "the question (1-4000 characters)")
	instructions := fs.String("instructions", "", "instructions for the respondent")
	format := fs.String("format", "", "answer format: text, structured, choice, boolean, number (default text)")
	choices := fs.String("choices", "", "comma-separated choices, for --format choice")
	maxLength := fs.Int("max-length", 0, "response.maxLength")
	jsonSchemaFile := fs.String("json-schema", "", "file holding response.jsonSchema, for --format structured")
	subjectKind := fs.String("subject-kind", "", "subject kind: tool_call, tool_result, task, message, artifact, session, resource, response, custom")
	subjectID := fs.String("subject-id", "", "subject id")
	subjectScope := fs.String("subject-id-scope", "", "subject idScope: local or global")
	subjectProtocol := fs.String("subject-protocol", "", "subject protocol: mcp, a2a, https, aqp, other")
	respondent := fs.String("respondent", "", "requestedRespondent: agent, human, system, any")
	timing := fs.String("timing", "", "timing: immediate, after_outcome_known, after_task_complete, deferred (default immediate)")
	consentMode := fs.String("consent-mode", "", "consentMode: not_required, ask_once, ask_always (default not_required)")
	consentScope := fs.String("consent-scope", "", "consentScope, for ask_once")
	dataPolicy := fs.String("data-policy", "", "dataPolicy")
	binding := fs.String("binding", "", "binding to deliver over: https, mcp, a2a (default https)")
	ttl := fs.String("ttl", "", "time to expiry: seconds or a duration such as 15m (1s-24h, default 1h)")
	if _, err := parseInterleaved(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	draft := map[string]any{}
	if *draftFile != "" {
		used := false
		data, err := readInput(*draftFile, stdin, &used)
		if err != nil {
			fmt.Fprintf(stderr, "aqp query create: %v\n", err)
			return exitUsage
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&draft); err != nil {
			fmt.Fprintf(stderr, "aqp query create: %s: not a JSON object: %v\n", *draftFile, err)
			return exitUsage
		}
	}
	set := func(key, v string) {
		if v != "" {
			draft[key] = v
		}
	}
	set("type", *typ)
	set("prompt", *prompt)
	set("instructions", *instructions)
	set("timing", *timing)
	set("consentMode", *consentMode)
	set("consentScope", *consentScope)
	set("dataPolicy", *dataPolicy)
	set("requestedRespondent", *respondent)
	set("binding", *binding)
	subject, _ := draft["subject"].(map[string]any)
	if subject == nil {
		subject = map[string]any{}
	}
	for k, v := range map[string]string{"kind": *subjectKind, "id": *subjectID, "idScope": *subjectScope, "protocol": *subjectProtocol} {
		if v != "" {
			subject[k] = v
		}
	}
	draft["subject"] = subject
	response, _ := draft["response"].(map[string]any)
	if response == nil {
		response = map[string]any{}
	}
	if *format != "" {
		response["format"] = *format
	}
	if *choices != "" {
		var cs []string
		for _, c := range strings.Split(*choices, ",") {
			cs = append(cs, strings.TrimSpace(c))
		}
		response["choices"] = cs
		if _, ok := response["format"]; !ok {
			response["format"] = "choice"
		}
	}
	if *maxLength != 0 {
		response["maxLength"] = *maxLength
	}
	if *jsonSchemaFile != "" {
		b, err := os.ReadFile(*jsonSchemaFile)
		if err != nil {
			fmt.Fprintf(stderr, "aqp query create: --json-schema: %v\n", err)
			return exitUsage
		}
		response["jsonSchema"] = json.RawMessage(b)
		if _, ok := response["format"]; !ok {
			response["format"] = "structured"
		}
	}
	if _, ok := response["format"]; !ok {
		response["format"] = "text"
	}
	draft["response"] = response
	defaults := map[string]string{"type": "feedback", "timing": "immediate", "consentMode": "not_required"}
	for k, v := range defaults {
		if _, ok := draft[k]; !ok {
			draft[k] = v
		}
	}
	if *ttl != "" {
		secs, err := parseTTL(*ttl)
		if err != nil {
			fmt.Fprintf(stderr, "aqp query create: --ttl: %v\n", err)
			return exitUsage
		}
		draft["ttlSeconds"] = secs
	}
	body, err := json.Marshal(draft)
	if err != nil {
		fmt.Fprintf(stderr, "aqp query create: %v\n", err)
		return exitUsage
	}
	token := os.Getenv("AQP_ADMIN_TOKEN")
	if token == "" {
		fmt.Fprintln(stderr, "aqp query create: set AQP_ADMIN_TOKEN to the collector's admin token (aqp serve prints it at first start)")
		return exitUsage
	}
	client, err := api.NewClient(strings.TrimSuffix(*server, "/"), api.WithHTTPClient(&http.Client{Timeout: 30 * time.Second}))
	if err != nil {
		fmt.Fprintf(stderr, "aqp query create: --server: %v\n", err)
		return exitUsage
	}
	resp, err := client.CreateQueryWithBody(context.Background(), "application/json", bytes.NewReader(body),
		func(ctx context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+token)
			return nil
		})
	if err != nil {
		fmt.Fprintf(stderr, "aqp query create: %v\n", err)
		return exitUsage
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		fmt.Fprintf(stderr, "aqp query create: reading the reply: %v\n", err)
		return exitUsage
	}
	if resp.StatusCode != http.StatusCreated {
		fmt.Fprintf(stderr, "aqp query create: the collector answered %s:\n%s\n", resp.Status, describeProblem(out))
		return exitInvalid
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") == nil {
		out = pretty.Bytes()
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return exitOK
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
			fmt.Fprintf(&b, "\n  %s: %s [%s]", ptr, e.Message, e.Keyword)
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
