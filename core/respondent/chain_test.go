package respondent

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// TestFollowContinuations: a chain of continuations is answered in order up to the bound; the one past it comes
// back unanswered; an error or a receipt without a continuation ends the chain.
func TestFollowContinuations(t *testing.T) {
	chain := make([]*Query, 5)
	for i := range chain {
		chain[i] = &Query{Request: &aqp.QueryRequest{Prompt: fmt.Sprint(i)}}
	}
	fail := errors.New("delivery failed")
	for _, tc := range []struct {
		name       string
		length     int // how many queries the chain has (each but the last carries the next)
		max        int
		failAt     int // -1: none
		answered   []string
		unanswered string // "" when none
		err        error
	}{
		{"no continuation", 1, 3, -1, []string{"0"}, "", nil},
		{"chain shorter than the bound", 3, 3, -1, []string{"0", "1", "2"}, "", nil},
		{"chain as long as the bound", 4, 3, -1, []string{"0", "1", "2", "3"}, "", nil},
		{"chain past the bound", 5, 2, -1, []string{"0", "1", "2"}, "3", nil},
		{"bound zero answers only the first", 5, 0, -1, []string{"0"}, "1", nil},
		{"an error ends the chain", 5, 4, 1, []string{"0", "1"}, "", fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var answered []string
			var followedSeen []int
			next, err := FollowContinuations(chain[0], tc.max, func(q *Query, followed int) (*Result, error) {
				answered = append(answered, q.Request.Prompt)
				followedSeen = append(followedSeen, followed)
				i := followed
				if i == tc.failAt {
					return nil, fail
				}
				res := &Result{Query: q}
				if i+1 < tc.length {
					res.Continuation = chain[i+1]
				}
				return res, nil
			})
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if !slices.Equal(answered, tc.answered) {
				t.Fatalf("answered %v, want %v", answered, tc.answered)
			}
			for i, f := range followedSeen {
				if f != i {
					t.Fatalf("followed %v, want 0, 1, …", followedSeen)
				}
			}
			got := ""
			if next != nil {
				got = next.Request.Prompt
			}
			if got != tc.unanswered {
				t.Fatalf("unanswered %q, want %q", got, tc.unanswered)
			}
		})
	}
}
