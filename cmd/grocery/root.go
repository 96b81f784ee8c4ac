package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
)

// Exit statuses, documented in cmd/grocery/README.md ("Commands").
const (
	exitOK          = 0
	exitFailed      = 1 // not found, or any other failure
	exitUsage       = 2 // the command line is wrong
	exitInvalid     = 3 // an argument or an input file is invalid
	exitUnavailable = 4 // the data file is in use, or a server it needs does not answer (its own, Redis)
	exitWarning     = 5 // done, with a warning: imported, but its snapshot was not published
)

// warningError ends a command that did its work with a warning (exit 5):
// its message says what was done and what was not.
type warningError struct{ msg string }

func (e *warningError) Error() string { return e.msg }

// defaultDB is the data file used without --db or GROCERY_DB.
const defaultDB = "./grocery.db"

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr, os.Getenv)
	return execute(ctx, root, args, os.Getenv)
}

// execute runs the command tree built by newRootCmd and returns its exit
// status (see exitOK and the others). Every error is written to the root's
// Err as one line starting "grocery: ", or, when the command was given
// --json, as one JSON object {"code", "message"} (with GROCERY_DEBUG set,
// internal errors show their text).
func execute(ctx context.Context, root *cobra.Command, args []string, getenv func(string) string) int {
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	status, code := classify(err)
	msg := errorLine(err, getenv("GROCERY_DEBUG") != "")
	if status == exitUsage && cmd != nil {
		msg += fmt.Sprintf(" (see '%s --help')", cmd.CommandPath())
	}
	if wantsJSON(cmd, args) {
		// One line, for scripts and log scrapers.
		enc := json.NewEncoder(root.ErrOrStderr())
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}{code, msg})
	} else {
		fmt.Fprintln(root.ErrOrStderr(), "grocery: "+msg)
	}
	return status
}

// classify returns the exit status of err and its machine-readable code:
// a grocery error code, "usage" or "interrupted".
func classify(err error) (status int, code string) {
	var (
		ue *usageError
		re *runError
	)
	switch {
	case errors.As(err, &ue):
		return exitUsage, "usage"
	case !errors.As(err, &re):
		// Cobra's own errors: unknown commands and flags, bad arguments,
		// required flags not set.
		return exitUsage, "usage"
	case errors.Is(err, context.Canceled):
		return exitFailed, "interrupted"
	}
	var we *warningError
	if errors.As(err, &we) {
		return exitWarning, "warning"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) {
		return exitFailed, grocery.ENOTFOUND
	}
	code = grocery.ErrorCode(err)
	switch code {
	case grocery.EINVALIDARGUMENT:
		return exitInvalid, code
	case grocery.ECONFLICT, grocery.EUNAVAILABLE:
		return exitUnavailable, code
	}
	return exitFailed, code
}

// wantsJSON reports whether cmd was asked for JSON output: its --json
// flag is set, or, when the command line failed to parse before reaching
// it, args carry it.
func wantsJSON(cmd *cobra.Command, args []string) bool {
	if cmd == nil {
		return false
	}
	f := cmd.Flags().Lookup("json")
	if f == nil {
		return false
	}
	if f.Changed {
		return f.Value.String() == "true"
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "--json=true":
			return true
		}
	}
	return false
}

// app holds what the commands share.
type app struct {
	stdin  io.Reader
	getenv func(string) string
	db     string // --db as given

	keyPrefix string // --key-prefix of the keys commands
	redisURL  string // --redis of serve, keys and usage

	webhooks grocery.WebhookOptions // --webhook-allow-* of serve and webhooks
}

// newRootCmd builds the command tree. Output goes to stdout and stderr (the
// root's Out and Err, which tests may replace with SetOut and SetErr);
// getenv supplies GROCERY_DB, GROCERY_PROVINCE, GROCERY_KEY_PREFIX and
// GROCERY_PLAN_QUOTAS.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cobra.Command {
	a := &app{stdin: stdin, getenv: getenv}
	root := &cobra.Command{
		Use:   "grocery",
		Short: "Canadian grocery prices from a local data file",
		Long: `grocery answers questions about Canadian grocery products and prices from a
local data file of reference stores and observed shelf prices.

Build a demo data set with 'grocery demo', or load your own stores and
observations with 'grocery import'. Then look a barcode up with 'grocery
lookup', search by name with 'grocery search', follow a retailer SKU's price
with 'grocery history' and see the reference stores with 'grocery stores'.

Prices are store-scoped: every lookup is for one province. An empty result
does not prove a product is unavailable.

The MCP and REST servers take API keys: create them with 'grocery keys
create', see the plans with 'grocery plans' and an account's quota with
'grocery usage'.`,
		Version:       grocery.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate(versionLine())
	root.Flags().BoolP("version", "v", false, "print the version, as 'grocery version' does")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		// "invalid argument "x" for "--limit" flag: strconv.ParseInt: ...": say what is wanted instead.
		if msg, rest, ok := strings.Cut(err.Error(), ": strconv.Parse"); ok {
			if strings.HasPrefix(rest, "Float") {
				return usagef("%s: want a number, e.g. 3.99", msg)
			}
			return usagef("%s: want a whole number", msg)
		}
		return &usageError{err}
	})
	root.PersistentFlags().StringVar(&a.db, "db", defaultDB, "`PATH` of the data file (env GROCERY_DB)")

	root.AddGroup(
		&cobra.Group{ID: "query", Title: "Lookups:"},
		&cobra.Group{ID: "data", Title: "Data:"},
		&cobra.Group{ID: "keys", Title: "Keys and quota:"},
		&cobra.Group{ID: "serve", Title: "Servers:"},
	)
	for _, c := range []*cobra.Command{a.lookupCmd(), a.searchCmd(), a.historyCmd(), a.storesCmd()} {
		c.GroupID = "query"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{a.demoCmd(), a.importCmd(), a.exportCmd(), a.alertsCmd(), a.webhooksCmd(), a.reportCmd(), a.briefCmd("brief"), a.verifyCmd()} {
		c.GroupID = "data"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{a.keysCmd(), a.usageCmd(), a.plansCmd()} {
		c.GroupID = "keys"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{a.serveCmd(), a.bridgeCmd()} {
		c.GroupID = "serve"
		root.AddCommand(c)
	}
	root.AddCommand(a.versionCmd())
	return root
}

// dbPath returns the data file: --db, else GROCERY_DB, else ./grocery.db.
func (a *app) dbPath(cmd *cobra.Command) string {
	if f := cmd.Flags().Lookup("db"); f != nil && f.Changed {
		return a.db
	}
	if env := a.getenv("GROCERY_DB"); env != "" {
		return env
	}
	return defaultDB
}

// openRead opens the data file for reading, so that queries work while
// other readers hold it. A missing file is an error that suggests
// 'grocery demo'; it is never created.
func (a *app) openRead(cmd *cobra.Command) (*grocery.Service, error) {
	path := a.dbPath(cmd)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, noDataFile(path)
	}
	svc, err := grocery.Open(path, &grocery.Options{ReadOnly: true})
	if grocery.ErrorCode(err) == grocery.ENOTFOUND {
		return nil, noDataFile(path)
	}
	return svc, err
}

func noDataFile(path string) error {
	return grocery.Errorf(grocery.ENOTFOUND, "no data file at %s: run 'grocery demo' to build one, or pass --db PATH (or set GROCERY_DB)", path)
}

// usageError is a wrong command line: exit status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// runError is an error of a command that ran: exit status 1.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// runE marks the errors of f as errors of a command that ran, unless they
// are usage errors.
func runE(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := f(cmd, args)
		var ue *usageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return &runError{err}
	}
}

// usageArgs makes an argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &usageError{err}
		}
		return nil
	}
}

// atLeastOne is cobra.MinimumNArgs(1) saying what is missing: "search
// needs the words to look for, e.g. grocery search milk --province ON".
func atLeastOne(what, example string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return &usageError{fmt.Errorf("%s needs %s, e.g. %s", cmd.Name(), what, example)}
		}
		return nil
	}
}

// noted is an error with a note for the user after its message.
type noted struct {
	err  error
	note string
}

func (e *noted) Error() string {
	if e.note == "" {
		return e.err.Error()
	}
	return e.err.Error() + "; " + e.note
}
func (e *noted) Unwrap() error { return e.err }

// errorLine is the one line shown for err: the message of a *grocery.Error,
// the text of an operating-system error, and nothing of internal errors
// unless debug is set.
func errorLine(err error, debug bool) string {
	var note string
	var n *noted
	if errors.As(err, &n) {
		if n.note != "" {
			note = "; " + n.note
		}
		err = n.err
	}
	var (
		we *warningError
		ge *grocery.Error
		ue *usageError
		pe *fs.PathError
		le *os.LinkError
		se *os.SyscallError
	)
	var msg string
	switch {
	case errors.As(err, &we):
		msg = we.msg
	case errors.As(err, &ge):
		msg = grocery.ErrorMessageIn(ge, cliVerbs)
	case errors.Is(err, context.Canceled):
		msg = "interrupted"
	case errors.As(err, &pe):
		msg = pathLine(pe.Path, pe.Err)
	case errors.As(err, &le):
		msg = pathLine(le.New, le.Err)
	case errors.As(err, &se):
		msg = fmt.Sprintf("the system refused %s: %v", se.Syscall, se.Err)
	case errors.As(err, &ue):
		msg = cobraLine(ue.err.Error())
	default:
		var re *runError
		if !errors.As(err, &re) {
			msg = cobraLine(err.Error()) // a usage error from cobra
			break
		}
		msg = "internal error"
		if debug {
			msg += ": " + err.Error()
		}
	}
	return msg + note
}

// cobraLine folds cobra's multi-line messages ("unknown command ... Did you
// mean this?\n\tlookup") into one line.
func cobraLine(s string) string {
	first, rest, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if _, sugg, ok := strings.Cut(rest, "Did you mean this?"); ok {
		if words := strings.Fields(sugg); len(words) > 0 {
			return first + "; did you mean " + strings.Join(words, " or ") + "?"
		}
	}
	return first
}

// cliVerbs names the queries in errors' follow-ups as this interface
// offers them: by command.
var cliVerbs = grocery.Verbs{Lookup: "'grocery lookup'", Search: "'grocery search'"}

// pathLine says in one sentence what went wrong with a file: "no file
// nofile.csv", not "stat nofile.csv: no such file or directory".
func pathLine(path string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no file " + path
	case errors.Is(err, fs.ErrPermission):
		return "permission denied: cannot read or write " + path
	default:
		return fmt.Sprintf("cannot use %s: %v", path, err)
	}
}
