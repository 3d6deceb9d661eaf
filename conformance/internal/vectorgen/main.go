// Command vectorgen writes the AQP conformance vectors from the Go tables in ./corpus. Run it from anywhere inside
// the module (`go run ./conformance/internal/vectorgen`, or `make vectors`): it writes conformance/vectors/
// standalone/*.json, conformance/vectors/paired/*.json and conformance/vectors/carriage/*.json, removes vector
// files the tables no longer produce, and then renders conformance/vectors/collector/rules.json from the paired vectors
// it wrote (package collectorrules: every collector rule of the paired vectors, sent to a collector).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/collectorrules"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/vectorgen/corpus"
)

func main() {
	out := flag.String("out", "", "the vectors folder to write (default: conformance/vectors of the enclosing module)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "vectorgen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if out == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		out = filepath.Join(root, "conformance", "vectors")
	}
	files, err := corpus.Generate()
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, dir := range []string{"standalone", "paired", "carriage"} {
		if err := os.MkdirAll(filepath.Join(out, dir), 0o755); err != nil {
			return err
		}
		stale, err := filepath.Glob(filepath.Join(out, dir, "*.json"))
		if err != nil {
			return err
		}
		for _, f := range stale {
			rel := filepath.ToSlash(filepath.Join(dir, filepath.Base(f)))
			if _, keep := files[rel]; !keep {
				if err := os.Remove(f); err != nil {
					return err
				}
				fmt.Println("removed", filepath.Join(out, rel))
			}
		}
	}
	for _, p := range paths {
		if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(p)), files[p], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d vector files to %s\n", len(paths), out)
	// The collector scenarios are read from the folder above vectors/, as the conformance package lays them out.
	c, err := conformance.LoadDir(filepath.Dir(out))
	if err != nil {
		return err
	}
	b, n, err := collectorrules.Render(c)
	if err != nil {
		return err
	}
	rules := filepath.Join(filepath.Dir(out), filepath.FromSlash(collectorrules.File))
	if err := os.WriteFile(rules, b, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %d collector-rule scenarios to %s\n", n, rules)
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
			return "", errors.New("not inside the aqp-go module; pass -out")
		}
		dir = parent
	}
}
