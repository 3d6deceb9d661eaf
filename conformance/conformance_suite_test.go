package conformance_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// corpus is the committed vector corpus, loaded once while the spec tree is built so that every vector gets its own
// It. When it fails to load, corpusErr says why and the corpus specs fail; no vector spec is generated.
var corpus, corpusErr = conformance.Load()

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "AQP conformance vectors")
}
