package memory_test

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	"github.com/agentqueryprotocol/aqp-go/store/storetest"
)

func TestStore(t *testing.T) {
	shared := memory.New() // the run's one "database"; every open is a new handle on it
	storetest.Run(t, func(t *testing.T) collector.Store { return shared.Reopen() })
}

func BenchmarkAccept(b *testing.B) {
	storetest.BenchAccept(b, memory.New())
}
