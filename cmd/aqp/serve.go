package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/postgres"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
)

// adminTokenFile is where a generated admin token is kept in the data directory (mode 0600).
const adminTokenFile = "admin-token"

// serveOptions are `aqp serve`'s flags.
type serveOptions struct {
	addr, store, dataDir, publicURL, continuations, logFormat string
	continuationKey                                           string
	shutdownTimeout, storeTimeout                             time.Duration
	rateLimit, failureLimit                                   float64
	rateBurst                                                 int
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Run a collector: issue queries, accept responses, return receipts",
		Long: `Run an AQP collector until SIGINT or SIGTERM (Ctrl-C): it keeps running in its own terminal, so try the
other commands from another one.

It serves the HTTPS binding (POST /aqp/v1/responses), the admin API (/admin/v1/queries, which "aqp query
create" uses), discovery (/.well-known/aqp), the schemas, /openapi.yaml, /healthz, /readyz and /metrics. On
SIGINT or SIGTERM it finishes in-flight submissions, for at most --shutdown-timeout, then exits 0.

Storage: an embedded SQLite database in --data-dir (nothing to set up), or --store postgres://… to share one
PostgreSQL database between several collector processes.

The admin API wants a bearer token: the environment variable AQP_ADMIN_TOKEN when it is set (give every process
sharing a database the same one); otherwise a token generated at first start, kept in DATA_DIR/admin-token (mode
0600) and printed once, after the collector is listening. Later starts say where the token is kept.

Exit status: 0 stopped by a signal, 1 could not start or failed, 2 usage error.`,
		Example: `  # from the repository root, in a terminal of its own
  go run ./cmd/aqp serve
  aqp serve --addr 0.0.0.0:8080 --public-url https://aqp.example.com
  AQP_ADMIN_TOKEN=s3cret aqp serve --store postgres://aqp@db.internal/aqp --continuations examples/continuations.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	f.StringVar(&o.store, "store", "", "store: a SQLite file path, or postgres://… for PostgreSQL (default: SQLite at DATA_DIR/aqp.db)")
	f.StringVar(&o.dataDir, "data-dir", "./aqp-data", "directory for the SQLite store and the generated admin token")
	f.StringVar(&o.publicURL, "public-url", "", "base URL respondents reach this collector at, written into delivery.endpoint (default: http://ADDR)")
	f.StringVar(&o.continuations, "continuations", "", "continuation rules file, JSON or YAML (default: none, no follow-up queries)")
	f.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long to wait for in-flight requests on SIGINT/SIGTERM")
	f.StringVar(&o.continuationKey, "continuation-key-file", "", "file holding the 32-byte continuation-capability key (base64url), kept outside the store (default: $"+collector.ContinuationKeyEnv+", else a key the store keeps; see D18)")
	f.DurationVar(&o.storeTimeout, "store-timeout", collector.DefaultStoreTimeout, "bound on every store call; past it a submission gets a retryable unavailable receipt (503)")
	f.Float64Var(&o.rateLimit, "rate-limit", collector.DefaultRateLimit.PerSecond, "new submissions per second per query from its capability holder before rate_limited (0 disables)")
	f.IntVar(&o.rateBurst, "rate-burst", 0, "new submissions per query allowed at once (default: twice --rate-limit, at least 1)")
	f.Float64Var(&o.failureLimit, "failure-limit", collector.DefaultFailureLimit.PerSecond, "failed submissions per second per client (wrong capability, unknown query, malformed) before rate_limited, burst ten times that (0 disables)")
	_ = cmd.MarkFlagDirname("data-dir")
	_ = cmd.MarkFlagFilename("continuations", "json", "yaml", "yml")
	_ = cmd.RegisterFlagCompletionFunc("log-format", completeWords("text", "json"))
	return cmd
}

func runServe(o serveOptions, stdout, stderr io.Writer) error {
	var handler slog.Handler
	switch o.logFormat {
	case "text":
		handler = slog.NewTextHandler(stderr, nil)
	case "json":
		handler = slog.NewJSONHandler(stderr, nil)
	default:
		return usageError("--log-format must be text or json, not %q", o.logFormat)
	}
	log := slog.New(handler)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, o, stdout, log); err != nil {
		// One line, whatever the error holds: the log handler escapes it, and so does oneLine for a handler that
		// would not.
		log.Error("aqp serve failed", "err", oneLine(err.Error()))
		return exitStatus(exitInvalid)
	}
	return nil
}

// serve runs the collector until ctx ends. Its start-up order is what a person sees: it binds the address and
// opens the store before anything else, so that a collector that cannot start says why and nothing more — in
// particular it does not show a new admin token for a collector that never ran.
func serve(ctx context.Context, o serveOptions, stdout io.Writer, log *slog.Logger) error {
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s (is another collector running there? pick another --addr): %w", o.addr, err)
	}
	defer ln.Close()
	if err := os.MkdirAll(o.dataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	store, desc, err := openStore(ctx, o)
	if err != nil {
		return err
	}
	defer store.Close()
	var rules *collector.Rules
	if o.continuations != "" {
		if rules, err = collector.LoadRules(o.continuations); err != nil {
			return err
		}
	}
	token, err := resolveAdminToken(o.dataDir)
	if err != nil {
		return err
	}
	publicURL := o.publicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String()
	}
	key, err := collector.LoadContinuationKey(o.continuationKey)
	if err != nil {
		return err
	}
	h, err := newHandler(handlerConfig{
		Store: store, PublicURL: publicURL, Rules: rules, Logger: log, AdminToken: token.value,
		RateLimit:       collector.RateLimit{PerSecond: o.rateLimit, Burst: burst(o.rateBurst, o.rateLimit), Disabled: o.rateLimit <= 0},
		FailureLimit:    collector.RateLimit{PerSecond: o.failureLimit, Burst: int(10 * o.failureLimit), Disabled: o.failureLimit <= 0},
		StoreTimeout:    o.storeTimeout,
		ContinuationKey: key,
	})
	if err != nil {
		return err
	}
	if err := token.announce(stdout); err != nil {
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	// HTTP/1.1 and unencrypted HTTP/2 (prior knowledge) on the one listener: A2A 1.0's gRPC transport is served
	// beside every HTTP binding, at the same host:port the agent card lists (D32). Behind TLS, HTTP/2 comes by ALPN.
	hs.Protocols = new(http.Protocols)
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetHTTP2(true)
	hs.Protocols.SetUnencryptedHTTP2(true)
	// What an HTTP/2 stream may send before its handler reads it is buffered by net/http (1 MiB a stream by
	// default): with a stream waiting at a binding's decoding gate that is memory per connection, so it is kept
	// to 256 KiB a stream, 1 MiB a connection (D34).
	hs.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerStream: 256 << 10, MaxReceiveBufferPerConnection: 1 << 20}
	log.Info("aqp collector listening", "addr", ln.Addr().String(), "public_url", publicURL, "store", desc)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight requests", "timeout", o.shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), o.shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// burst is the per-query burst: the one given, else twice the rate, at least 1.
func burst(given int, rate float64) int {
	if given > 0 {
		return given
	}
	return max(int(2*rate), 1)
}

// handlerConfig is what the collector's HTTP surface is composed from.
type handlerConfig struct {
	Store     collector.Store
	PublicURL string
	Rules     *collector.Rules
	Logger    *slog.Logger
	RateLimit collector.RateLimit
	// FailureLimit bounds failed submissions per client (--failure-limit).
	FailureLimit collector.RateLimit
	AdminToken   string
	// StoreTimeout bounds every store call (--store-timeout).
	StoreTimeout time.Duration
	// ContinuationKey, when set, is the continuation-capability key kept outside the store (D18).
	ContinuationKey []byte
}

// newHandler composes the collector and the HTTP surface it is served on. It is the one place that knows which
// bindings and services the process serves.
func newHandler(cfg handlerConfig) (http.Handler, error) {
	svc, err := service.New(service.Config{
		Collector: collector.Config{Store: cfg.Store, PublicURL: cfg.PublicURL, Rules: cfg.Rules, Logger: cfg.Logger,
			RateLimit: cfg.RateLimit, FailureLimit: cfg.FailureLimit, StoreTimeout: cfg.StoreTimeout, ContinuationKey: cfg.ContinuationKey},
		Bindings:   bindings.Service(),
		AdminToken: cfg.AdminToken,
		Logger:     cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	return svc.Handler(), nil
}

// openStore opens the store --store names.
func openStore(ctx context.Context, o serveOptions) (collector.Store, string, error) {
	switch {
	case strings.HasPrefix(o.store, "postgres://"), strings.HasPrefix(o.store, "postgresql://"):
		s, err := postgres.Open(ctx, o.store)
		return s, "postgresql", err
	default:
		path := o.store
		if path == "" {
			path = filepath.Join(o.dataDir, "aqp.db")
		}
		s, err := sqlite.Open(ctx, path)
		return s, "sqlite:" + path, err
	}
}

// adminToken is the admin API's token and where it comes from.
type adminToken struct {
	value string
	// path is the file that keeps it; empty when it comes from AQP_ADMIN_TOKEN.
	path string
	// generated is true for a token made at this start and not stored yet: announce stores it, then shows it.
	generated bool
}

// resolveAdminToken returns AQP_ADMIN_TOKEN, or the token kept in the data directory, or a new one that announce
// stores and prints once.
func resolveAdminToken(dataDir string) (adminToken, error) {
	if t := os.Getenv("AQP_ADMIN_TOKEN"); t != "" {
		return adminToken{value: t}, nil
	}
	path := filepath.Join(dataDir, adminTokenFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if t := strings.TrimSpace(string(b)); t != "" {
			return adminToken{value: t, path: path}, nil
		}
		return adminToken{}, fmt.Errorf("the admin token file %s is empty: delete it to have a new token generated, or set AQP_ADMIN_TOKEN", path)
	case !errors.Is(err, os.ErrNotExist):
		return adminToken{}, fmt.Errorf("reading the admin token: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return adminToken{}, err
	}
	return adminToken{value: base64.RawURLEncoding.EncodeToString(raw), path: path, generated: true}, nil
}

// announce says which admin token the collector uses. A generated token is stored (mode 0600) and shown, once;
// otherwise only where the token is kept is said, never the token.
func (t adminToken) announce(stdout io.Writer) error {
	switch {
	case t.path == "":
		fmt.Fprintln(stdout, "admin token: from AQP_ADMIN_TOKEN")
	case !t.generated:
		say(stdout, "admin token: kept in %s (mode 0600)\n", t.path)
	default:
		f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("storing the admin token: %w", err)
		}
		if _, err := f.WriteString(t.value + "\n"); err != nil {
			f.Close()
			return fmt.Errorf("storing the admin token: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("storing the admin token: %w", err)
		}
		say(stdout, "Generated an admin token (kept in %s, mode 0600; shown only now):\n\n  export AQP_ADMIN_TOKEN=%s\n\n", t.path, t.value)
	}
	return nil
}
