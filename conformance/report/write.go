package report

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

type tally struct{ Pass, Fail, Expected, Skip int }

func (t *tally) add(s Status) {
	switch s {
	case Pass:
		t.Pass++
	case Fail:
		t.Fail++
	case Expected:
		t.Expected++
	case Skip:
		t.Skip++
	}
}

// Summary writes the console summary: counts by level and by binding, then every failure with its evidence and
// every stale expected-failures entry.
func (r *Report) Summary(w io.Writer) {
	byLevel, byBinding := map[string]*tally{}, map[string]*tally{}
	for _, c := range r.Checks {
		lv := c.Level
		if lv == "" {
			lv = "(none)"
		}
		if byLevel[lv] == nil {
			byLevel[lv] = &tally{}
		}
		if byBinding[c.Binding] == nil {
			byBinding[c.Binding] = &tally{}
		}
		byLevel[lv].add(c.Status)
		byBinding[c.Binding].add(c.Status)
	}
	line := func(name string, t *tally) {
		fmt.Fprintf(w, "  %-7s %4d pass %3d fail %3d expected %3d skip\n", name, t.Pass, t.Fail, t.Expected, t.Skip)
	}
	fmt.Fprintf(w, "\n%s conformance of %s: %d checks in %.1f s\nby level:\n", r.Role, r.Target, len(r.Checks), r.Seconds)
	for _, lv := range append(append([]string{}, Levels...), "(none)") {
		if t := byLevel[lv]; t != nil {
			line(lv, t)
		}
	}
	fmt.Fprintln(w, "by binding:")
	for _, b := range bindings(r.Checks) {
		line(b, byBinding[b])
	}
	for _, c := range r.Checks {
		if c.Status == Fail {
			fmt.Fprintf(w, "\nFAIL %s (%s)\n  %s\n", c.ID, strings.Join(c.Failed, ", "), strings.ReplaceAll(c.Evidence, "\n", "\n  "))
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(w, "\nSTALE expected failure %s: %s\n", s.Check, s.Why)
	}
}

// Files names what WriteDir writes for a role.
func Files(dir, role string) (jsonPath, junitPath, htmlPath string) {
	return filepath.Join(dir, role+".json"), filepath.Join(dir, role+".junit.xml"), filepath.Join(dir, "index.html")
}

// WriteDir writes the run's JSON report (ROLE.json) and JUnit XML (ROLE.junit.xml) into dir, creating it, then
// index.html: the HTML report of every run whose JSON report dir holds — so a collector run and a respondent run
// into one directory make one page.
func WriteDir(dir string, r *Report, catalogue []conformance.Requirement) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	jsonPath, junitPath, htmlPath := Files(dir, r.Role)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(jsonPath, append(b, '\n')); err != nil {
		return err
	}
	if err := writeFile(junitPath, r.JUnit()); err != nil {
		return err
	}
	var runs []*Report
	for _, role := range []string{"collector", "respondent"} {
		p, _, _ := Files(dir, role)
		if role == r.Role {
			runs = append(runs, r)
			continue
		}
		other, err := ReadJSON(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w (remove it, or write the report to another directory)", p, err)
		}
		runs = append(runs, other)
	}
	page, err := HTML(runs, catalogue)
	if err != nil {
		return err
	}
	return writeFile(htmlPath, page)
}

// writeFile replaces path atomically, so a reader never sees half a report.
func writeFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxReport bounds a JSON report read back.
const maxReport = 64 << 20

// ReadJSON reads a JSON report WriteDir wrote.
func ReadJSON(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReport+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReport {
		return nil, fmt.Errorf("larger than %d bytes", maxReport)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("not a conformance JSON report: %w", err)
	}
	if r.Role != "collector" && r.Role != "respondent" {
		return nil, fmt.Errorf("not a conformance JSON report: role %q", r.Role)
	}
	return &r, nil
}

// JUnit XML, as CI systems read it: one testsuite per binding, one testcase per check; an expected failure is a
// skipped case saying so, and stale expected-failures entries are failed cases of their own suite.
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

// JUnit renders the run as JUnit XML.
func (r *Report) JUnit() []byte {
	var js junitSuites
	index := map[string]int{}
	suite := func(name string) *junitSuite {
		i, ok := index[name]
		if !ok {
			i = len(js.Suites)
			index[name] = i
			js.Suites = append(js.Suites, junitSuite{Name: name})
		}
		return &js.Suites[i]
	}
	for _, c := range r.Checks {
		s := suite("aqp-" + r.Role + "-" + c.Binding)
		name := c.Scenario
		if c.Check != "" {
			name += ": " + c.Check
		}
		jc := junitCase{Name: name, ClassName: r.Role + "." + c.Binding, Time: c.Seconds}
		for _, id := range c.Requirements {
			jc.Props = append(jc.Props, junitProp{Name: "requirement", Value: id})
		}
		jc.Props = append(jc.Props, junitProp{Name: "level", Value: c.Level}, junitProp{Name: "check", Value: c.ID})
		switch c.Status {
		case Fail:
			jc.Failure = &junitMessage{Message: strings.Join(c.Failed, ", ") + ": " + firstLine(c.Evidence), Text: c.Evidence}
			s.Failures++
		case Expected:
			jc.Skipped = &junitMessage{Message: "expected failure: " + c.Reason, Text: c.Evidence}
			s.Skipped++
		case Skip:
			jc.Skipped = &junitMessage{Message: c.Evidence}
			s.Skipped++
		}
		s.Tests++
		s.Time += c.Seconds
		s.Cases = append(s.Cases, jc)
	}
	for _, st := range r.Stale {
		s := suite("aqp-" + r.Role + "-expected-failures")
		s.Tests++
		s.Failures++
		s.Cases = append(s.Cases, junitCase{Name: st.Check, ClassName: r.Role + ".expected-failures",
			Failure: &junitMessage{Message: st.Why, Text: st.Reason}})
	}
	x, err := xml.MarshalIndent(js, "", "  ")
	if err != nil {
		panic(err) // only strings and numbers: cannot fail
	}
	return append([]byte(xml.Header), append(x, '\n')...)
}
