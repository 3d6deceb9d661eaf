package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// parseInterleaved parses flags that may appear before, between or after positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "-" || len(args[0]) == 0 || args[0][0] != '-' {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
	}
}

// validationRecord is one line of `aqp validate --json`.
type validationRecord struct {
	File   string            `json:"file"`
	Files  map[string]string `json:"files,omitempty"`
	Kind   string            `json:"kind"`
	Valid  bool              `json:"valid"`
	Errors core.Errors       `json:"errors"`
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aqp validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kindFlag := fs.String("kind", "", "validate every FILE as this kind: request, response or receipt (default: from its members)")
	asJSON := fs.Bool("json", false, "print one JSON object per document (or per pair) on its own line")
	pair := fs.Bool("pair", false, "validate REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]] together, with the paired checks")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage:
  aqp validate [--kind request|response|receipt] [--json] FILE...
  aqp validate --pair [--json] REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]]

FILE "-" reads standard input. Exit status: 0 all valid, 1 something invalid, 2 usage error or unreadable input.

`)
		fs.PrintDefaults()
	}
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	var kind core.Kind
	if *kindFlag != "" {
		if kind, err = core.ParseKind(*kindFlag); err != nil {
			fmt.Fprintf(stderr, "aqp validate: --kind: %v\n", err)
			return exitUsage
		}
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "aqp validate: no FILE given (use - for standard input)")
		fs.Usage()
		return exitUsage
	}
	out := &printer{w: stdout, json: *asJSON}
	if *pair {
		if kind != "" {
			fmt.Fprintln(stderr, "aqp validate: --kind and --pair do not go together: a pair's kinds are given by position")
			return exitUsage
		}
		if len(files) < 2 || len(files) > 4 {
			fmt.Fprintf(stderr, "aqp validate --pair: want REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]], got %d files\n", len(files))
			return exitUsage
		}
		return validatePair(files, stdin, out, stderr)
	}
	status := exitOK
	stdinUsed := false
	for _, f := range files {
		data, err := readInput(f, stdin, &stdinUsed)
		if err != nil {
			fmt.Fprintf(stderr, "aqp validate: %v\n", err)
			status = exitUsage
			continue
		}
		k := kind
		if k == "" {
			v, _ := core.DecodeJSON(data)
			k = core.DetectKind(v)
		}
		doc := core.Parse(k, data)
		out.document(f, k, doc.Errors)
		if !doc.Valid() && status == exitOK {
			status = exitInvalid
		}
	}
	return status
}

func validatePair(files []string, stdin io.Reader, out *printer, stderr io.Writer) int {
	roles := []core.Role{core.RoleRequest, core.RoleResponse, core.RoleReceipt, core.RoleDuplicate}
	var p core.Pair
	slots := []**core.Document{&p.Request, &p.Response, &p.Receipt, &p.Duplicate}
	named := map[string]string{}
	stdinUsed := false
	for i, f := range files {
		data, err := readInput(f, stdin, &stdinUsed)
		if err != nil {
			fmt.Fprintf(stderr, "aqp validate: %v\n", err)
			return exitUsage
		}
		*slots[i] = core.Parse(roles[i].Kind(), data)
		named[string(roles[i])] = f
	}
	errs := core.ValidatePair(p)
	out.pair(files, named, errs)
	if len(errs) > 0 {
		return exitInvalid
	}
	return exitOK
}

// readInput reads a file, or standard input for "-" (once).
func readInput(name string, stdin io.Reader, stdinUsed *bool) ([]byte, error) {
	var r io.Reader
	if name == "-" {
		if *stdinUsed {
			return nil, errors.New("standard input (-) can be read only once")
		}
		*stdinUsed = true
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, core.MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// printer writes validation results for a person or, with json, one JSON object per line.
type printer struct {
	w    io.Writer
	json bool
}

func (p *printer) document(file string, kind core.Kind, errs core.Errors) {
	if p.json {
		p.record(validationRecord{File: file, Kind: string(kind), Valid: len(errs) == 0, Errors: nonNil(errs)})
		return
	}
	if len(errs) == 0 {
		fmt.Fprintf(p.w, "%s: valid %s\n", file, kind)
		return
	}
	fmt.Fprintf(p.w, "%s: invalid %s (%d %s)\n", file, kind, len(errs), plural(len(errs), "error", "errors"))
	for _, e := range errs {
		fmt.Fprintf(p.w, "  %s\n", e.Error())
	}
}

func (p *printer) pair(files []string, named map[string]string, errs core.Errors) {
	if p.json {
		p.record(validationRecord{File: files[0], Files: named, Kind: "pair", Valid: len(errs) == 0, Errors: nonNil(errs)})
		return
	}
	if len(errs) == 0 {
		fmt.Fprintf(p.w, "pair %v: valid\n", files)
		return
	}
	fmt.Fprintf(p.w, "pair %v: invalid (%d %s)\n", files, len(errs), plural(len(errs), "error", "errors"))
	for _, e := range errs {
		fmt.Fprintf(p.w, "  %s (%s)\n", e.Error(), named[string(e.Document)])
	}
}

func (p *printer) record(r validationRecord) {
	b, _ := json.Marshal(r)
	fmt.Fprintf(p.w, "%s\n", b)
}

func nonNil(errs core.Errors) core.Errors {
	if errs == nil {
		return core.Errors{}
	}
	return errs
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
