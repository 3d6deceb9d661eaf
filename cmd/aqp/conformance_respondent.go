package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/internal/respondentrun"
)

// newConformanceRespondentCmd is `aqp conformance respondent`: the runner plays collector and carrier for any
// respondent and checks what it delivers.
func newConformanceRespondentCmd() *cobra.Command {
	var binding, reportDir string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "respondent [--binding https|mcp|a2a|all] [--report-dir DIR] -- CMD ARGS... {url}",
		Short: "Check a respondent: play collector and carrier, start it on each scenario, check what it delivers",
		Long: `Check any respondent, this one or another, by playing collector and carrier for it. An embedded collector
(in-memory store) listens on a loopback port and serves every binding; for each scenario and binding a carrier
carries one query — over https an endpoint answering GET with an AQP-Query header, over mcp a tool server whose
tool result carries it in _meta, over a2a an agent whose reply message carries it in metadata — and the respondent
is started with {url} replaced by the carrier's URL and {binding} by the binding's name. The runner checks what
reaches the collector: a valid response with the query's queryId and subject; after a retryable unavailable
receipt, a retry with the same responseId and the same bytes; nothing for an expired query, for a delivery
endpoint at 0.0.0.0 (no destination rule allows it, and a connection to it never leaves this machine), or when
the principal refuses consent. The runner is the principal: it writes "y" or "n" and a newline on the
respondent's standard input. Each query is a choice question; the respondent answers "yes".

--report-dir DIR writes DIR/respondent.json: one record per check (scenario, check, requirements, level, binding,
status, evidence).

Exit status: 0 every check passed, 1 a check failed, 2 usage error.`,
		Example: `  aqp conformance respondent -- aqp respond --from {url} --carrier {binding} --answer-text yes --allow-http-loopback
  aqp conformance respondent --binding mcp --report-dir out -- ./my-agent --carrier-url {url}`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return usageError("give the respondent's command after --, with {url} where the carrier's URL goes")
			}
			var bindings []string
			if binding != "all" {
				bindings = []string{binding}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return runConformanceRespondent(ctx, respondentrun.Config{Command: args, Bindings: bindings, Timeout: timeout,
				Progress: cmd.ErrOrStderr()}, reportDir, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&binding, "binding", "all", "the binding to carry queries over: https, mcp, a2a or all")
	f.StringVar(&reportDir, "report-dir", "", "write the JSON report (respondent.json) to this directory (default: none)")
	f.DurationVar(&timeout, "timeout", time.Minute, "how long one start of the respondent may take")
	_ = cmd.RegisterFlagCompletionFunc("binding", completeWords(append(respondentrun.Bindings, "all")...))
	_ = cmd.MarkFlagDirname("report-dir")
	return cmd
}

// runConformanceRespondent runs the checks, prints the summary and writes the report.
func runConformanceRespondent(ctx context.Context, cfg respondentrun.Config, reportDir string, stdout io.Writer) error {
	recs, err := respondentrun.Run(ctx, cfg)
	if err != nil {
		return usageError("%v", err)
	}
	respondentrun.Summary(stdout, recs)
	if reportDir != "" {
		p, err := respondentrun.WriteJSON(reportDir, recs)
		if err != nil {
			return failure(exitUsage, err)
		}
		fmt.Fprintf(stdout, "report: %s\n", p)
	}
	if failed := respondentrun.Failed(recs); len(failed) > 0 {
		fmt.Fprintf(stdout, "FAILED: %d requirement(s): %v\n", len(failed), failed)
		return exitStatus(exitInvalid)
	}
	fmt.Fprintf(stdout, "passed: %d check(s)\n", len(recs))
	return nil
}
