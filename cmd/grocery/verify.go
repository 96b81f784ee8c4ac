package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// verifyCmd is hidden: a check for the crash tests and for an operator
// after a crash, not a daily command.
func (a *app) verifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check the data file's invariants (indexes, offers, analytics aggregates)",
		Long: `verify opens the data file for writing (so not while a server holds it)
and checks that every index entry names a record, every offer is backed by
observations, and the analytics aggregates equal a recomputation from the
observations. It changes nothing. Exit status 0: consistent; 1: the first
disagreement is printed.`,
		Hidden:            true,
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			path := a.dbPath(cmd)
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return noDataFile(path)
			}
			svc, err := grocery.Open(path, &grocery.Options{LockTimeout: 2 * time.Second})
			if err != nil {
				return err
			}
			defer svc.Close()
			if err := svc.Verify(cmd.Context()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: consistent\n", path)
			return nil
		}),
	}
}
