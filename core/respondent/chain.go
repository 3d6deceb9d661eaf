package respondent

// FollowContinuations answers q and then, in turn, the continuation each accepted receipt carries (Result's
// Continuation, already taken in), following at most max continuations, so that every host walks a chain by one
// rule: a chain ends at a receipt without a continuation, at an error, or at the bound, and the bound stops a
// collector from keeping a respondent answering forever. answer answers one query (Respond, with whatever the host
// does around it); followed is how many continuations were followed before it (0 for q itself). FollowContinuations
// returns answer's first error, or the continuation left unanswered when the bound was reached (nil when the
// chain ended on its own).
func FollowContinuations(q *Query, max int, answer func(q *Query, followed int) (*Result, error)) (unanswered *Query, err error) {
	for followed := 0; ; followed++ {
		res, err := answer(q, followed)
		if err != nil || res == nil || res.Continuation == nil {
			return nil, err
		}
		if followed >= max {
			return res.Continuation, nil
		}
		q = res.Continuation
	}
}
