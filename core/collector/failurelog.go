package collector

import (
	"log/slog"
	"sync"
	"time"
)

// failureWindow is how long repeats of one kind of failure are counted instead of logged.
const failureWindow = 10 * time.Second

// failureLog logs store failures so that an outage is visible without flooding the log: the first failure of a
// kind (what the collector was doing) in a window is logged at once, the repeats are counted, and the count is
// reported with the next failure logged after the window. An outage of thousands of submissions a second is then
// a line every ten seconds, not thousands.
type failureLog struct {
	log   *slog.Logger
	mu    sync.Mutex
	kinds map[string]*failureCount
}

type failureCount struct {
	since    time.Time
	repeated int
}

func newFailureLog(log *slog.Logger) *failureLog {
	return &failureLog{log: log, kinds: map[string]*failureCount{}}
}

// failed records one failure of kind doing; attrs go to the log line when one is written.
func (f *failureLog) failed(doing string, err error, attrs ...any) {
	now := time.Now()
	f.mu.Lock()
	fc := f.kinds[doing]
	if fc != nil && now.Sub(fc.since) < failureWindow {
		fc.repeated++
		f.mu.Unlock()
		return
	}
	repeated := 0
	if fc != nil {
		repeated = fc.repeated
	}
	f.kinds[doing] = &failureCount{since: now}
	f.mu.Unlock()
	args := append([]any{"doing", doing, "err", err}, attrs...)
	if repeated > 0 {
		args = append(args, "repeated_in_previous_window", repeated)
	}
	f.log.Error("collector: store failure", args...)
}
