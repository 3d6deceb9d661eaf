package runner

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// levels orders requirement levels from strictest.
var levels = []string{"MUST", "SHOULD", "MAY"}

// Level is the strictest level among a record's requirements ("" when it names none the catalogue knows), so a
// summary can say how many MUST checks failed.
func Level(rec Record, catalogue []conformance.Requirement) string {
	best := len(levels)
	for _, id := range rec.Requirements {
		for _, r := range catalogue {
			if r.ID == id {
				if i := slices.Index(levels, r.Level); i >= 0 && i < best {
					best = i
				}
			}
		}
	}
	if best == len(levels) {
		return ""
	}
	return levels[best]
}

// Summary writes the counts of pass, fail and skip by requirement level and by binding.
func Summary(w io.Writer, recs []Record, catalogue []conformance.Requirement) {
	type counts struct{ pass, fail, skip int }
	add := func(m map[string]*counts, k string, s Status) {
		if m[k] == nil {
			m[k] = &counts{}
		}
		switch s {
		case Pass:
			m[k].pass++
		case Fail:
			m[k].fail++
		case Skip:
			m[k].skip++
		}
	}
	byLevel, byBinding := map[string]*counts{}, map[string]*counts{}
	var bindings []string
	for _, r := range recs {
		lv := Level(r, catalogue)
		if lv == "" {
			lv = "(none)"
		}
		add(byLevel, lv, r.Status)
		if byBinding[r.Binding] == nil {
			bindings = append(bindings, r.Binding)
		}
		add(byBinding, r.Binding, r.Status)
	}
	fmt.Fprintln(w, "by level:")
	for _, lv := range append(slices.Clone(levels), "(none)") {
		if c := byLevel[lv]; c != nil {
			fmt.Fprintf(w, "  %-7s %3d pass %3d fail %3d skip\n", lv, c.pass, c.fail, c.skip)
		}
	}
	fmt.Fprintln(w, "by binding:")
	for _, b := range bindings {
		c := byBinding[b]
		fmt.Fprintf(w, "  %-7s %3d pass %3d fail %3d skip\n", b, c.pass, c.fail, c.skip)
	}
}

// FailedRequirements lists, sorted, the requirement ids the failed checks are attributed to (Record.FailedRequirements).
func FailedRequirements(recs []Record) []string {
	set := map[string]bool{}
	for _, r := range recs {
		if r.Status == Fail {
			for _, id := range r.FailedRequirements {
				set[id] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// JSONReport is the JSON report file: one record per check.
type JSONReport struct {
	// Target is the collector checked.
	Target string `json:"target"`
	// Checks are the records in run order.
	Checks []Record `json:"checks"`
}

// JUnit XML, as CI systems read it: one testsuite per binding, one testcase per scenario.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     float64     `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      float64       `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Props     []junitProp   `xml:"properties>property,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// WriteReports writes report.json and junit.xml into dir, creating it.
func WriteReports(dir, target string, recs []Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if recs == nil {
		recs = []Record{}
	}
	b, err := json.MarshalIndent(JSONReport{Target: target, Checks: recs}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	var js junitSuites
	index := map[string]int{}
	for _, r := range recs {
		i, ok := index[r.Binding]
		if !ok {
			i = len(js.Suites)
			index[r.Binding] = i
			js.Suites = append(js.Suites, junitSuite{Name: "aqp-collector-" + r.Binding})
		}
		s := &js.Suites[i]
		c := junitCase{Name: r.Scenario, ClassName: r.Binding, Time: r.Seconds}
		for _, id := range r.Requirements {
			c.Props = append(c.Props, junitProp{Name: "requirement", Value: id})
		}
		switch r.Status {
		case Fail:
			c.Failure = &junitMessage{Message: firstLine(r.Evidence), Text: r.Evidence}
			s.Failures++
		case Skip:
			c.Skipped = &junitMessage{Message: r.Evidence}
			s.Skipped++
		}
		s.Tests++
		s.Time += r.Seconds
		s.Cases = append(s.Cases, c)
	}
	x, err := xml.MarshalIndent(js, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "junit.xml"), append([]byte(xml.Header), append(x, '\n')...), 0o644)
}
