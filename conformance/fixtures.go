package conformance

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// FixturesJSON is fixtures.json: the deliberately broken implementations the kit's own tests run, each with the
// requirements the runner must fail for it. A fixture is a failing proof of the requirements it lists, so the
// catalogue's coverage test counts it where no vector can break a rule (a respondent's behaviour, a binding's wire
// form); the test that runs the fixture holds it to exactly that list.
//
//go:embed fixtures.json
var FixturesJSON []byte

// Fixture is one deliberately broken implementation.
type Fixture struct {
	// Name is role/what-it-breaks; the test that runs the fixture looks it up by name.
	Name string `json:"name"`
	// Role is collector or respondent.
	Role string `json:"role"`
	// Binding is the binding the fixture is run over.
	Binding string `json:"binding"`
	// Breaks says in one sentence what the fixture does wrong.
	Breaks string `json:"breaks"`
	// Fails lists, sorted, exactly the requirement ids the runner must report failed.
	Fails []string `json:"fails"`
}

// LoadFixtures decodes the embedded fixtures file.
func LoadFixtures() ([]Fixture, error) { return ParseFixtures(FixturesJSON) }

// ParseFixtures decodes a fixtures file strictly: no unknown members, unique names prefixed by their role, a known
// binding, and a sorted, non-empty list of well-formed requirement ids.
func ParseFixtures(b []byte) ([]Fixture, error) {
	var f struct {
		Description string    `json:"description"`
		Fixtures    []Fixture `json:"fixtures"`
	}
	if err := DecodeStrict("fixtures.json", b, &f); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, fx := range f.Fixtures {
		switch {
		case fx.Role != "collector" && fx.Role != "respondent":
			return nil, fmt.Errorf("fixtures.json: fixture %d (%q): role %q is not collector or respondent", i, fx.Name, fx.Role)
		case !strings.HasPrefix(fx.Name, fx.Role+"/") || len(fx.Name) == len(fx.Role)+1:
			return nil, fmt.Errorf("fixtures.json: fixture %d: name %q does not start with its role %q and a slash", i, fx.Name, fx.Role)
		case seen[fx.Name]:
			return nil, fmt.Errorf("fixtures.json: fixture %s is listed twice", fx.Name)
		case fx.Binding != "https" && fx.Binding != "mcp" && fx.Binding != "a2a":
			return nil, fmt.Errorf("fixtures.json: %s: binding %q is not https, mcp or a2a", fx.Name, fx.Binding)
		case strings.TrimSpace(fx.Breaks) == "":
			return nil, fmt.Errorf("fixtures.json: %s: breaks must say what the fixture does wrong", fx.Name)
		case len(fx.Fails) == 0:
			return nil, fmt.Errorf("fixtures.json: %s: fails is empty — a fixture the runner must pass proves nothing", fx.Name)
		case !slices.IsSorted(fx.Fails):
			return nil, fmt.Errorf("fixtures.json: %s: fails must be sorted", fx.Name)
		}
		if err := checkRequirementIDs(fx.Fails); err != nil {
			return nil, fmt.Errorf("fixtures.json: %s: %w", fx.Name, err)
		}
		seen[fx.Name] = true
	}
	return f.Fixtures, nil
}

// FixtureFails returns the requirement ids the named fixture must fail, or an error naming the file when it is not
// listed, so a test cannot run an unlisted fixture.
func FixtureFails(name string) ([]string, error) {
	fxs, err := LoadFixtures()
	if err != nil {
		return nil, err
	}
	for _, fx := range fxs {
		if fx.Name == name {
			return fx.Fails, nil
		}
	}
	return nil, fmt.Errorf("fixture %s is not listed in conformance/fixtures.json", name)
}
