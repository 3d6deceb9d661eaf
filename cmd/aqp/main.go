// Command aqp is the AQP reference implementation's command line: `aqp validate` checks AQP documents offline,
// `aqp serve` runs a collector, `aqp query create` issues a query through a collector's admin API.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `aqp: the Agent Query Protocol (2026-07-30) reference implementation

Usage:
  aqp validate [--kind request|response|receipt] [--json] FILE...
  aqp validate --pair [--json] REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]]
  aqp serve [--addr 127.0.0.1:8080] [--data-dir ./aqp-data] [--store PATH|postgres://...] [--public-url URL]
            [--continuations FILE]
  aqp query create [--server URL] (--draft FILE | --prompt ... --subject-kind ... --subject-id ...) [flags]

Run "aqp COMMAND --help" for a command's flags.
`

// exit codes shared by every command.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line; it is main without the process, so tests can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return runValidate(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "query":
		return runQuery(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "aqp: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}
