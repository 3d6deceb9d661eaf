package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

//go:embed report.html.tmpl
var pageTemplate string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"join": strings.Join,
	"seconds": func(s float64) string {
		return (time.Duration(s*10) * time.Second / 10).String()
	},
}).Parse(pageTemplate))

// cell is one requirement over one binding: the checks that bear on it and their combined verdict.
type cell struct {
	Binding string
	// Status is the worst verdict among the checks: fail, then expected-fail, pass, skip; "none" when no check
	// bears on the requirement over this binding.
	Status string
	Label  string
	Anchor string
	Checks []Check
}

type row struct {
	Req     conformance.Requirement
	Known   bool
	Cells   []cell
	Anchors []string
}

type runView struct {
	*Report
	Totals  tally
	Summary []summaryRow
}

type summaryRow struct {
	Level string
	Cells []tally
}

type pageData struct {
	Version   string
	Bindings  []string
	Runs      []runView
	Rows      []row
	Failures  []Check
	Unchecked []conformance.Requirement
	Totals    map[string]int
}

var statusRank = map[Status]int{Fail: 4, Expected: 3, Pass: 2, Skip: 1}

// HTML renders one self-contained page for the runs: a summary of each run by level and binding, the failures with
// their evidence, and the requirement × binding matrix whose every cell links to the checks behind it. It needs no
// network and no script to read; a short script only records, on the root element, what the browser laid out
// (rows, cells, width, dangling links), so a test in a headless browser can check the matrix rendered.
func HTML(runs []*Report, catalogue []conformance.Requirement) ([]byte, error) {
	var all []Check
	for _, r := range runs {
		all = append(all, r.Checks...)
	}
	d := pageData{Version: spec.ProtocolVersion, Bindings: bindings(all), Totals: map[string]int{}}
	for _, r := range runs {
		rv := runView{Report: r}
		for _, c := range r.Checks {
			rv.Totals.add(c.Status)
			d.Totals[string(c.Status)]++
			if c.Status == Fail {
				d.Failures = append(d.Failures, c)
			}
		}
		for _, lv := range append(append([]string{}, Levels...), "") {
			sr := summaryRow{Level: lv, Cells: make([]tally, len(d.Bindings))}
			any := false
			for _, c := range r.Checks {
				if c.Level == lv {
					sr.Cells[slices.Index(d.Bindings, c.Binding)].add(c.Status)
					any = true
				}
			}
			if sr.Level == "" {
				sr.Level = "(none)"
			}
			if any {
				rv.Summary = append(rv.Summary, sr)
			}
		}
		d.Runs = append(d.Runs, rv)
	}
	ids := map[string]bool{}
	for _, c := range all {
		for _, id := range append(append([]string{}, c.Requirements...), c.Failed...) {
			ids[id] = true
		}
	}
	known := map[string]bool{}
	for _, req := range catalogue {
		known[req.ID] = true
		if ids[req.ID] {
			d.Rows = append(d.Rows, newRow(req, true, d.Bindings, all))
		} else {
			d.Unchecked = append(d.Unchecked, req)
		}
	}
	var unknown []string
	for id := range ids {
		if !known[id] {
			unknown = append(unknown, id)
		}
	}
	slices.Sort(unknown)
	for _, id := range unknown {
		d.Rows = append(d.Rows, newRow(conformance.Requirement{ID: id, Statement: "not in this catalogue: a check names a requirement this version of the kit does not know"}, false, d.Bindings, all))
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("rendering the HTML report: %w", err)
	}
	return buf.Bytes(), nil
}

func newRow(req conformance.Requirement, known bool, bs []string, all []Check) row {
	rw := row{Req: req, Known: known}
	for _, b := range bs {
		cl := cell{Binding: b, Status: "none", Anchor: "ev-" + req.ID + "-" + b}
		worst := 0
		n := map[Status]int{}
		for _, c := range all {
			if c.Binding != b {
				continue
			}
			bears := slices.Contains(c.Requirements, req.ID) || slices.Contains(c.Failed, req.ID)
			// A failure counts against the requirements it is attributed to; for the others it names, it proves
			// nothing either way.
			if c.Status == Fail || c.Status == Expected {
				bears = slices.Contains(c.Failed, req.ID)
				if c.Status == Expected && len(c.Failed) == 0 {
					bears = slices.Contains(c.Requirements, req.ID)
				}
			}
			if !bears {
				continue
			}
			cl.Checks = append(cl.Checks, c)
			n[c.Status]++
			if statusRank[c.Status] > worst {
				worst = statusRank[c.Status]
				cl.Status = string(c.Status)
			}
		}
		slices.SortStableFunc(cl.Checks, func(a, b Check) int { return statusRank[b.Status] - statusRank[a.Status] })
		switch cl.Status {
		case string(Fail):
			cl.Label = fmt.Sprintf("✗ %d/%d", n[Fail], len(cl.Checks))
		case string(Expected):
			cl.Label = fmt.Sprintf("≈ %d/%d", n[Expected], len(cl.Checks))
		case string(Pass):
			cl.Label = fmt.Sprintf("✓ %d", n[Pass])
		case string(Skip):
			cl.Label = fmt.Sprintf("– %d", n[Skip])
		default:
			cl.Label = "·"
		}
		rw.Cells = append(rw.Cells, cl)
	}
	return rw
}
