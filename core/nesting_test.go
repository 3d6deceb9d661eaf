package core_test

import (
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestNestsDeeperThan: objects and arrays are counted, brackets inside strings (escaped quotes included) are not.
func TestNestsDeeperThan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want bool
	}{
		{`[[[]]]`, 3, false},
		{`[[[[]]]]`, 3, true},
		{`{"a":{"b":[1]}}`, 3, false},
		{`{"a":{"b":[{}]}}`, 3, true},
		{`["[[[[[[", "\"[[[[", {"k\"{{{{": 1}]`, 2, false},
		{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), core.MaxNesting, true},
		{strings.Repeat("[", 10000) + strings.Repeat("]", 10000), core.MaxNesting, false},
	} {
		if got := core.NestsDeeperThan([]byte(tc.in), tc.n); got != tc.want {
			t.Errorf("NestsDeeperThan(%.40q, %d) = %v, want %v", tc.in, tc.n, got, tc.want)
		}
	}
}
