package conformance

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// RequirementsJSON is the requirements catalogue, requirements.json: every normative statement of the seeds, the
// design brief and spec/DECISIONS.md, with the stable id a vector names in its requirements member.
//
//go:embed requirements.json
var RequirementsJSON []byte

// Requirement is one normative statement of the protocol.
type Requirement struct {
	// ID is stable (AQP-…); a changed rule gets a new id, never a new meaning for an old one.
	ID string `json:"id"`
	// Level is MUST, SHOULD or MAY.
	Level string `json:"level"`
	// Role is the party the statement binds: collector, respondent or validator (any implementation that checks
	// documents).
	Role string `json:"role"`
	// Statement is the requirement in one sentence.
	Statement string `json:"statement"`
	// Source is where it is written: the seed file, a design section or a DECISIONS D-number.
	Source string `json:"source"`
	// NoFailingProof, on a MUST, says in one sentence why no failing proof of it can be constructed (no vector
	// or fixture can break it observably). The coverage test then asks only for a passing proof, and fails when a
	// failing proof appears after all, so the reason cannot go stale.
	NoFailingProof *string `json:"noFailingProof,omitempty"`
}

var requirementID = regexp.MustCompile(`^AQP-[A-Z0-9]+(-[A-Z0-9]+)*$`)

// LoadRequirements decodes the embedded catalogue.
func LoadRequirements() ([]Requirement, error) {
	return ParseRequirements(RequirementsJSON)
}

// ParseRequirements decodes a catalogue strictly: no unknown members, ids well-formed and unique, a known level and
// role, a statement and source on every entry, and a noFailingProof only on a MUST and never blank.
func ParseRequirements(b []byte) ([]Requirement, error) {
	var f struct {
		Description  string        `json:"description"`
		Requirements []Requirement `json:"requirements"`
	}
	if err := DecodeStrict("requirements.json", b, &f); err != nil {
		return nil, err
	}
	if len(f.Requirements) == 0 {
		return nil, errors.New("requirements.json: no requirements")
	}
	seen := map[string]bool{}
	for i, r := range f.Requirements {
		switch {
		case !requirementID.MatchString(r.ID):
			return nil, fmt.Errorf("requirements.json: entry %d: id %q is not AQP- followed by upper-case words", i, r.ID)
		case seen[r.ID]:
			return nil, fmt.Errorf("requirements.json: id %s is used twice", r.ID)
		case r.Level != "MUST" && r.Level != "SHOULD" && r.Level != "MAY":
			return nil, fmt.Errorf("requirements.json: %s: level %q is not MUST, SHOULD or MAY", r.ID, r.Level)
		case r.Role != "collector" && r.Role != "respondent" && r.Role != "validator":
			return nil, fmt.Errorf("requirements.json: %s: role %q is not collector, respondent or validator", r.ID, r.Role)
		case strings.TrimSpace(r.Statement) == "" || strings.TrimSpace(r.Source) == "":
			return nil, fmt.Errorf("requirements.json: %s: a statement and a source are required", r.ID)
		case r.NoFailingProof != nil && r.Level != "MUST":
			return nil, fmt.Errorf("requirements.json: %s: noFailingProof is for MUSTs, whose coverage is enforced; this one is a %s", r.ID, r.Level)
		case r.NoFailingProof != nil && strings.TrimSpace(*r.NoFailingProof) == "":
			return nil, fmt.Errorf("requirements.json: %s: noFailingProof must say why no failing proof can be constructed", r.ID)
		}
		seen[r.ID] = true
	}
	return f.Requirements, nil
}

// checkRequirementIDs rejects a vector's requirements list when an id is malformed or listed twice; whether each id
// is in the catalogue is the suite's check, so a vector file stays loadable on its own.
func checkRequirementIDs(ids []string) error {
	seen := map[string]bool{}
	for _, id := range ids {
		if !requirementID.MatchString(id) {
			return fmt.Errorf("requirement %q is not an id of the form AQP-…", id)
		}
		if seen[id] {
			return fmt.Errorf("requirement %s is listed twice", id)
		}
		seen[id] = true
	}
	return nil
}
