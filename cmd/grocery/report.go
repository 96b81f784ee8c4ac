package main

import (
	"github.com/spf13/cobra"
)

// reportCmd is the parent of the analytics commands: one subcommand per
// REST /b2b analytics path, each printing a table or, with --json, the
// REST answer's JSON. The subcommands of a family live in its own file
// (report_<family>.go) and are listed here.
func (a *app) reportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report NAME",
		Short: "Market analytics of the integration plan (the REST /b2b paths)",
		Long: `report prints one of the market analytics that the REST interface serves
under /b2b to integration-plan keys, computed from the reference-store panel:
a table, or the REST answer's JSON with --json. While a server holds the
data file, the report comes from that server through its admin socket.`,
		Args: cobra.NoArgs,
	}
	subs := []*cobra.Command{a.briefCmd("brief")}
	// Each family appends its commands here.
	subs = append(subs, a.reportCategoryCmd(), a.reportPromosCmd(), a.reportNewCmd())
	subs = append(subs, a.snapshotReports()...)
	subs = append(subs, a.reportSignalsCmd())
	for _, c := range subs {
		cmd.AddCommand(c)
	}
	return cmd
}
