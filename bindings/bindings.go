// Package transports is the one place a respondent's transports are listed: Registry builds a
// respondent.Registry holding every binding's client, each built with the one *http.Client the respondent's
// destination policy produced, so a new binding's client is added here (one line) and every command and host
// that answers queries gets it.
package transports

import (
	"net/http"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// Registry returns the transports of every binding this module implements (https, mcp, a2a), all dialling
// through hc (build it with respondent.Policy.Client, so the destination policy holds for every connection).
func Registry(hc *http.Client) *respondent.Registry {
	r, err := respondent.NewRegistry(
		&https.Client{HTTP: hc},
		&mcp.Client{HTTP: hc},
		&a2a.Client{HTTP: hc},
	)
	if err != nil {
		// Only a programming error (two clients for one binding) gets here; TestRegistry catches it.
		panic(err)
	}
	return r
}
