package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
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

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
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
	shutdownTimeout                                           time.Duration
	rateLimit                                                 float64
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aqp serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o serveOptions
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address")
	fs.StringVar(&o.store, "store", "", "store: a SQLite file path, or postgres://… for PostgreSQL (default: SQLite at DATA_DIR/aqp.db)")
	fs.StringVar(&o.dataDir, "data-dir", "./aqp-data", "directory for the SQLite store and the generated admin token")
	fs.StringVar(&o.publicURL, "public-url", "", "base URL respondents reach this collector at, written into delivery.endpoint (default http://ADDR)")
	fs.StringVar(&o.continuations, "continuations", "", "continuation rules file (JSON or YAML)")
	fs.StringVar(&o.logFormat, "log-format", "text", "log format: text or json")
	fs.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long to wait for in-flight requests on SIGINT/SIGTERM")
	fs.Float64Var(&o.rateLimit, "rate-limit", collector.DefaultRateLimit.PerSecond, "submissions per second per query before rate_limited (0 disables)")
	if _, err := parseInterleaved(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	var handler slog.Handler = slog.NewTextHandler(stderr, nil)
	if o.logFormat == "json" {
		handler = slog.NewJSONHandler(stderr, nil)
	} else if o.logFormat != "text" {
		fmt.Fprintf(stderr, "aqp serve: --log-format must be text or json\n")
		return exitUsage
	}
	log := slog.New(handler)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, o, stdout, log); err != nil {
		log.Error("aqp serve", "err", err)
		return 1
	}
	return exitOK
}

func serve(ctx context.Context, o serveOptions, stdout io.Writer, log *slog.Logger) error {
	if err := os.MkdirAll(o.dataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	token, err := adminToken(o.dataDir, stdout)
	if err != nil {
		return err
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
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	publicURL := o.publicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String()
	}
	rl := collector.RateLimit{PerSecond: o.rateLimit, Burst: int(2 * o.rateLimit), Disabled: o.rateLimit <= 0}
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: store, PublicURL: publicURL, Rules: rules, Logger: log, RateLimit: rl},
		Bindings:   []service.Binding{https.Binding{}},
		AdminToken: token, Logger: log,
	})
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
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

// adminToken returns AQP_ADMIN_TOKEN, or the token generated at first start and kept (mode 0600) in the data
// directory; a newly generated token is printed once.
func adminToken(dataDir string, stdout io.Writer) (string, error) {
	if t := os.Getenv("AQP_ADMIN_TOKEN"); t != "" {
		return t, nil
	}
	path := filepath.Join(dataDir, adminTokenFile)
	if b, err := os.ReadFile(path); err == nil {
		if t := strings.TrimSpace(string(b)); t != "" {
			return t, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	t := base64.RawURLEncoding.EncodeToString(raw)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("storing the admin token: %w", err)
	}
	if _, err := f.WriteString(t + "\n"); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	fmt.Fprintf(stdout, "Generated an admin token (kept in %s, shown only now):\n\n  export AQP_ADMIN_TOKEN=%s\n\n", path, t)
	return t, nil
}
