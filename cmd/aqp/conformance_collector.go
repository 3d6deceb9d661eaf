package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/conformance/runner"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
)

// columnWords are the --binding values: all, each binding (all its columns) and each column.
func columnWords() []string { return append([]string{"all"}, harness.ColumnNames(targets.All())...) }

type conformanceCollectorOptions struct {
	target, adminURL, binding, adminToken, issueCmd string
	parallel                                        int
	rateLimit                                       string
	report                                          reportFlags
}

func newConformanceCollectorCmd() *cobra.Command {
	var o conformanceCollectorOptions
	cmd := &cobra.Command{
		Use:   "collector --target URL (--admin-token T | --issue-cmd CMD)",
		Short: "Run the collector scenarios against a running collector",
		Long: `Run the collector scenario corpus against a running collector, ours or another's, over each binding.

Queries are issued through the admin API (--admin-token, POST /admin/v1/queries at --admin-url, by default the
--target; name another process of the same collector there to check that --target answers queries it did not
issue) or by a shell command (--issue-cmd) that reads the QueryDraft on stdin and prints the QueryRequest JSON. The scenarios' fixed queryIds and
timestamps are mapped onto the collector's; scenarios that move the clock give their queries a short ttlSeconds and
really wait (a few seconds each); scenarios that need what a running collector does not offer (a failing store,
continuation rules, a rate limit, the clock exactly at expiry) are skipped with the reason.

--report-dir DIR writes collector.json (one record per check: id, scenario, binding, requirements, the
requirements a failure is attributed to, level, status, evidence), collector.junit.xml, and index.html: one
self-contained page with the requirement × binding matrix of every run written to DIR (a respondent run too).
--expected-failures FILE lists checks known to fail, by the id the JSON report gives them, each with a reason.

Exit status: 0 every check that ran passed or was an expected failure, 1 a check failed unexpectedly, an expected
failure passed (stale) or the run could not start, 2 usage error.`,
		Example: `  aqp conformance collector --target http://127.0.0.1:8080 --admin-token "$(cat aqp-data/admin-token)"
  aqp conformance collector --target http://127.0.0.1:8081 --admin-url http://127.0.0.1:8080 --admin-token "$AQP_ADMIN_TOKEN"
  # issue.sh reads a QueryDraft on stdin and prints the QueryRequest (say, aqp query create --draft -);
  # known-gaps.json is {"expectedFailures": [{"check": "…", "reason": "…"}]}
  aqp conformance collector --target http://127.0.0.1:8080 --binding mcp --issue-cmd './issue.sh' --report-dir out \
      --expected-failures known-gaps.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runConformanceCollector(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.target, "target", "", "the collector's base URL (required)")
	f.StringVar(&o.adminURL, "admin-url", "", "base URL whose admin API issues the queries (default: --target), e.g. another process of the same collector")
	f.StringVar(&o.binding, "binding", "all", "columns to check, comma-separated: all, a binding (https, mcp, a2a: all its columns) or a column ("+strings.Join(harness.ColumnNames(targets.All())[3:], ", ")+")")
	f.StringVar(&o.adminToken, "admin-token", "", "the collector's admin token, to issue queries through its admin API (one of this and --issue-cmd is required)")
	f.StringVar(&o.issueCmd, "issue-cmd", "", "shell command that reads a QueryDraft on stdin and prints the QueryRequest JSON (one of this and --admin-token is required)")
	f.IntVar(&o.parallel, "parallel", 1, "columns checked at once (each column's scenarios in order); every column is one client, so raise it only against a collector whose per-client failure limit allows")
	f.StringVar(&o.rateLimit, "rate-limit", "", "the per-query rate limit the collector runs with, PERSECOND:BURST (aqp serve --rate-limit 0.001 --rate-burst 2 is 0.001:2), so that the scenarios written against it run and their 429s are checked (default: none, and those scenarios are skipped)")
	o.report.register(cmd)
	_ = cmd.RegisterFlagCompletionFunc("binding", completeWords(columnWords()...))
	return cmd
}

func runConformanceCollector(cmd *cobra.Command, o conformanceCollectorOptions) error {
	if o.target == "" {
		return usageError("--target is required: the collector's base URL")
	}
	if (o.adminToken == "") == (o.issueCmd == "") {
		return usageError("give exactly one of --admin-token and --issue-cmd, to say how queries are issued")
	}
	adminURL := o.target
	if o.adminURL != "" {
		if o.issueCmd != "" {
			return usageError("--admin-url goes with --admin-token; --issue-cmd issues queries itself")
		}
		adminURL = o.adminURL
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	picked, ok := harness.SelectColumns(targets.All(), o.binding)
	if !ok {
		return usageError("--binding %q names no column: want %s", o.binding, strings.Join(columnWords(), ", "))
	}
	// The columns run in the table's order, whatever order --binding names them in.
	var ordered []harness.Column
	for _, c := range targets.All() {
		if slices.ContainsFunc(picked, func(p harness.Column) bool { return p.Name == c.Name }) {
			ordered = append(ordered, c)
		}
	}
	bindings := runner.FromColumns(ordered, hc)
	issue := func(ctx context.Context, draft []byte) ([]byte, error) {
		return harness.IssueOverAdminAPI(ctx, hc, adminURL, o.adminToken, draft)
	}
	if o.issueCmd != "" {
		issue = func(ctx context.Context, draft []byte) ([]byte, error) {
			c := exec.CommandContext(ctx, "sh", "-c", o.issueCmd)
			var stderr bytes.Buffer
			c.Stdin, c.Stderr = bytes.NewReader(draft), &stderr
			out, err := c.Output()
			if err != nil {
				return nil, fmt.Errorf("--issue-cmd: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
			}
			return bytes.TrimSpace(out), nil
		}
	}
	expected, err := o.report.readExpected()
	if err != nil {
		return err
	}
	run, err := o.report.runFilter()
	if err != nil {
		return err
	}
	var limit *conformance.ScenarioRateLimit
	if o.rateLimit != "" {
		ps, burst, ok := strings.Cut(o.rateLimit, ":")
		l := conformance.ScenarioRateLimit{}
		var perr error
		if ok {
			l.PerSecond, perr = strconv.ParseFloat(ps, 64)
			if perr == nil {
				l.Burst, perr = strconv.Atoi(burst)
			}
		}
		if !ok || perr != nil || l.PerSecond <= 0 || l.Burst < 1 {
			return usageError("--rate-limit must be PERSECOND:BURST (a positive rate, a burst of at least 1), not %q", o.rateLimit)
		}
		limit = &l
	}
	// A collector that cannot be reached would fail every scenario with the same error: say it once.
	if err := reachable(cmd.Context(), hc, o.target); err != nil {
		return failure(exitInvalid, fmt.Errorf("--target %s cannot be reached: %w", o.target, err))
	}
	catalogue, err := conformance.LoadRequirements()
	if err != nil {
		return err
	}
	start := time.Now()
	recs, err := runner.Run(cmd.Context(), runner.Options{Target: o.target, Bindings: bindings, Issue: issue, Progress: cmd.OutOrStdout(), Run: run, Parallel: o.parallel, HTTP: hc, TargetRateLimit: limit})
	if err != nil {
		return usageError("%v", err)
	}
	rep := report.New("collector", o.target, start, runner.Checks(recs), catalogue)
	return o.report.finish(cmd.OutOrStdout(), cmd.ErrOrStderr(), rep, expected, catalogue)
}

// reachable reports whether anything answers HTTP at base: any status will do.
func reachable(ctx context.Context, hc *http.Client, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
