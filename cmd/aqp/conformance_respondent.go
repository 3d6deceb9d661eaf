package main

import (
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
	"github.com/agentqueryprotocol/aqp-go/conformance/respondentrun"
)

// newConformanceRespondentCmd is `aqp conformance respondent`: the runner plays collector and carrier for any
// respondent and checks what it delivers.
func newConformanceRespondentCmd() *cobra.Command {
	var binding string
	var rf reportFlags
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "respondent [--binding all|BINDING|COLUMN,...] [--report-dir DIR] -- CMD ARGS... {url} {signals}",
		Short: "Check a respondent: play collector and carrier, start it on each scenario, check what it delivers",
		Long: `Check any respondent, this one or another, by playing collector and carrier for it. An embedded collector
(in-memory store) listens on a loopback port and serves every binding; for each scenario and binding a carrier
carries one query — over https an endpoint answering GET with an AQP-Query header, over mcp a tool server whose
tool result carries it in _meta, over a2a an agent whose reply message carries it in metadata — and the respondent
is started with {url} replaced by the carrier's URL and {binding} by the binding's name. The runner checks what
reaches the collector: a valid response with the query's queryId and subject; after a retryable unavailable
receipt, a retry with the same responseId and the same bytes; nothing for an expired query, for a delivery
endpoint at 0.0.0.0 (no destination rule allows it, and a connection to it never leaves this machine), or when
the principal refuses consent; an answer to a query timed after_outcome_known or after_task_complete whose signal
the host gave, nothing for one whose signal it did not give (a 5-second query the respondent must give up at its
expiry); and an answer to the continuation the collector's accepted receipt carries (it follows up every answer
to a correction query). Each query is a choice question; the respondent answers "yes".

The runner is the principal: it writes "y" or "n" and a newline on the respondent's standard input. It is the
host too: {signals} is replaced by the timing signals the host has given before the query arrives, a
comma-separated list of KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID (KIND outcome_known or task_complete; for example
outcome_known:tool_result/mcp:conformance-outcome-signalled), or none. "aqp respond --signal {signals}" reads
exactly that; another respondent hands the list to its own host API. Without {signals} in the command the timing
scenarios fail, saying the runner cannot play the host.

--report-dir DIR writes respondent.json (one record per check: id, scenario, check, binding, requirements,
level, status, evidence), respondent.junit.xml, and index.html: one self-contained page with the requirement ×
binding matrix of every run written to DIR (a collector run too). --expected-failures FILE lists checks known to
fail, by the id the JSON report gives them, each with a reason.

Exit status: 0 every check passed or was an expected failure, 1 a check failed unexpectedly or an expected failure
passed (stale), 2 usage error.`,
		Example: `  aqp conformance respondent -- aqp respond --from {url} --carrier {binding} --signal {signals} --answer-text yes --allow-http-loopback
  # ./my-agent: your agent, started on each scenario with the carrier's URL and the signals its host has given
  aqp conformance respondent --binding mcp --report-dir out -- ./my-agent --carrier-url {url} --host-signals {signals}`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return usageError("give the respondent's command after --, with {url} where the carrier's URL goes (and {signals} where the host's timing signals go)")
			}
			var bindings []string
			if binding != "all" && binding != "" {
				for _, b := range strings.Split(binding, ",") {
					bindings = append(bindings, strings.TrimSpace(b))
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			expected, err := rf.readExpected()
			if err != nil {
				return err
			}
			run, err := rf.runFilter()
			if err != nil {
				return err
			}
			catalogue, err := conformance.LoadRequirements()
			if err != nil {
				return err
			}
			start := time.Now()
			recs, err := respondentrun.Run(ctx, respondentrun.Config{Command: args, Bindings: bindings, Timeout: timeout, Progress: cmd.ErrOrStderr(), Run: run})
			if err != nil {
				return usageError("%v", err)
			}
			rep := report.New("respondent", strings.Join(args, " "), start, respondentrun.Checks(recs), catalogue)
			return rf.finish(cmd.OutOrStdout(), cmd.ErrOrStderr(), rep, expected, catalogue)
		},
	}
	f := cmd.Flags()
	f.StringVar(&binding, "binding", "all", "columns to carry queries over and collect on, comma-separated: all, a binding (https, mcp, a2a: all its columns) or a column ("+strings.Join(respondentrun.ColumnNames()[3:], ", ")+")")
	f.DurationVar(&timeout, "timeout", time.Minute, "how long one start of the respondent may take")
	_ = cmd.RegisterFlagCompletionFunc("binding", completeWords(append([]string{"all"}, respondentrun.ColumnNames()...)...))
	rf.register(cmd)
	return cmd
}
