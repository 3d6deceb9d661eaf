// Command aqp is the AQP reference implementation's command line: `aqp validate` checks AQP documents offline,
// `aqp serve` runs a collector, `aqp query create` issues a query through a collector's admin API, `aqp version`
// says what is running and `aqp completion` writes shell completion.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// exit codes shared by every command.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exitError carries a command's exit status out of cobra. A nil err means the command already said what went
// wrong; usage adds the pointer to --help, for mistakes in the command line itself.
type exitError struct {
	code  int
	err   error
	usage bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

// usageError is a mistake in the command line: exit status 2 and a pointer to --help.
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...), usage: true}
}

// failure is an error that is not the command line's fault, with its exit status.
func failure(code int, err error) error { return &exitError{code: code, err: err} }

// exitStatus ends a command whose output already said everything.
func exitStatus(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// run executes a command line; it is main without the process, so tests call the command tree in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if len(args) == 0 {
		root.SetOut(stderr)
		root.InitDefaultHelpCmd()
		root.InitDefaultCompletionCmd()
		_ = root.Usage()
		return exitUsage
	}
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		// cobra's own errors: an unknown command, a bad flag, a wrong number of arguments. Their text is cobra's and
		// may span lines (the "Did you mean this?" hint), so it is printed as text, each line made safe on its own.
		say(stderr, "%s: ", cmd.CommandPath())
		_, _ = io.WriteString(stderr, cobraText(err.Error()))
		say(stderr, "\nRun '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	}
	if ee.err != nil {
		say(stderr, "%s: %s\n", cmd.CommandPath(), oneLine(ee.err.Error()))
		if ee.usage {
			say(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		}
	}
	return ee.code
}

// cobraText is a message cobra wrote, as lines for a terminal: its line breaks kept (blank lines dropped), a
// leading tab indented as two spaces, and everything else on each line passed through display, since a line can
// quote the command line's own words.
func cobraText(s string) string {
	var lines []string
	for _, line := range strings.Split(strings.TrimRight(s, "\r\n"), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := ""
		for strings.HasPrefix(line, "\t") {
			indent, line = indent+"  ", line[1:]
		}
		lines = append(lines, indent+display(line))
	}
	return strings.Join(lines, "\n")
}

// oneLine keeps one error on one line in a terminal or a log: display, with a trailing line break dropped.
func oneLine(s string) string { return display(strings.TrimRight(s, "\r\n")) }

func newRootCmd(stdin io.Reader) *cobra.Command {
	root := &cobra.Command{
		Use:   "aqp",
		Short: "The Agent Query Protocol (" + spec.ProtocolVersion + ") reference implementation",
		Long: `aqp is the command line of the Agent Query Protocol (AQP ` + spec.ProtocolVersion + `) reference implementation.

It validates AQP documents offline (validate), runs a collector that issues queries and returns receipts (serve),
and issues queries through a running collector's admin API (query create).

Exit status, for every command: 0 all valid (or done), 1 something invalid (or refused), 2 usage error or
unreadable input.`,
		Example: `  # in one terminal, from the repository root: run a collector
  go run ./cmd/aqp serve
  # in another: check a document, issue a query
  go run ./cmd/aqp validate examples/quickstart-response.json
  go run ./cmd/aqp query create --consent-mode not_required --subject-kind task --subject-id t1 --prompt "Done?" --format boolean`,
		Version:       moduleVersion(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate(versionText())
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError("%v", err)
	})
	root.AddCommand(newValidateCmd(stdin), newServeCmd(), newQueryCmd(stdin), newRespondCmd(stdin), newDemoCmd(), newConformanceCmd(), newVersionCmd())
	return root
}

// completeWords completes a flag's value from a fixed list of words.
func completeWords(words ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
}

// words turns a generated enum list (gen/aqp's …Values, written from the schemas by `make generate`) into the words
// a flag offers, so --help and completion follow the schemas instead of a copy that drifts.
func words[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// wordList is words as a flag's usage text writes them.
func wordList[T ~string](values []T) string { return strings.Join(words(values), ", ") }
