package bindings_test

import (
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// The one list of bindings: a host answering queries takes every binding's transport from it, all under its
// destination policy, and a collector composes its service from every binding's collector side.
func Example() {
	fmt.Println(bindings.Names())
	reg := bindings.Registry(&respondent.Policy{AllowHTTPLoopback: true})
	fmt.Println(reg.Bindings())
	fmt.Println(len(bindings.Service()), "collector-side bindings")
	// Output:
	// [https mcp a2a]
	// [a2a https mcp]
	// 3 collector-side bindings
}
