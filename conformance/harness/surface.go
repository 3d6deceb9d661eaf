package harness

import (
	"context"
	"net/http"
)

// Surface is one pinned surface a collector serves beside submitting — its discovery document, its schemas, its
// OpenAPI document, a binding's agent card or tool list, the HTTPS binding's refusals — read and checked by a
// runner as a check of its own. Read returns nil when the surface is as §6 and the decisions pin it, else an error
// saying what differs (a *RuleError when it names other requirements than the surface's own).
type Surface struct {
	// Name names the check ("discovery", "agent-card", …).
	Name string
	// Requirements are the requirements.json ids the surface proves; a failure is attributed to them.
	Requirements []string
	// Read fetches the surface from the collector at baseURL with hc and checks it.
	Read func(ctx context.Context, baseURL string, hc *http.Client) error
}
