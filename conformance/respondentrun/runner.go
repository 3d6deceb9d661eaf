// Package respondentrun checks any respondent — ours or another's — the way the MCP conformance package checks
// clients: it plays collector and carrier. An embedded collector (memory store) listens on a loopback port and
// serves every binding; per binding a carrier (an HTTPS endpoint answering with AQP-Query headers, an MCP tool
// server whose results carry queries in _meta, an A2A agent whose replies carry them in metadata) carries a query
// the scenario shapes; the respondent under test is started as a subprocess with {url} replaced by the carrier's
// URL ({binding} by the binding's name) and the runner checks what reaches the collector. The runner plays the
// respondent's principal too: it writes "y" (grant) or "n" (refuse) and a newline on the subprocess's standard
// input, for a respondent that asks for consent there. And it plays the respondent's host for timing: {signals}
// tells the respondent which timing signals its host has given (see Config.Command), so a query timed
// after_outcome_known or after_task_complete is answered when its signal was given and given up at its expiry
// when not. The embedded collector follows up an accepted answer to a correction query with a continuation,
// which the respondent must answer too.
package respondentrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// Status is a check's verdict, as the report gives it.
type Status = report.Status

// The verdicts. Skip is an inconclusive check: one that passes only by something not happening, over a column where
// the respondent never showed that it delivers (see absent).
const (
	Pass = report.Pass
	Fail = report.Fail
	Skip = report.Skip
)

// Record is one check of one scenario over one binding, as the JSON report lists it.
type Record struct {
	Scenario     string   `json:"scenario"`
	Check        string   `json:"check"`
	Requirements []string `json:"requirements"`
	Binding      string   `json:"binding"`
	Status       Status   `json:"status"`
	Evidence     string   `json:"evidence"`
	// Failed are the requirements a failure is attributed to when they are not the check's own: a check that
	// failed only because the collector refused every answer for a rule the respondent broke is that rule's
	// failure (see refusalBlame). Empty: the check's own requirements.
	Failed []string `json:"failed,omitempty"`
}

// Config is one run.
type Config struct {
	// Command is the respondent under test and its arguments; in every argument {url} is replaced by the carrier's
	// URL, {binding} by the binding's name, and {signals} by the timing signals the runner, as the respondent's
	// host, has given before the query arrives: a comma-separated list of KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID
	// (respondent.Signal; KIND outcome_known or task_complete), or none. Without {signals} the scenarios that need
	// the host's signals fail, saying so.
	Command []string
	// Bindings are the columns to run over, each a column's name or a binding's (all its columns); empty is every
	// one of Columns.
	Bindings []string
	// Timeout bounds one start of the respondent; default 60 s.
	Timeout time.Duration
	// Progress, when set, receives a line per check as it is decided.
	Progress io.Writer
	// Run, when set, keeps only the scenarios whose name it matches, to look at one failure without the rest.
	Run *regexp.Regexp
}

// Run runs every scenario over every binding asked for and returns one record per check. The error is a run
// that could not be made (no command, an unknown binding, the collector could not start); failed checks are
// records, not errors.
func Run(ctx context.Context, cfg Config) ([]Record, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("no respondent command: give it after --, with {url} where the carrier's URL goes")
	}
	if !slices.ContainsFunc(cfg.Command, func(a string) bool { return strings.Contains(a, "{url}") }) {
		return nil, fmt.Errorf("the respondent command %q has no {url}: the respondent must be told where the carrier is", strings.Join(cfg.Command, " "))
	}
	columns, err := SelectColumns(cfg.Bindings)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Run != nil && !slices.ContainsFunc(Scenarios, func(sc Scenario) bool { return cfg.Run.MatchString(sc.Name) }) {
		return nil, fmt.Errorf("no scenario name matches %q", cfg.Run)
	}
	// A respondent that cannot start would pass every check that something is not sent: refuse the run at once.
	if _, err := exec.LookPath(cfg.Command[0]); err != nil {
		return nil, fmt.Errorf("the respondent command %q cannot be started: %w", cfg.Command[0], err)
	}
	e, err := newEnv()
	if err != nil {
		return nil, fmt.Errorf("starting the embedded collector: %w", err)
	}
	defer e.close()
	// Columns run at once, each on its own collector listener and carriers; within a column, scenarios in order.
	perColumn := make([][]Record, len(columns))
	var progress sync.Mutex
	var wg sync.WaitGroup
	for i, c := range columns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			perColumn[i] = runColumn(ctx, e, cfg, c, &progress)
		}()
	}
	wg.Wait()
	var out []Record
	for _, recs := range perColumn {
		out = append(out, recs...)
	}
	return out, nil
}

// run is what one start of the respondent produced: the query carried, what reached the collector, and how the
// process ended.
type run struct {
	binding  string
	query    *queryInfo
	arrivals []arrival
	exit     string
	output   string
	// signals is what {signals} expanded to: the timing signals the runner, as host, gave.
	signals string
	// timedOut is true when the runner stopped the respondent at its deadline.
	timedOut bool
	// ended is when the respondent's process ended (or was stopped).
	ended time.Time
	// alive reports whether the respondent has shown over this column that it delivers (see absent); set by
	// the runner.
	alive func() bool
	// inconclusive is set by a check that could neither pass nor fail (see absent).
	inconclusive bool
}

type queryInfo struct {
	QueryID   string         `json:"queryId"`
	ExpiresAt time.Time      `json:"expiresAt"`
	Subject   map[string]any `json:"subject"`
	Delivery  struct {
		Authorization string `json:"authorization"`
	} `json:"delivery"`
}

// runColumn runs every scenario over one column, in order; progress lines are written under mu.
func runColumn(ctx context.Context, e *env, cfg Config, c Column, mu *sync.Mutex) []Record {
	st := &columnState{}
	st.control = func() bool {
		if r, err := start(ctx, e, cfg, Scenarios[0], c); err == nil {
			return slices.ContainsFunc(r.arrivals, func(a arrival) bool { return a.Accepted })
		}
		return false
	}
	var out []Record
	for _, sc := range Scenarios {
		if cfg.Run != nil && !cfg.Run.MatchString(sc.Name) {
			continue
		}
		recs := runOne(ctx, e, cfg, sc, c, st)
		if cfg.Progress != nil {
			mu.Lock()
			for _, r := range recs {
				fmt.Fprintf(cfg.Progress, "%-4s %-17s %-22s %-34s %s\n", r.Status, c.Name, sc.Name, r.Check, strings.Join(r.Requirements, " "))
			}
			mu.Unlock()
		}
		out = append(out, recs...)
	}
	return out
}

// columnState is what the runner has seen of the respondent over one column: whether it has delivered an answer
// the collector accepted, and how to find out with a control query when it has not yet (once).
type columnState struct {
	alive, asked bool
	control      func() bool
}

func (st *columnState) isAlive() bool {
	if !st.alive && !st.asked {
		st.asked = true
		st.alive = st.control()
	}
	return st.alive
}

// runOne runs one scenario over one column; a setup failure fails every check of the scenario with its reason.
func runOne(ctx context.Context, e *env, cfg Config, sc Scenario, col Column, st *columnState) []Record {
	r, err := start(ctx, e, cfg, sc, col)
	if err == nil {
		if slices.ContainsFunc(r.arrivals, func(a arrival) bool { return a.Accepted }) {
			st.alive = true
		}
		r.alive = st.isAlive
	}
	recs := make([]Record, 0, len(sc.Checks))
	for _, c := range sc.Checks {
		rec := Record{Scenario: sc.Name, Check: c.Name, Requirements: c.Requirements, Binding: col.Name}
		if err != nil {
			rec.Status, rec.Evidence = Fail, "the scenario could not be run: "+err.Error()
		} else if ev, ok := c.Judge(r); ok {
			rec.Status, rec.Evidence = Pass, ev
		} else if r.inconclusive {
			rec.Status, rec.Evidence = Skip, ev
			r.inconclusive = false
		} else {
			rec.Status, rec.Evidence = Fail, ev+"; respondent "+r.exit+", its output ends: "+r.output
			if code, blame := refusalBlame(r); blame != nil {
				rec.Failed = blame
				rec.Evidence += fmt.Sprintf("; blamed on %s: the collector refused every answer %s", strings.Join(blame, ", "), code)
			}
		}
		recs = append(recs, rec)
	}
	return recs
}

// refusals are the rules a respondent breaks that a collector names in its rejection: when it refuses every answer
// of a run for one of them, every check of the run that failed for want of an accepted answer (delivery, retry,
// consent, timing, continuation) is that rule's failure, so a respondent that omits its capability fails
// AQP-BIND-AUTH-HEADER, not every requirement whose check needed an accepted answer.
var refusals = map[core.Code][]string{
	core.CodeUnauthorized:       {"AQP-BIND-AUTH-HEADER"},
	core.CodeSubjectMismatch:    {"AQP-D3", "AQP-PAIR-SUBJECT-MISMATCH"},
	core.CodeQueryMismatch:      {"AQP-PAIR-QUERY-MISMATCH"},
	core.CodeInvalidResponse:    {"AQP-OBJ-RESPONSE"},
	core.CodeAnswerInvalid:      {"AQP-PAIR-ANSWER-INVALID"},
	core.CodeConsentRequired:    {"AQP-PAIR-CONSENT-REQUIRED"},
	core.CodeConsentMismatch:    {"AQP-PAIR-CONSENT-MISMATCH"},
	core.CodeRespondentMismatch: {"AQP-PAIR-RESPONDENT-MISMATCH"},
	core.CodeExpired:            {"AQP-RESP-VALIDATE"},
	core.CodeUnsupportedVersion: {"AQP-OBJ-RESPONSE"},
	core.CodeResponseIDConflict: {"AQP-RESP-RETRY"},
}

// refusalBlame returns the rule the collector named when it accepted nothing of the run and its last final
// (non-retryable) rejection names one of refusals; nil otherwise.
func refusalBlame(r *run) (core.Code, []string) {
	var last core.Code
	for _, a := range r.arrivals {
		if a.Accepted {
			return "", nil
		}
		if a.Code != core.CodeUnavailable && a.Code != core.CodeRateLimited {
			last = a.Code
		}
	}
	return last, refusals[last]
}

// noHost is why a scenario that needs the host's timing signals cannot run with a command that has no {signals}.
const noHost = "the respondent command has no {signals}, so the runner cannot play the host: it cannot tell the respondent which timing signals its host has given (put {signals} where the respondent reads them, e.g. --signal {signals})"

func start(ctx context.Context, e *env, cfg Config, sc Scenario, col Column) (*run, error) {
	binding := col.Binding
	if sc.needsHost() && !slices.ContainsFunc(cfg.Command, func(a string) bool { return strings.Contains(a, "{signals}") }) {
		return nil, errors.New(noHost)
	}
	query, err := e.issue(ctx, sc.draft(binding), sc.Expired)
	if err != nil {
		return nil, fmt.Errorf("issuing the query: %w", err)
	}
	var qi queryInfo
	if err := json.Unmarshal(query, &qi); err != nil {
		return nil, err
	}
	if query, err = e.atColumn(col, query); err != nil {
		return nil, err
	}
	if sc.Unauthorised {
		if query, err = redirect(query); err != nil {
			return nil, err
		}
	}
	if sc.FailOnce {
		e.store.armed.Store(qi.QueryID, struct{}{})
		defer e.store.armed.Delete(qi.QueryID)
	}
	url, done, err := e.carry(col, query)
	if err != nil {
		return nil, err
	}
	defer done()
	home, err := os.MkdirTemp("", "aqp-respondent-under-test-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	signals := sc.signals(binding)
	args := make([]string, len(cfg.Command))
	for i, a := range cfg.Command {
		args[i] = strings.NewReplacer("{url}", url, "{binding}", binding, "{signals}", signals).Replace(a)
	}
	timeout := cfg.Timeout
	if sc.TTLSeconds > 0 {
		// A respondent still running this long after the query expired has not given it up.
		timeout = min(timeout, time.Duration(sc.TTLSeconds)*time.Second+giveUpGrace)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, args[0], args[1:]...)
	principal := "y\n"
	if sc.RefuseConsent {
		principal = "n\n"
	}
	cmd.Stdin = strings.NewReader(principal)
	// A home of its own, so that no grant remembered by an earlier run (or by the user) answers for the principal.
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.WaitDelay = 5 * time.Second
	r := &run{binding: binding, query: &qi, exit: "exited 0", signals: signals}
	if err := cmd.Run(); err != nil {
		r.exit = err.Error()
		if cctx.Err() != nil {
			r.exit, r.timedOut = fmt.Sprintf("did not finish in %s", timeout), true
		}
	}
	r.ended = time.Now()
	r.arrivals = e.rec.take(qi.QueryID)
	out := strings.TrimSpace(buf.String())
	if len(out) > 600 {
		out = "…" + out[len(out)-600:]
	}
	r.output = fmt.Sprintf("%q", out)
	return r, nil
}

// parseResponse decodes one arrival's body, for the checks.
func parseResponse(a arrival) (map[string]any, core.Errors) {
	doc := core.Parse(core.KindResponse, a.Body)
	if !doc.Valid() {
		return nil, doc.Errors
	}
	return doc.Object(), nil
}
