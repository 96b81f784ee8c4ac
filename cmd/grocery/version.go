package main

import (
	"fmt"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// versionLine is what 'grocery version' and 'grocery --version' print:
// "grocery version 0.15.0+61bbb1a2c3d4" (grocery.Version).
func versionLine() string { return "grocery version " + grocery.Version() + "\n" }

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "The release version and the revision it was built from",
		Long: `version prints the release version of this build, with the VCS revision
it was built from when the build recorded one: "grocery version
0.15.0+61bbb1a2c3d4" (".dirty" added for a checkout with uncommitted
changes). The servers report the same in /healthz, MCP's serverInfo and
/openapi.json.`,
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), versionLine())
			return err
		}),
	}
}
