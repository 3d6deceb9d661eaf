package respondent

import (
	"errors"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// CarriedDrop is an entry a binding's carriage found on a carrying object (an MCP tool result, an A2A message or
// task) and did not hand over as a query: the carriage's own verdict, before the runtime sees it. Each binding
// converts its Dropped type to this one, so core/respondent needs no binding.
type CarriedDrop struct {
	// Index is the entry's position in the carried array; -1 when the carrying member itself is wrong.
	Index int
	// Reason says which rule the entry breaks.
	Reason string
}

// IntakeCarried takes in every query a carriage extracted from one carrying object: each of reqs goes through
// IntakeRequest, and each of dropped (what the carriage already refused) becomes a DropError too, so a host
// logs every query it was offered and did not keep in one form, whichever carriage brought it. source names the
// carrying object ("mcp tool result search", "a2a message <id>"); a dropped entry's source adds its index. The
// queries come back in the order the carriage gave them; the drops follow the carriage's, then the runtime's.
func (r *Respondent) IntakeCarried(source string, reqs []*aqp.QueryRequest, dropped []CarriedDrop) ([]*Query, []*DropError) {
	var qs []*Query
	var drops []*DropError
	for _, d := range dropped {
		e := &DropError{Source: carriedSource(source, d.Index), Reason: d.Reason}
		_ = r.drop(e)
		drops = append(drops, e)
	}
	seen := map[string]bool{}
	for _, req := range reqs {
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
		qs = append(qs, q)
	}
	return qs, drops
}

func carriedSource(source string, index int) string {
	if index < 0 {
		return source
	}
	return fmt.Sprintf("%s, entry %d", source, index)
}
