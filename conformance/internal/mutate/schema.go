package mutate

import (
	"encoding/json"
	"sort"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Facts are what the generator knows of the schemas without resolving paths: every string enum and const value
// (the values near-misses are made from), every length bound (maxLength, minLength, maxItems, minItems,
// maxProperties) and every numeric bound (minimum, maximum and their exclusive forms). A mutation that stretches a
// string to each length bound and one past it meets every bound in the schemas wherever it applies.
type Facts struct {
	// Enums are the string enums, each as written in a schema; a const is an enum of one.
	Enums [][]string
	// Lengths are the distinct length bounds, ascending.
	Lengths []int
	// Numbers are the distinct numeric bounds, ascending, as written.
	Numbers []json.Number
}

// SchemaFacts reads the facts from the four embedded schemas of package spec.
func SchemaFacts() (*Facts, error) {
	f := &Facts{}
	lengths := map[int]bool{}
	numbers := map[string]json.Number{}
	for _, name := range spec.SchemaFiles {
		var v any
		if err := json.Unmarshal(spec.File(name), &v); err != nil {
			return nil, err
		}
		walkSchema(v, f, lengths, numbers)
	}
	for n := range lengths {
		f.Lengths = append(f.Lengths, n)
	}
	sort.Ints(f.Lengths)
	keys := make([]string, 0, len(numbers))
	for k := range numbers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f.Numbers = append(f.Numbers, numbers[k])
	}
	return f, nil
}

func walkSchema(v any, f *Facts, lengths map[int]bool, numbers map[string]json.Number) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			e := x[k]
			switch k {
			case "enum":
				if arr, ok := e.([]any); ok {
					var strs []string
					for _, s := range arr {
						if s, ok := s.(string); ok {
							strs = append(strs, s)
						}
					}
					if len(strs) > 0 {
						f.Enums = append(f.Enums, strs)
					}
				}
			case "const":
				if s, ok := e.(string); ok {
					f.Enums = append(f.Enums, []string{s})
				}
			case "maxLength", "minLength", "maxItems", "minItems", "maxProperties":
				if n, ok := e.(float64); ok && n < 1<<20 {
					lengths[int(n)] = true
				}
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				if n, ok := e.(float64); ok {
					s := json.Number(formatFloat(n))
					numbers[string(s)] = s
				}
			}
			walkSchema(e, f, lengths, numbers)
		}
	case []any:
		for _, e := range x {
			walkSchema(e, f, lengths, numbers)
		}
	}
}
