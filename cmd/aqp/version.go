package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// moduleVersion is the version of the module the binary was built from: a release tag when installed with
// `go install …@vX`, "(devel)" when built from a checkout.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// versionText is what `aqp version` prints: the build, the protocol version it speaks, and the toolchain, so that
// a bug report says all three.
func versionText() string {
	s := fmt.Sprintf("aqp %s\nprotocol %s\n", moduleVersion(), spec.ProtocolVersion)
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				if kv.Value == "true" {
					modified = " (modified)"
				}
			}
		}
		if rev != "" {
			s += fmt.Sprintf("commit %s%s\n", rev, modified)
		}
	}
	return s + fmt.Sprintf("%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the aqp version, the AQP protocol version and the Go version",
		Long: `Print the version of this build of aqp (a release tag, or "(devel)" when built from a checkout), the
version of the Agent Query Protocol it implements, the commit it was built from when known, and the Go toolchain
and platform. "aqp --version" prints the same.`,
		Example: `  aqp version
  go run ./cmd/aqp version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(cmd.OutOrStdout(), versionText())
			return nil
		},
	}
}
