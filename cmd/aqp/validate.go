package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// validationRecord is one line of `aqp validate --json`.
type validationRecord struct {
	File   string            `json:"file"`
	Files  map[string]string `json:"files,omitempty"`
	Kind   string            `json:"kind"`
	Valid  bool              `json:"valid"`
	Errors core.Errors       `json:"errors"`
}

// unreadableRecord is the line of `aqp validate --json` for a file that could not be read.
type unreadableRecord struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	Error string `json:"error"`
}

// kindUnknown is the kind printed for a document whose kind could not be detected.
const kindUnknown = "unknown"

type validateOptions struct {
	kind       string
	json, pair bool
}

func newValidateCmd(stdin io.Reader) *cobra.Command {
	var o validateOptions
	cmd := &cobra.Command{
		Use:   "validate [flags] FILE...",
		Short: "Check AQP requests, responses and receipts offline",
		Long: `Validate AQP documents offline against the protocol's schemas and the rules beyond them, and print every
failure with the member (a JSON Pointer), the rule (keyword) and the stable error code.

Without --kind each FILE's kind is read from its members: a document with "prompt" is a request, one with
"status" a receipt, anything else a response. A document that is not JSON (say, a truncated file) is classified
from the members that could be read; when those do not tell, the kind is reported as unknown and --kind tells it.

With --pair the files are a request, its response and optionally the receipt (and a duplicate's receipt), and
the paired checks run too: the ids, subject and respondent match, the answer meets the request's contract,
consent, expiry, and that a duplicate's receipt is equivalent.

FILE "-" reads standard input. Documents larger than 1 MiB are refused.
Exit status: 0 all valid, 1 something invalid, 2 usage error or unreadable input.`,
		Example: `  aqp validate examples/quickstart-request.json   # exits 1: the Quickstart's query has no consentMode (D1)
  aqp validate --kind response examples/quickstart-response.json
  aqp validate --pair examples/quickstart-request-corrected.json examples/quickstart-response.json examples/quickstart-receipt.json
  aqp query create --draft draft.json --consent-mode ask_always | aqp validate --json -`,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"json"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, files []string) error {
			return runValidate(o, files, stdin, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.kind, "kind", "", "validate every FILE as this kind: request, response or receipt (default: read from each FILE's members)")
	f.BoolVar(&o.json, "json", false, "print one JSON object per document (or per pair) on its own line (default: text for a person)")
	f.BoolVar(&o.pair, "pair", false, "validate REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]] together, with the paired checks (default: each FILE on its own)")
	_ = cmd.RegisterFlagCompletionFunc("kind", completeWords("request", "response", "receipt"))
	return cmd
}

func runValidate(o validateOptions, files []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var kind core.Kind
	if o.kind != "" {
		var err error
		if kind, err = core.ParseKind(o.kind); err != nil {
			return usageError("--kind: %v", err)
		}
	}
	if len(files) == 0 {
		return usageError("no FILE given (use - for standard input)")
	}
	out := &printer{w: stdout, json: o.json}
	if o.pair {
		if kind != "" {
			return usageError("--kind and --pair do not go together: a pair's kinds are given by position")
		}
		if len(files) < 2 || len(files) > 4 {
			return usageError("--pair wants REQUEST RESPONSE [RECEIPT [DUPLICATE_RECEIPT]], got %d files", len(files))
		}
		return exitStatus(validatePair(files, stdin, out, stderr))
	}
	status := exitOK
	stdinUsed := false
	for _, f := range files {
		in, err := readInput(f, stdin, &stdinUsed)
		if err != nil {
			out.unreadable(f, err, stderr)
			status = exitUsage
			continue
		}
		k, known := kind, true
		if k == "" {
			k, known = core.SniffKind(in.data)
		}
		if !known {
			_, derr := core.DecodeJSON(in.data)
			var e *core.Error
			if !errors.As(derr, &e) {
				e = &core.Error{Keyword: core.KeywordJSON, Message: fmt.Sprint(derr)}
			}
			out.document(f, kindUnknown, in.explain(core.Errors{*e}))
			if status == exitOK {
				status = exitInvalid
			}
			continue
		}
		doc := core.Parse(k, in.data)
		out.document(f, string(k), in.explain(doc.Errors))
		if !doc.Valid() && status == exitOK {
			status = exitInvalid
		}
	}
	return exitStatus(status)
}

func validatePair(files []string, stdin io.Reader, out *printer, stderr io.Writer) int {
	roles := []core.Role{core.RoleRequest, core.RoleResponse, core.RoleReceipt, core.RoleDuplicate}
	var p core.Pair
	slots := []**core.Document{&p.Request, &p.Response, &p.Receipt, &p.Duplicate}
	named := map[string]string{}
	stdinUsed := false
	for i, f := range files {
		in, err := readInput(f, stdin, &stdinUsed)
		if err != nil {
			out.unreadable(f, err, stderr)
			return exitUsage
		}
		doc := core.Parse(roles[i].Kind(), in.data)
		doc.Errors = in.explain(doc.Errors)
		*slots[i] = doc
		named[string(roles[i])] = f
	}
	errs := core.ValidatePair(p)
	out.pair(files, named, errs)
	if len(errs) > 0 {
		return exitInvalid
	}
	return exitOK
}

// input is what readInput read of one FILE.
type input struct {
	// data is the document, or its first core.MaxDocumentBytes+1 bytes when it is larger: enough for the
	// validator to refuse it and for the kind to be detected.
	data []byte
	// size is the document's real size in bytes; exact is false when reading stopped counting at maxCountBytes.
	size  int64
	exact bool
}

// maxCountBytes bounds how far an oversized standard input is read only to say how large it is.
const maxCountBytes = 64 << 20

// readInput reads a file, or standard input for "-" (once), keeping at most core.MaxDocumentBytes+1 bytes.
func readInput(name string, stdin io.Reader, stdinUsed *bool) (*input, error) {
	var r io.Reader
	size := int64(-1)
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
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, core.MaxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	in := &input{data: data, size: int64(len(data)), exact: true}
	if len(data) > core.MaxDocumentBytes {
		if size >= 0 {
			in.size = size
		} else {
			n, err := io.Copy(io.Discard, io.LimitReader(r, maxCountBytes))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			in.size += n
			in.exact = n < maxCountBytes
		}
	}
	return in, nil
}

// explain rewrites the messages core reports about the bytes themselves with what only the reader of the whole
// input knows: the document's real size, and the line and column of a JSON error's offset.
func (in *input) explain(errs core.Errors) core.Errors {
	for i, e := range errs {
		if e.Pointer != "" {
			continue
		}
		// The whole document over the size bound: core saw only what was read, the file's real size is known here.
		// (Other size errors — nesting, numbers, a jsonSchema — point inside the document and keep core's message.)
		if e.Keyword == core.KeywordSize && e.Pointer == "" && strings.HasPrefix(e.Message, "document is") {
			about := "is"
			if !in.exact {
				about = "is more than"
			}
			errs[i].Message = fmt.Sprintf("document %s %d bytes; at most %d are accepted", about, in.size, core.MaxDocumentBytes)
		}
	}
	return errs
}

// printer writes validation results for a person or, with json, one JSON object per line.
type printer struct {
	w    io.Writer
	json bool
}

func (p *printer) document(file, kind string, errs core.Errors) {
	if p.json {
		p.record(validationRecord{File: file, Kind: kind, Valid: len(errs) == 0, Errors: nonNil(errs)})
		return
	}
	if len(errs) == 0 {
		say(p.w, "%s: valid %s\n", file, kind)
		return
	}
	what := "invalid " + kind
	if kind == kindUnknown {
		what = "invalid document of unknown kind (its members do not tell; give --kind request, response or receipt)"
	}
	say(p.w, "%s: %s (%d %s)\n", file, what, len(errs), plural(len(errs), "error", "errors"))
	for _, e := range errs {
		say(p.w, "  %s\n", formatError(e))
	}
}

// unreadable reports a FILE that could not be read: on standard error for a person, and with --json also as a
// record on standard output, so that a program reading the records sees every FILE it named.
func (p *printer) unreadable(file string, err error, stderr io.Writer) {
	say(stderr, "aqp validate: %s\n", oneLine(err.Error()))
	if p.json {
		p.record(unreadableRecord{File: file, Error: err.Error()})
	}
}

func (p *printer) pair(files []string, named map[string]string, errs core.Errors) {
	if p.json {
		p.record(validationRecord{File: files[0], Files: named, Kind: "pair", Valid: len(errs) == 0, Errors: nonNil(errs)})
		return
	}
	if len(errs) == 0 {
		say(p.w, "pair %v: valid\n", files)
		return
	}
	say(p.w, "pair %v: invalid (%d %s)\n", files, len(errs), plural(len(errs), "error", "errors"))
	for _, e := range errs {
		say(p.w, "  %s (%s)\n", formatError(e), named[string(e.Document)])
	}
}

// formatError is core.Error.Error, without the empty code of a document whose kind is unknown.
func formatError(e core.Error) string {
	if e.Code != "" {
		return e.Error()
	}
	return strings.TrimSuffix(e.Error(), ", ]") + "]"
}

func (p *printer) record(r any) {
	b, _ := json.Marshal(r)
	say(p.w, "%s\n", b)
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
