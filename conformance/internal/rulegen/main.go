// Command rulegen writes conformance/vectors/collector/rules.json from the committed paired vectors (see package
// collectorrules): every collector rule of the paired vectors, sent to a collector. Run it after vectorgen; `make
// vectors` runs both.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/collectorrules"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "rulegen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	dir := filepath.Join(root, "conformance")
	c, err := conformance.LoadDir(dir)
	if err != nil {
		return err
	}
	b, n, err := collectorrules.Render(c)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, filepath.FromSlash(collectorrules.File))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %d scenarios to %s\n", n, path)
	return nil
}

// moduleRoot finds the directory of the enclosing go.mod, walking up from the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/agentqueryprotocol/aqp-go\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the aqp-go module")
		}
		dir = parent
	}
}
