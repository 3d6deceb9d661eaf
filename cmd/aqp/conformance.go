package main

import "github.com/spf13/cobra"

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
  aqp conformance respondent --binding all -- aqp respond --from {url} --carrier {binding} --answer-text yes --allow-http-loopback`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newConformanceCollectorCmd(), newConformanceRespondentCmd())
	return cmd
}
