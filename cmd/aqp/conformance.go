package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/report"
)

// newConformanceCmd is the parent of the conformance runners: `aqp conformance collector` checks any collector
// against the scenario corpus over each binding, `aqp conformance respondent` checks any respondent by playing
// collector and carrier for it. Each subcommand lives in a file of its own.
func newConformanceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "conformance",
		Short: "Check an AQP implementation against the conformance corpus",
		Long: `Check an AQP implementation — this one or another — against the conformance corpus and the requirements
catalogue (conformance/requirements.json), over each binding.`,
		Example: `  aqp conformance collector --target http://127.0.0.1:8080 --admin-token "$AQP_ADMIN_TOKEN" --binding all
  aqp conformance respondent --binding all -- aqp respond --from {url} --carrier {binding} --signal {signals} --answer-text yes --allow-http-loopback`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newConformanceCollectorCmd(), newConformanceRespondentCmd())
	return cmd
}

// reportFlags are the flags both runners share: which scenarios run, where the report files go and which failures
// are expected.
type reportFlags struct {
	dir, expected, run string
	// runRE is run compiled, by runFilter before the run starts.
	runRE *regexp.Regexp
}

func (f *reportFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.dir, "report-dir", "", "write ROLE.json (one record per check), ROLE.junit.xml and index.html (the requirement × binding matrix of every run in the directory) here (default: no report files)")
	fl.StringVar(&f.expected, "expected-failures", "", `a JSON file {"expectedFailures": [{"check": ID, "reason": R}]} of known failures: they do not fail the run, but a listed check that passes (stale) does (default: none expected)`)
	fl.StringVar(&f.run, "run", "", "run only the scenarios whose name matches this regular expression (default: every scenario)")
	_ = cmd.MarkFlagDirname("report-dir")
	_ = cmd.MarkFlagFilename("expected-failures", "json")
}

// runFilter compiles --run, nil when it is not given.
func (f *reportFlags) runFilter() (*regexp.Regexp, error) {
	if f.run == "" {
		return nil, nil
	}
	re, err := regexp.Compile(f.run)
	if err != nil {
		return nil, usageError("--run: %v", err)
	}
	f.runRE = re
	return re, nil
}

// runOnly keeps the expected failures of the scenarios --run selects: an entry for a scenario the run left out
// says nothing about this run, and must not be reported as naming no check.
func (f *reportFlags) runOnly(role string, entries []report.ExpectedFailure) []report.ExpectedFailure {
	re := f.runRE
	if re == nil {
		return entries
	}
	var out []report.ExpectedFailure
	for _, e := range entries {
		// role/binding/scenario[/check]: collector scenario names hold slashes, respondent ones do not.
		parts := strings.SplitN(e.Check, "/", 3)
		if len(parts) < 3 {
			continue
		}
		scenario := parts[2]
		if role == "respondent" {
			scenario, _, _ = strings.Cut(scenario, "/")
		}
		if re.MatchString(scenario) {
			out = append(out, e)
		}
	}
	return out
}

// readExpected reads --expected-failures before the run starts, so a malformed file costs no run.
func (f *reportFlags) readExpected() ([]report.ExpectedFailure, error) {
	if f.expected == "" {
		return nil, nil
	}
	entries, err := report.ReadExpected(f.expected)
	if err != nil {
		return nil, usageError("--expected-failures: %v", err)
	}
	return entries, nil
}

// finish applies the expected failures, prints the summary, writes the report files and turns the verdict into the
// exit status: 0 when nothing unexpected failed and no expected failure is stale, 1 otherwise.
func (f *reportFlags) finish(stdout, stderr io.Writer, rep *report.Report, expected []report.ExpectedFailure, catalogue []conformance.Requirement) error {
	rep.ApplyExpected(f.runOnly(rep.Role, expected))
	rep.Summary(stdout)
	if f.dir != "" {
		if err := report.WriteDir(f.dir, rep, catalogue); err != nil {
			return failure(exitInvalid, fmt.Errorf("--report-dir: %w", err))
		}
		j, x, h := report.Files(f.dir, rep.Role)
		say(stdout, "reports: %s, %s, %s\n", j, x, h)
	}
	if rep.Failed() {
		say(stderr, "FAILED: %d requirement(s) failed %v, %d stale expected failure(s)\n", len(rep.FailedRequirements()), rep.FailedRequirements(), len(rep.Stale))
		return exitStatus(exitInvalid)
	}
	say(stdout, "passed: %d check(s)\n", len(rep.Checks))
	return nil
}
