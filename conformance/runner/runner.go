// Package runner runs the collector scenario corpus against any running collector — ours or another's — over the
// bindings the caller hands it (it imports no binding: `aqp conformance collector` passes in each binding's
// submitter from its test package). A remote collector's clock, ids, store and rules cannot be set, so each
// scenario runs through harness.Run with a remote target that maps the scenario's fixed queryIds to the issued ones
// and its timestamps to the collector's clock, moves time by really waiting (with short TTLs), and checks every
// expectation except byte-identity to core; scenarios that need control the collector does not offer are skipped
// with the reason.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Binding is one binding the runner drives.
type Binding struct {
	// Name is the binding's name (https, mcp, a2a).
	Name string
	// Carries lists the scenario requirements (conformance.Requires*) the binding's transport can carry.
	Carries []string
	// Requirements lists the requirements.json ids the submitter's wire checks enforce (targets.HTTPSRequirements,
	// …): what a run over this binding proves beyond the scenarios' own requirements, and what a failed wire
	// check (a *harness.RuleError) is attributed to.
	Requirements []string
	// Remote returns the column's client to the collector at baseURL: it submits over the binding and checks the
	// binding's wire form (conformance/targets' HTTPSRemote, MCPRemote, A2ARemote).
	Remote func(baseURL string) harness.ColumnClient
	// Surfaces are the pinned surfaces the binding's column serves (harness.Column.Surfaces), read once.
	Surfaces []harness.Surface
}

// FromColumns are the Bindings that run columns (conformance/targets.All, or a selection of it), each column's
// client sending with hc.
func FromColumns(columns []harness.Column, hc *http.Client) []Binding {
	out := make([]Binding, 0, len(columns))
	for _, c := range columns {
		out = append(out, Binding{Name: c.Name, Carries: c.Carries, Requirements: c.Requirements, Surfaces: c.Surfaces,
			Remote: func(u string) harness.ColumnClient { return c.Remote(u, hc) }})
	}
	return out
}

// Issuer issues a QueryDraft at the collector under test and returns the QueryRequest JSON.
type Issuer func(ctx context.Context, draft []byte) ([]byte, error)

// RealTTL is the ttlSeconds a scenario that moves the clock gives its queries, so that expiry can be reached by
// really waiting: such a scenario takes at most RealTTL plus one second of waiting.
const RealTTL = 3 * time.Second

// Options configure a run.
type Options struct {
	// Target is the collector's base URL.
	Target string
	// Bindings are the bindings to run every scenario over, in order.
	Bindings []Binding
	// Issue issues the scenarios' queries.
	Issue Issuer
	// Progress, when set, gets one line per scenario and binding as the run goes.
	Progress io.Writer
	// Files are the scenarios; nil means the embedded corpus.
	Files []conformance.ScenarioFile
	// Run, when set, keeps only the scenarios whose name it matches, to look at one failure without the rest.
	Run *regexp.Regexp
	// TargetRateLimit, when set, is the per-query rate limit the collector runs with, which lets the scenarios
	// written against that limit run remotely (and their 429s and Retry-After be checked).
	TargetRateLimit *conformance.ScenarioRateLimit
	// HTTP reads the pinned surfaces (discovery, schemas, OpenAPI, and each column's); nil uses
	// http.DefaultClient.
	HTTP *http.Client
	// Parallel is how many columns run at once (each column's scenarios run in order); 0 or 1 runs them one after
	// another. Every column is one client of the collector, so a collector that limits failed submissions per
	// client address sees them together: raise it against a collector whose limits allow.
	Parallel int
}

// Status is a check's verdict, as the report gives it.
type Status = report.Status

// The verdicts a run gives; the report's expected-fail comes from an expected-failures file afterwards.
const (
	Pass = report.Pass
	Fail = report.Fail
	Skip = report.Skip
)

// Record is one check: one scenario over one binding.
type Record struct {
	// Scenario is the scenario's name and File the corpus file holding it.
	Scenario string `json:"scenario"`
	File     string `json:"file"`
	// Requirements are the catalogue ids the scenario proves.
	Requirements []string `json:"requirements"`
	// Binding is the binding it ran over.
	Binding string `json:"binding"`
	// Status is pass, fail or skip.
	Status Status `json:"status"`
	// FailedRequirements, for a failed check, are the requirements the failure is attributed to: the binding
	// requirement a wire check names when the binding's wire form was wrong (a *harness.RuleError), else those the
	// failed step proves (its expect's requirements when tagged, else the scenario's Requirements), since the
	// receipt or an expectation was wrong. Empty unless Status is fail.
	FailedRequirements []string `json:"failedRequirements,omitempty"`
	// Evidence says why: the failed step and what differed, or why the scenario was skipped; for a scenario
	// that waited, how long.
	Evidence string `json:"evidence,omitempty"`
	// Seconds is how long the check took.
	Seconds float64 `json:"seconds"`
}

// Run runs every scenario over every binding and returns one record per check. The error is for a run that could
// not start (no scenarios, no binding); a failing check is a record, not an error.
func Run(ctx context.Context, opts Options) ([]Record, error) {
	if len(opts.Bindings) == 0 || opts.Issue == nil || opts.Target == "" {
		return nil, errors.New("runner: Target, Bindings and Issue are required")
	}
	files := opts.Files
	if files == nil {
		var err error
		if files, err = conformance.LoadScenarios(conformance.ScenarioFiles); err != nil {
			return nil, err
		}
	}
	if opts.Run != nil {
		files = filterScenarios(files, opts.Run)
		if len(files) == 0 {
			return nil, fmt.Errorf("runner: no scenario name matches %q", opts.Run)
		}
	}
	if opts.Progress != nil {
		fmt.Fprintln(opts.Progress, Plan(files, opts.Bindings))
	}
	parallel := max(opts.Parallel, 1)
	perColumn := make([][]Record, len(opts.Bindings))
	var progress sync.Mutex
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, b := range opts.Bindings {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			perColumn[i] = runColumn(ctx, opts, files, b, &progress)
		}()
	}
	wg.Wait()
	// The service's own surfaces, once, in the first column: discovery must list every binding the run checks.
	hc := opts.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	var served []string
	for _, b := range opts.Bindings {
		if name, _, _ := strings.Cut(b.Name, "-"); !slices.Contains(served, name) {
			served = append(served, name)
		}
	}
	var out []Record
	if opts.Run == nil {
		for _, s := range ServiceSurfaces(served) {
			rec := readSurface(ctx, opts.Target, hc, s, opts.Bindings[0].Name)
			progressLine(opts, rec)
			out = append(out, rec)
		}
	}
	for _, recs := range perColumn {
		out = append(out, recs...)
	}
	return out, nil
}

// runColumn runs every scenario over one column, in order, and returns its records; progress lines are written
// under mu, since columns may run at once.
func runColumn(ctx context.Context, opts Options, files []conformance.ScenarioFile, b Binding, mu *sync.Mutex) []Record {
	var out []Record
	sub := b.Remote(opts.Target)
	if opts.Run == nil {
		hc := opts.HTTP
		if hc == nil {
			hc = http.DefaultClient
		}
		for _, s := range b.Surfaces {
			rec := readSurface(ctx, opts.Target, hc, s, b.Name)
			mu.Lock()
			progressLine(opts, rec)
			mu.Unlock()
			out = append(out, rec)
		}
	}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			start := time.Now()
			rec := Record{Scenario: sc.Name, File: f.Path, Requirements: sc.Requirements, Binding: b.Name}
			if rec.Requirements == nil {
				rec.Requirements = []string{}
			}
			if reason := SkipReason(sc, b, opts.TargetRateLimit); reason != "" {
				rec.Status, rec.Evidence = Skip, reason
			} else if err := runOne(ctx, sc, opts.Issue, sub); errors.Is(err, harness.ErrRefusalNotReadable) {
				rec.Status, rec.Evidence = Skip, "the issuer's refusal of a draft does not list {pointer, keyword} errors to compare: "+err.Error()
			} else if err != nil {
				rec.Status, rec.Evidence, rec.FailedRequirements = Fail, err.Error(), Attribute(err, rec.Requirements)
			} else {
				rec.Status = Pass
				if waits(sc) {
					rec.Evidence = fmt.Sprintf("moved the clock by really waiting (ttlSeconds %d): %.1f s", int(RealTTL/time.Second), time.Since(start).Seconds())
				}
			}
			rec.Seconds = time.Since(start).Seconds()
			if opts.Progress != nil {
				line := fmt.Sprintf("%-4s %-5s %s", strings.ToUpper(string(rec.Status)), b.Name, sc.Name)
				if rec.Status != Pass && rec.Evidence != "" {
					line += ": " + firstLine(rec.Evidence)
				}
				mu.Lock()
				fmt.Fprintln(opts.Progress, line)
				mu.Unlock()
			}
			out = append(out, rec)
		}
	}
	if c, ok := sub.(interface{ Close() }); ok {
		c.Close()
	}
	return out
}

// progressLine writes a surface check's line, as the scenarios' are written.
func progressLine(opts Options, rec Record) {
	if opts.Progress == nil {
		return
	}
	line := fmt.Sprintf("%-4s %-5s %s", strings.ToUpper(string(rec.Status)), rec.Binding, rec.Scenario)
	if rec.Status != Pass && rec.Evidence != "" {
		line += ": " + firstLine(rec.Evidence)
	}
	fmt.Fprintln(opts.Progress, line)
}

// Attribute names the requirements a failed scenario is attributed to (a copy, sorted): those of the wire check that
// failed when err is (or wraps) a *harness.RuleError; else those of the failed step (a *harness.StepError: its
// expect's requirements when tagged, else the scenario's); else the scenario's own requirements.
func Attribute(err error, scenario []string) []string {
	out := slices.Clone(harness.Attribution(err, scenario))
	slices.Sort(out)
	return slices.Compact(out)
}

// filterScenarios keeps the scenarios whose name re matches, and the files still holding one.
func filterScenarios(files []conformance.ScenarioFile, re *regexp.Regexp) []conformance.ScenarioFile {
	var out []conformance.ScenarioFile
	for _, f := range files {
		var kept []conformance.Scenario
		for _, sc := range f.Scenarios {
			if re.MatchString(sc.Name) {
				kept = append(kept, sc)
			}
		}
		if len(kept) > 0 {
			f.Scenarios = kept
			out = append(out, f)
		}
	}
	return out
}

// Plan says, before a run, how many checks it makes and how long the waiting takes: each scenario that moves the
// clock really waits up to RealTTL and one second past it, over every binding that runs it.
func Plan(files []conformance.ScenarioFile, bindings []Binding) string {
	scenarios, checks, waiting := 0, 0, 0
	for _, f := range files {
		for _, sc := range f.Scenarios {
			scenarios++
			for _, b := range bindings {
				checks++
				if SkipReason(sc, b, nil) == "" && waits(sc) {
					waiting++
				}
			}
		}
	}
	surfaces := len(ServiceSurfaces(nil))
	for _, b := range bindings {
		surfaces += len(b.Surfaces)
	}
	per := RealTTL + time.Second
	return fmt.Sprintf("%d scenarios over %d binding(s): %d checks, and %d pinned surfaces read; %d of the checks move the clock by really waiting (ttlSeconds %d), up to %s each, %s in all",
		scenarios, len(bindings), checks, surfaces, waiting, int(RealTTL/time.Second), per, time.Duration(waiting)*per)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// SkipReason says why a scenario cannot run against a collector the runner does not control over binding b, or
// "" when it can. limit is the per-query rate limit the collector is stated to run with (Options.TargetRateLimit),
// nil when unknown.
func SkipReason(sc conformance.Scenario, b Binding, limit *conformance.ScenarioRateLimit) string {
	for _, r := range sc.Requires {
		if !slices.Contains(b.Carries, r) {
			return fmt.Sprintf("not carried by the %s binding: the scenario requires %q", b.Name, r)
		}
	}
	if len(sc.Rules) > 0 {
		return "needs the collector's continuation rules set to the scenario's"
	}
	if sc.RateLimit != nil {
		if limit == nil || *limit != *sc.RateLimit {
			return fmt.Sprintf("needs the collector's per-query rate limit set to the scenario's (%g per second, burst %d): run the collector so and state it with --rate-limit %g:%d",
				sc.RateLimit.PerSecond, sc.RateLimit.Burst, sc.RateLimit.PerSecond, sc.RateLimit.Burst)
		}
	}
	ttl, issued, clock := -1.0, false, 0.0
	for _, st := range sc.Steps {
		switch st.Do {
		case "storeFails":
			return "needs the collector's store made to fail"
		case "storeSlow":
			return "needs the collector's store slowed"
		case "issue":
			if issued && clock > 0 {
				return "issues a query after moving the clock"
			}
			t := draftTTL(st.Draft)
			if ttl >= 0 && t != ttl && waits(sc) {
				return "moves the clock over queries of different ttlSeconds"
			}
			ttl, issued = t, true
		case "advance":
			clock += st.Seconds
			if clock == ttl {
				return "needs the collector's clock exactly at expiresAt, which real waiting cannot hit"
			}
		}
	}
	return ""
}

// waits reports whether a scenario moves the clock.
func waits(sc conformance.Scenario) bool {
	return slices.ContainsFunc(sc.Steps, func(st conformance.Step) bool { return st.Do == "advance" })
}

// draftTTL is a draft's ttlSeconds, or the default the scenarios are written against.
func draftTTL(draft []byte) float64 {
	var d struct {
		TTL *float64 `json:"ttlSeconds"`
	}
	if json.Unmarshal(draft, &d) == nil && d.TTL != nil {
		return *d.TTL
	}
	return collector.DefaultTTLSeconds
}

// runOne plays one scenario through harness.Run with a remote target.
func runOne(ctx context.Context, sc conformance.Scenario, issue Issuer, sub harness.ColumnClient) error {
	start, err := core.ParseDateTime(sc.Start)
	if err != nil {
		return err
	}
	_, err = harness.Run(ctx, sc, func(env *harness.Env) (harness.Target, error) {
		env.SchemaTimes = true // another collector's timestamps need only be RFC 3339 date-times (D20, revised)
		// A scenario under a rate limit moves the clock to refill the bucket, which only real seconds do: it is not
		// compressed (its queries keep their ttlSeconds, so no expiry is reached).
		return &remote{sc: sc, env: env, issue: issue, sub: sub, scStart: start, scaled: waits(sc) && sc.RateLimit == nil, ids: map[string]string{}}, nil
	})
	return err
}

// remote is a harness.Target over a collector the runner does not control. The harness sees the scenario's
// world: issued requests and receipts carry the scenario's queryIds; on the wire, bodies carry the collector's
// queryIds and timestamps mapped onto its clock.
type remote struct {
	sc      conformance.Scenario
	env     *harness.Env
	issue   Issuer
	sub     harness.ColumnClient
	scStart time.Time
	scaled  bool // the scenario moves the clock: its queries get RealTTL and its time is compressed
	ttl     time.Duration

	mu         sync.Mutex
	expires    map[string]time.Time // issued queryId (lower case) -> its expiresAt
	n          int                  // queries issued
	ids        map[string]string    // scenario queryId (lower case) -> issued queryId
	realIssue  time.Time            // the collector's createdAt of the first query
	localIssue time.Time            // the runner's clock when it came back
	scIssue    time.Time            // the scenario's clock at the first issue
}

func (r *remote) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n >= len(r.sc.QueryIDs) {
		return nil, fmt.Errorf("the scenario lists %d queryIds and issues more queries", len(r.sc.QueryIDs))
	}
	if r.n == 0 {
		r.ttl = time.Duration(draftTTL(draft) * float64(time.Second))
	}
	if r.scaled {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(draft, &m); err != nil {
			return nil, fmt.Errorf("draft: %w", err)
		}
		m["ttlSeconds"] = json.RawMessage(fmt.Sprint(int(RealTTL / time.Second)))
		draft, _ = json.Marshal(m)
	}
	asked := time.Now()
	req, err := r.issue(ctx, draft)
	if err != nil {
		return nil, fmt.Errorf("issuing the query: %w", err)
	}
	answered := time.Now()
	var q struct {
		QueryID   string `json:"queryId"`
		ExpiresAt string `json:"expiresAt"`
	}
	if err := json.Unmarshal(req, &q); err != nil || q.QueryID == "" {
		return nil, fmt.Errorf("the issued request has no queryId: %s", req)
	}
	if err := checkExpiresAt(q.ExpiresAt, draftTTLOf(draft), asked, answered); err != nil {
		return nil, err
	}
	if exp, err := core.ParseDateTime(q.ExpiresAt); err == nil {
		if r.expires == nil {
			r.expires = map[string]time.Time{}
		}
		r.expires[strings.ToLower(q.QueryID)] = exp
	}
	if r.n == 0 {
		// A request carries expiresAt, not its creation: the collector's issue time is expiresAt less the ttl asked.
		t, err := core.ParseDateTime(q.ExpiresAt)
		if err != nil {
			return nil, fmt.Errorf("the issued request's expiresAt: %w", err)
		}
		ttl := r.ttl
		if r.scaled {
			ttl = RealTTL
		}
		r.realIssue, r.localIssue, r.scIssue = t.Add(-ttl), time.Now(), r.env.Clock.Now()
	}
	scID := strings.ToLower(r.sc.QueryIDs[r.n])
	r.n++
	r.ids[scID] = strings.ToLower(q.QueryID)
	return replaceFold(req, q.QueryID, scID), nil
}

func (r *remote) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	r.mu.Lock()
	if !r.localIssue.IsZero() {
		wait := time.Until(r.localIssue.Add(r.shift(r.env.Clock.Now().Sub(r.scIssue))))
		if wait > 0 {
			r.mu.Unlock()
			select {
			case <-ctx.Done():
				return harness.Result{}, ctx.Err()
			case <-time.After(wait):
			}
			r.mu.Lock()
		}
	}
	wire := r.rewrite(body)
	ids := r.ids
	expires := r.expires
	r.mu.Unlock()
	sent := time.Now()
	res, err := r.sub.Submit(ctx, wire, auth)
	if err != nil {
		return res, err
	}
	if err := checkReceivedAt(res.Receipt, sent, time.Now(), expires); err != nil {
		return res, err
	}
	for sc, real := range ids {
		res.Receipt = replaceFold(res.Receipt, real, sc)
	}
	return res, nil
}

func (r *remote) Close() {}

// ClockTolerance is how far a collector's clock may be from the runner's before its timestamps are judged wrong:
// a receipt's receivedAt must fall between the runner sending the submission and reading the receipt, and an issued
// query's expiresAt ttlSeconds after the issue, each give or take this much.
const ClockTolerance = 5 * time.Second

// checkReceivedAt holds a receipt's receivedAt to the runner's clock (the collector judges expiry by its clock, and
// receivedAt is that clock's reading), and an accepted receipt to its query's expiresAt: a query is answered only
// while it is open. A failure names AQP-COL-EXPIRED.
func checkReceivedAt(receipt []byte, sent, read time.Time, expires map[string]time.Time) error {
	var rc struct {
		QueryID    string `json:"queryId"`
		Status     string `json:"status"`
		ReceivedAt string `json:"receivedAt"`
	}
	if receipt == nil || json.Unmarshal(receipt, &rc) != nil || rc.ReceivedAt == "" {
		return nil // not a receipt: the binding's checks say so
	}
	at, err := core.ParseDateTime(rc.ReceivedAt)
	if err != nil {
		return nil
	}
	if at.Before(sent.Add(-ClockTolerance)) || at.After(read.Add(ClockTolerance)) {
		return harness.Wire(fmt.Sprintf("receivedAt %s is not when the submission was received: the runner sent it at %s and read the receipt at %s (tolerance %s); the collector's clock is off, so it judges expiry wrongly",
			rc.ReceivedAt, sent.UTC().Format(time.RFC3339Nano), read.UTC().Format(time.RFC3339Nano), ClockTolerance), "AQP-COL-EXPIRED")
	}
	if exp, ok := expires[strings.ToLower(rc.QueryID)]; ok && rc.Status == "accepted" && at.After(exp) {
		return harness.Wire(fmt.Sprintf("an accepted receipt received at %s, after its query's expiresAt %s", rc.ReceivedAt, exp.UTC().Format(time.RFC3339Nano)), "AQP-COL-EXPIRED")
	}
	return nil
}

// checkExpiresAt holds an issued query's expiresAt to the ttlSeconds asked: between the issue's start and end plus
// the ttl, give or take ClockTolerance. A failure names AQP-COL-ISSUE-DEFAULTS, the rule that gives ttlSeconds its
// meaning.
func checkExpiresAt(expiresAt string, ttl time.Duration, asked, answered time.Time) error {
	exp, err := core.ParseDateTime(expiresAt)
	if err != nil || ttl <= 0 {
		return nil // its form is the schema's and D20's to judge
	}
	lo, hi := asked.Add(ttl-ClockTolerance), answered.Add(ttl+ClockTolerance)
	if exp.Before(lo) || exp.After(hi) {
		return harness.Wire(fmt.Sprintf("the issued query's expiresAt %s is not ttlSeconds %d after the issue (%s to %s, tolerance %s)",
			expiresAt, int(ttl/time.Second), asked.UTC().Format(time.RFC3339Nano), answered.UTC().Format(time.RFC3339Nano), ClockTolerance), "AQP-COL-ISSUE-DEFAULTS")
	}
	return nil
}

// draftTTLOf is the ttlSeconds a draft asks for as it is sent (the default when it names none).
func draftTTLOf(draft []byte) time.Duration {
	return time.Duration(draftTTL(draft) * float64(time.Second))
}

// shift maps a scenario duration since the first issue onto the collector's: unchanged, or for a scenario that
// moves the clock, the query's lifetime compressed into RealTTL and anything past expiry at most a second past it.
func (r *remote) shift(x time.Duration) time.Duration {
	if !r.scaled || x <= 0 || r.ttl <= 0 {
		return x
	}
	if x <= r.ttl {
		return time.Duration(float64(x) * float64(RealTTL) / float64(r.ttl))
	}
	return RealTTL + min(x-r.ttl, time.Second)
}

var (
	uuidText     = regexp.MustCompile(`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`)
	dateTimeText = regexp.MustCompile(`"(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2}))"`)
)

// rewrite maps a scenario body onto the collector: each scenario queryId becomes the issued one in the case the
// scenario wrote it, each date-time the same distance from the collector's issue time as it was from the
// scenario's. Everything else stays byte for byte, so canonical-form scenarios keep their spelling.
func (r *remote) rewrite(body []byte) []byte {
	out := uuidText.ReplaceAllFunc(body, func(m []byte) []byte {
		real, ok := r.ids[strings.ToLower(string(m))]
		if !ok {
			return m
		}
		if string(m) == strings.ToUpper(string(m)) {
			return []byte(strings.ToUpper(real))
		}
		return []byte(real)
	})
	if r.realIssue.IsZero() {
		return out
	}
	return dateTimeText.ReplaceAllFunc(out, func(m []byte) []byte {
		text := string(m[1 : len(m)-1])
		t, err := core.ParseDateTime(text)
		if err != nil {
			return m
		}
		nt := r.realIssue.Add(r.shift(t.Sub(r.scIssue))).Round(time.Millisecond)
		layout := "2006-01-02T15:04:05"
		if strings.Contains(text, ".") || nt.Nanosecond() != 0 {
			layout += ".000"
		}
		if last := text[len(text)-1]; last == 'Z' || last == 'z' {
			return []byte(`"` + nt.UTC().Format(layout+"Z") + `"`)
		}
		return []byte(`"` + nt.In(t.Location()).Format(layout+"-07:00") + `"`)
	})
}

// replaceFold replaces every occurrence of old, in any case, with repl.
func replaceFold(b []byte, old, repl string) []byte {
	if b == nil || old == "" {
		return b
	}
	re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(old))
	return re.ReplaceAllLiteral(b, []byte(repl))
}
