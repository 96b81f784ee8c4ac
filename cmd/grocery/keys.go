package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grocerydata/grocery/cmd/internal/admin"
	"github.com/grocerydata/grocery/cmd/internal/server"
	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

// keyStore is what the keys, usage, plans and alerts commands call: the
// data file itself (a *grocery.Service, through localStore) or, while a
// server holds the file, that server through its admin socket (an
// *admin.Client).
type keyStore interface {
	CreateKey(ctx context.Context, in grocery.KeyInput) (*grocery.NewKey, error)
	ListKeys(ctx context.Context) ([]grocery.KeyInfo, error)
	RevokeKey(ctx context.Context, keyOrID string) (*grocery.KeyInfo, error)
	AccountUsage(ctx context.Context, account string) (*grocery.AccountUsage, error)
	Plans(ctx context.Context) ([]grocery.Plan, error)
	alertStore
	webhookStore
}

// localStore is a keyStore over a data file this process opened.
type localStore struct{ *grocery.Service }

func (l localStore) Plans(context.Context) ([]grocery.Plan, error) { return l.Service.Plans(), nil }

var (
	_ keyStore = localStore{}
	_ keyStore = (*admin.Client)(nil)
)

// redisHelp describes --redis of serve, keys and usage.
const redisHelp = "keep keys, quota counts, alert rules and events and webhooks in the Redis at `URL`, shared by several servers, e.g. redis://127.0.0.1:6379/0 (env GROCERY_REDIS_URL)"

// redisAlertsHelp is --redis of the alerts commands and import.
const redisAlertsHelp = "the alert rules and events are in the Redis at `URL`, shared by several servers, e.g. redis://127.0.0.1:6379/0 (env GROCERY_REDIS_URL)"

// lockTimeout is how long the key commands wait for a data file another
// process holds before they give up.
const lockTimeout = 2 * time.Second

// keyOptions returns the options to open the data file with for the key
// commands: the key prefix (--key-prefix, else GROCERY_KEY_PREFIX) and
// the plans (the defaults, with the sizes of GROCERY_PLAN_QUOTAS).
func (a *app) keyOptions(cmd *cobra.Command) (*server.Options, error) {
	opts, err := server.OptionsFromEnv(a.getenv)
	if err != nil {
		return nil, &usageError{err}
	}
	if cmd.Flags().Changed("key-prefix") {
		opts.KeyPrefix = a.keyPrefix
	}
	if a.redisURL != "" {
		opts.RedisURL = a.redisURL
	}
	opts.LockTimeout = lockTimeout
	return &opts, nil
}

// withStore runs f on the data file's keys: through the running server's
// admin socket when one answers beside the file, so that the server's
// memory and the file change together; else on the file opened for
// writing (created when create is set; removed again if f fails).
//
// f makes one call of the store before it prints anything: a call that
// finds no server sent nothing, and f runs again on the file.
func (a *app) withStore(cmd *cobra.Command, opts *server.Options, need storeNeed, f func(context.Context, keyStore) error) error {
	ctx := cmd.Context()
	path := a.dbPath(cmd)
	sock := admin.SocketPath(path)
	err := f(ctx, admin.Dial(sock))
	if !errors.Is(err, admin.ErrNoAdmin) {
		return err
	}
	_, err = os.Stat(path)
	isNew := errors.Is(err, fs.ErrNotExist)
	if isNew && need != fileNeeded && opts.RedisURL != "" {
		// Everything f needs is in Redis: a scratch file stands in for the
		// data file this host does not have (a replica's), rather than
		// leave a new one behind.
		dir, err := os.MkdirTemp("", "grocery-cli-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path, isNew = filepath.Join(dir, "scratch.db"), false
	} else if isNew && need != fileCreated {
		return noKeyFile(path)
	}
	svc, err := server.Open(path, *opts)
	switch grocery.ErrorCode(err) {
	case "":
	case grocery.ECONFLICT:
		return grocery.Errorf(grocery.ECONFLICT, "data file %s is in use by another process and nothing answers on %s: is a server running with this --db?", path, sock)
	case grocery.ENOTFOUND:
		return noKeyFile(path)
	default:
		return err
	}
	ferr := f(ctx, localStore{svc})
	cerr := svc.Close()
	if ferr != nil {
		if isNew {
			os.Remove(path)
		}
		return ferr
	}
	return cerr
}

// storeNeed says what withStore's f needs of the data file.
type storeNeed int

const (
	fileNeeded  storeNeed = iota // the data file, which must exist
	fileCreated                  // the data file, created when missing (keys create)
	redisOrFile                  // nothing of it with --redis (keys, usage, alert lists); else the data file
)

func noKeyFile(path string) error {
	return grocery.Errorf(grocery.ENOTFOUND, "no data file at %s, so no keys or accounts yet: create a key with 'grocery keys create', or pass --db PATH (or set GROCERY_DB)", path)
}

func (a *app) keysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Create, list and revoke API keys",
		Long: `keys manages the API keys of the MCP and REST interfaces. A key belongs to an
account; an account has a plan, and all its keys share the plan's monthly
quota.

A key looks like gro_pk_ followed by 40 letters and digits; the first 8 are
its public id (gro_pk_Ab12Cd34 in 'keys list'). It is shown once, when it is
created: the data file keeps only a keyed hash of it.

While a server holds the data file, these commands reach it through its
admin socket (the data file's path + ".sock"), and a revocation takes effect
on its next request.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error { return cmd.Help() }),
	}
	cmd.PersistentFlags().StringVar(&a.keyPrefix, "key-prefix", grocery.DefaultKeyPrefix, "`PREFIX` of new keys (env GROCERY_KEY_PREFIX); a running server uses its own")
	cmd.PersistentFlags().StringVar(&a.redisURL, "redis", "", redisHelp)
	cmd.AddCommand(a.keysCreateCmd(), a.keysListCmd(), a.keysRevokeCmd())
	return cmd
}

func (a *app) keysCreateCmd() *cobra.Command {
	var in grocery.KeyInput
	cmd := &cobra.Command{
		Use:   "create --account NAME [--plan PLAN] [--quota N]",
		Short: "Create an API key; print it once",
		Long: `create makes a new API key for an account, creating the account (and the data
file) if needed. A new account needs --plan; for an existing account --plan
changes its plan, and --quota sets its calls a month instead of its plan's.

The key alone is printed on stdout, so that it can go straight into a secret
store; its id, account, plan and monthly limit go to stderr. This is the only
time the key is shown: keep it in private configuration, never in prompts,
screenshots or repositories.`,
		Example:           "  grocery keys create --account acme --plan integration\n  grocery keys create --account acme > acme-2.key\n  grocery keys create --account trial --plan starter --quota 100",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts, err := a.keyOptions(cmd)
			if err != nil {
				return err
			}
			if in.Quota < 0 {
				return usagef("--quota %d: want a positive number of calls a month", in.Quota)
			}
			return a.withStore(cmd, opts, fileCreated, func(ctx context.Context, st keyStore) error {
				k, err := st.CreateKey(ctx, in)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), k.Key)
				printNewKey(cmd.ErrOrStderr(), k, opts.KeyPrefix)
				return nil
			})
		}),
	}
	cmd.Flags().StringVar(&in.Account, "account", "", "`NAME` of the account: letters, digits, '.', '_', '-', '@'")
	cmd.MarkFlagRequired("account")
	cmd.RegisterFlagCompletionFunc("account", noFiles)
	cmd.Flags().StringVar(&in.Plan, "plan", "", "`PLAN` of a new account, or a new plan for an existing one: starter, professional or integration")
	cmd.RegisterFlagCompletionFunc("plan", completePlan)
	cmd.Flags().Int64Var(&in.Quota, "quota", 0, "`N` calls a month for this account, instead of its plan's")
	return cmd
}

func printNewKey(w io.Writer, k *grocery.NewKey, prefix string) {
	fmt.Fprintf(w, "Created key %s for account %s: plan %s, %s calls a month.\n", publicID(k), k.Account, k.Plan, count(int(k.Limit)))
	fmt.Fprintln(w, "The key, on stdout, is shown this once: keep it in private configuration (a secret store or an environment variable), never in prompts, screenshots or repositories.")
	if prefix != "" && !strings.HasPrefix(k.Key, prefix+"_pk_") {
		fmt.Fprintln(w, "Note: the running server made this key with its own key prefix, not "+prefix+".")
	}
}

// publicID returns the visible start of a new key: gro_pk_Ab12Cd34.
func publicID(k *grocery.NewKey) string {
	if before, _, ok := strings.Cut(k.Key, "_pk_"); ok {
		return before + "_pk_" + k.ID
	}
	return k.ID
}

func (a *app) keysListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List API keys, without their secrets",
		Long: `list shows every API key: its public id (gro_pk_Ab12Cd34, as keys revoke
takes it; id in --json), account, plan, when it was created and last used,
and when it was revoked. It never shows a key's secret.`,
		Example:           "  grocery keys list\n  grocery keys list --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts, err := a.keyOptions(cmd)
			if err != nil {
				return err
			}
			return a.withStore(cmd, opts, redisOrFile, func(ctx context.Context, st keyStore) error {
				keys, err := st.ListKeys(ctx)
				if err != nil {
					return err
				}
				if asJSON {
					// Each id as the table shows it and keys revoke
					// takes it (gro_pk_Ab12Cd34), not the bare id.
					for i := range keys {
						keys[i].ID = keys[i].Prefix
					}
					return writeJSON(cmd.OutOrStdout(), keys)
				}
				return printKeys(cmd.OutOrStdout(), keys)
			})
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the keys as JSON")
	return cmd
}

func printKeys(w io.Writer, keys []grocery.KeyInfo) error {
	if len(keys) == 0 {
		fmt.Fprintln(w, "No API keys yet: create one with 'grocery keys create --account NAME --plan PLAN'.")
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tACCOUNT\tPLAN\tCREATED\tLAST USED\tREVOKED")
	for _, k := range keys {
		used := "never"
		if k.LastUsed != nil {
			used = timestamp(*k.LastUsed)
		}
		revoked := ""
		if k.Revoked != nil {
			revoked = timestamp(*k.Revoked)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.Prefix, k.Account, k.Plan, timestamp(k.Created), used, revoked)
	}
	return tw.Flush()
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (a *app) keysRevokeCmd() *cobra.Command {
	var keyFile string
	cmd := &cobra.Command{
		Use:   "revoke ID | --key-file FILE",
		Short: "Revoke an API key",
		Long: `revoke revokes an API key, given by its id from 'grocery keys list'
(gro_pk_Ab12Cd34, or just Ab12Cd34) or by its whole text read from a file
(--key-file FILE, or --key-file - for stdin). A whole key is refused on the
command line, where other users see it (ps). Requests with the key fail
from then on; on a running server, from its next request. Revoking a
revoked key changes nothing.`,
		Example:           "  grocery keys revoke --key-file acme-2.key\n  grocery keys list   # then: grocery keys revoke gro_pk_Ab12Cd34",
		Args:              usageArgs(cobra.MaximumNArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts, err := a.keyOptions(cmd)
			if err != nil {
				return err
			}
			ref, err := a.revokeRef(args, keyFile)
			if err != nil {
				return err
			}
			return a.withStore(cmd, opts, redisOrFile, func(ctx context.Context, st keyStore) error {
				k, err := st.RevokeKey(ctx, ref)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Key %s of account %s is revoked (since %s): requests with it fail.\n", k.Prefix, k.Account, timestamp(*k.Revoked))
				return nil
			})
		}),
	}
	cmd.Flags().StringVar(&keyFile, "key-file", "", "read the whole key from `FILE` (- for stdin) instead of giving its id")
	return cmd
}

// revokeRef returns what 'keys revoke' revokes: the id its argument
// gives, or the whole key read from keyFile. A whole key on the command
// line is refused (other users see it with ps), without repeating it.
func (a *app) revokeRef(args []string, keyFile string) (string, error) {
	switch {
	case len(args) == 1 && keyFile != "":
		return "", &usageError{errors.New("keys revoke: give a key id or --key-file, not both")}
	case len(args) == 1:
		arg := strings.TrimSpace(args[0])
		prefix, id, isKey := strings.Cut(arg, "_pk_")
		if !isKey {
			return arg, nil
		}
		if len(id) > 8 {
			return "", &usageError{fmt.Errorf("keys revoke: a whole key on the command line is visible to other users (ps): give its id (%s_pk_%s) or pass the key with --key-file FILE, or --key-file - to read it from stdin", prefix, id[:8])}
		}
		return keyRef(arg), nil
	case keyFile == "":
		return "", &usageError{errors.New("keys revoke: give the key's id (from 'grocery keys list') or --key-file FILE with the whole key")}
	}
	var r io.Reader = a.stdin
	if keyFile != "-" {
		f, err := os.Open(keyFile)
		if err != nil {
			return "", &usageError{fmt.Errorf("keys revoke: --key-file: %v", err)}
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, 4096))
	if err != nil {
		return "", &usageError{fmt.Errorf("keys revoke: --key-file: %v", err)}
	}
	key := strings.TrimSpace(string(b))
	if key == "" {
		return "", &usageError{fmt.Errorf("keys revoke: --key-file %s is empty: want the whole key", keyFile)}
	}
	return key, nil
}

// keyRef returns what to revoke for an argument: the public id when it is
// a key's id as 'keys list' shows it (gro_pk_Ab12Cd34), else the argument.
func keyRef(arg string) string {
	arg = strings.TrimSpace(arg)
	if _, id, ok := strings.Cut(arg, "_pk_"); ok && len(id) == 8 {
		return id
	}
	return arg
}

func (a *app) usageCmd() *cobra.Command {
	var (
		account string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "usage --account NAME",
		Short: "An account's calls this month, its limit and the reset",
		Long: `usage shows an account's quota in the current window, the calendar month in
UTC: calls used (rejected calls included), the monthly limit, the calls
remaining, and when the quota resets; then its calls on each day (UTC)
of the last 30 that had any (--json lists all 30). Through a running
server's admin socket it shows the server's live count. GET /usage
answers the same to the account's own key.`,
		Example:           "  grocery usage --account acme\n  grocery usage --account acme --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts, err := a.keyOptions(cmd)
			if err != nil {
				return err
			}
			return a.withStore(cmd, opts, redisOrFile, func(ctx context.Context, st keyStore) error {
				u, err := st.AccountUsage(ctx, account)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), u)
				}
				return printUsage(cmd.OutOrStdout(), u, time.Now())
			})
		}),
	}
	cmd.Flags().StringVar(&account, "account", "", "`NAME` of the account")
	cmd.MarkFlagRequired("account")
	cmd.RegisterFlagCompletionFunc("account", noFiles)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the usage as JSON")
	cmd.Flags().StringVar(&a.redisURL, "redis", "", redisHelp)
	return cmd
}

func printUsage(w io.Writer, u *grocery.AccountUsage, now time.Time) error {
	tw := newTable(w)
	fmt.Fprintf(tw, "account\t%s\n", u.Account)
	fmt.Fprintf(tw, "plan\t%s\n", u.Plan)
	fmt.Fprintf(tw, "used\t%s\n", count(int(u.Used)))
	fmt.Fprintf(tw, "limit\t%s\n", count(int(u.Limit)))
	fmt.Fprintf(tw, "remaining\t%s\n", count(int(u.Remaining)))
	fmt.Fprintf(tw, "reset\t%s (%s)\n", timestamp(u.Reset), until(now, u.Reset))
	if err := tw.Flush(); err != nil {
		return err
	}
	if u.Remaining == 0 {
		fmt.Fprintln(w, "\nThe quota is spent: calls fail until the reset, and retrying does not restore it.")
	}
	// The days with calls; the others of the last 30 are left out.
	fmt.Fprintf(w, "\nCalls by day (UTC), the last %d days:\n", len(u.Days))
	tw = newTable(w)
	shown := false
	for _, d := range u.Days {
		if d.Calls > 0 {
			fmt.Fprintf(tw, "%s\t%s\n", d.Date, count(int(d.Calls)))
			shown = true
		}
	}
	if !shown {
		fmt.Fprintln(tw, "none")
	}
	return tw.Flush()
}

// until says how far t is from now: "in 12 days", "in 5 hours".
func until(now, t time.Time) string {
	d := t.Sub(now)
	switch {
	case d <= 0:
		return "now"
	case d < time.Hour:
		return "in less than an hour"
	case d < 48*time.Hour:
		h := int(d / time.Hour)
		return fmt.Sprintf("in %d %s", h, words.Plural(h, "hour"))
	}
	days := int(d / (24 * time.Hour))
	return fmt.Sprintf("in %d days", days)
}

func (a *app) plansCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "plans",
		Short: "The plans keys are created on",
		Long: `plans lists the plans: calls a month, the interfaces they open and the price.
An account's quota is shared by MCP and REST and resets at the start of each
calendar month (UTC). Sizes come from GROCERY_PLAN_QUOTAS
(e.g. starter=2000,integration=5000000), or from the running server's
configuration when one answers on the data file's admin socket.`,
		Example:           "  grocery plans\n  GROCERY_PLAN_QUOTAS=starter=2000 grocery plans --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			opts, err := a.keyOptions(cmd)
			if err != nil {
				return err
			}
			// The running server's plans, if one answers; else the
			// configured plans, with no need of a data file.
			plans, err := admin.Dial(admin.SocketPath(a.dbPath(cmd))).Plans(cmd.Context())
			if errors.Is(err, admin.ErrNoAdmin) {
				plans, err = opts.Plans, nil
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), plans)
			}
			return printPlans(cmd.OutOrStdout(), plans)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the plans as JSON")
	return cmd
}

func printPlans(w io.Writer, plans []grocery.Plan) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "PLAN\tCALLS A MONTH\tINTERFACES\tPRICE")
	for _, p := range plans {
		ifaces := "MCP"
		if p.REST {
			ifaces = "MCP + REST"
		}
		price := "-"
		if p.PriceCAD != nil {
			price = count(*p.PriceCAD) + " CAD/month"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, count(int(p.Quota)), ifaces, price)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nOne quota per account, shared by MCP and REST; every call counts, rejected ones too.")
	fmt.Fprintln(w, "It resets at the start of each calendar month (UTC).")
	return nil
}

func completePlan(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, p := range grocery.DefaultPlans() {
		desc := count(int(p.Quota)) + " calls a month, MCP"
		if p.REST {
			desc += " and REST"
		}
		out = append(out, cobra.CompletionWithDesc(p.Name, desc))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
