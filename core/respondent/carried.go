package respondent

import (
	"errors"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// IntakeCarried takes in every query a binding's reader (its Queries) kept from one carrying object: each of qs
// goes through the runtime's judgment (expiry, its transport, its destination policy) as IntakeRequest judges it,
// and each of dropped (what the reader already refused) becomes a DropError too, so a host
// logs every query it was offered and did not keep in one form, whichever carriage brought it. source names the
// carrying object ("mcp tool result search", "a2a message <id>"); a dropped entry's source adds its index. The
// queries come back in the order the carriage gave them; the drops follow the carriage's, then the runtime's.
func (r *Respondent) IntakeCarried(source string, qs []core.CarriedQuery, dropped []core.Dropped) ([]*Query, []*DropError) {
	var kept []*Query
	var drops []*DropError
	for _, d := range dropped {
		reason := d.Reason
		if d.Rule != "" {
			reason = fmt.Sprintf("not carried as §6 says (%s): %s", d.Rule, d.Reason)
		}
		e := &DropError{Source: carriedSource(source, d.Index), Reason: reason}
		_ = r.drop(e)
		drops = append(drops, e)
	}
	seen := map[string]bool{}
	for _, c := range qs {
		req := c.Request
		// A query carried again on the same object is the same query: taken in once, answered once (D34).
		if req != nil && seen[req.QueryID] {
			r.log.Info("aqp query carried again on the same object: taken in once", "query_id", req.QueryID, "source", source)
			continue
		}
		if req != nil {
			seen[req.QueryID] = true
		}
		q, err := r.IntakeRequest(source, req)
		if err != nil {
			var e *DropError
			if !errors.As(err, &e) { // IntakeRequest only drops; keep the error whatever it is
				e = &DropError{Source: source, Reason: "not taken in", Err: err}
			}
			drops = append(drops, e)
			continue
		}
		kept = append(kept, q)
	}
	return kept, drops
}

func carriedSource(source string, index int) string {
	if index < 0 {
		return source
	}
	return fmt.Sprintf("%s, entry %d", source, index)
}
