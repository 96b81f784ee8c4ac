package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// webhookStore is what the webhooks commands call, for the account the
// context acts for (grocery.NewContextWithAccount).
type webhookStore interface {
	CreateWebhook(ctx context.Context, in grocery.WebhookInput) (*grocery.Webhook, error)
	ListWebhooks(ctx context.Context) (*grocery.WebhookList, error)
	DeleteWebhook(ctx context.Context, id string) error
	TestWebhook(ctx context.Context, id string) (*grocery.WebhookDelivery, error)
	WebhookDeliveries(ctx context.Context, id string, in grocery.WebhookDeliveriesInput) (*grocery.WebhookDeliveryList, error)
}

// webhookPolicyFlags registers the flags that widen which addresses
// webhook endpoints may have, for local testing (serve, webhooks).
func webhookPolicyFlags(fs *pflag.FlagSet, w *grocery.WebhookOptions) {
	fs.BoolVar(&w.AllowLoopback, "webhook-allow-loopback", false, "take webhook endpoints on loopback addresses, http:// too (for a receiver on this machine, in testing)")
	fs.BoolVar(&w.AllowPrivate, "webhook-allow-private", false, "take webhook endpoints on private, link-local and cloud metadata addresses (for testing on a private network)")
}

func (a *app) webhooksCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhooks",
		Short: "Webhook endpoints that an account's alert events are pushed to",
		Long: `webhooks manages an account's webhook endpoints (the REST interface's
/b2b/webhooks): every alert event the account's rules record is POSTed, as
JSON, to each of its enabled endpoints, signed with the endpoint's secret in
the Grocery-Signature header (t=<unix seconds>,v1=<hex HMAC-SHA256 of
"<t>.<body>">). A receiver answers 2xx within 10 s; anything else is retried
with backoff for 24 hours, in event order per endpoint; an endpoint failing
every delivery for 3 days is disabled. Delivery is at least once: the event
id (Grocery-Event-Id) tells repeats apart.

Deliveries wait in the data file (in Redis with --redis) and are sent by
the server that evaluates the rules ('grocery serve' alone, or the ingest
node; never a replica). A URL must be https:// to a public address:
loopback, private, link-local and metadata addresses are refused, unless
the server (or, on a file no server holds, this command) allows them with
--webhook-allow-loopback or --webhook-allow-private, for testing.

While a server holds the data file, these commands reach it through its
admin socket.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error { return cmd.Help() }),
	}
	webhookPolicyFlags(cmd.PersistentFlags(), &a.webhooks)
	cmd.PersistentFlags().StringVar(&a.redisURL, "redis", "", "the webhook endpoints, with the alert rules and events, are in the Redis at `URL`, shared by several servers, e.g. redis://127.0.0.1:6379/0 (env GROCERY_REDIS_URL)")
	cmd.AddCommand(a.webhooksCreateCmd(), a.webhooksListCmd(), a.webhooksDeleteCmd(), a.webhooksTestCmd(), a.webhooksDeliveriesCmd())
	return cmd
}

// withWebhooks runs f on the webhook endpoints of account, through the
// running server's admin socket or on the data file; with --redis, where
// the endpoints live, on a host without the data file too (a replica's).
func (a *app) withWebhooks(cmd *cobra.Command, account string, f func(context.Context, webhookStore, bool) error) error {
	opts, err := a.keyOptions(cmd)
	if err != nil {
		return err
	}
	opts.Webhooks.AllowLoopback, opts.Webhooks.AllowPrivate = a.webhooks.AllowLoopback, a.webhooks.AllowPrivate
	return a.withStore(cmd, opts, redisOrFile, func(ctx context.Context, st keyStore) error {
		_, local := st.(localStore)
		return f(grocery.NewContextWithAccount(ctx, account), st, local)
	})
}

// webhookAccountFlag registers the required --account of the webhooks
// commands.
func webhookAccountFlag(cmd *cobra.Command, name *string) {
	cmd.Flags().StringVar(name, "account", "", "`NAME` of the account the endpoints belong to")
	cmd.MarkFlagRequired("account")
	cmd.RegisterFlagCompletionFunc("account", noFiles)
}

const listWebhookIDs = `"$(grocery webhooks list --account acme --ids | head -n 1)"`

func (a *app) webhooksCreateCmd() *cobra.Command {
	var (
		in      grocery.WebhookInput
		account string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "create --account NAME --url URL [--description TEXT]",
		Short: "Register a webhook endpoint",
		Long: `create registers an endpoint for an account (create the account first with
'grocery keys create') and prints its signing secret: it is shown this once,
keep it where the receiver can read it. Every alert event the account's rules
record from now on is POSTed to --url.`,
		Example: "  grocery webhooks create --account acme --url https://hooks.example.com/grocery --description 'pricing team'\n" +
			"  grocery webhooks create --account acme --url https://hooks.example.com/slack-relay --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withWebhooks(cmd, account, func(ctx context.Context, st webhookStore, _ bool) error {
				w, err := st.CreateWebhook(ctx, in)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), w)
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "Created webhook endpoint %s for account %s: %s (events: %s).\n", w.ID, account, w.URL, strings.Join(w.Events, ", "))
				fmt.Fprintf(out, "Signing secret (shown only now; the receiver verifies Grocery-Signature with it):\n%s\n", w.Secret)
				return nil
			})
		}),
	}
	webhookAccountFlag(cmd, &account)
	cmd.Flags().StringVar(&in.URL, "url", "", "the `URL` deliveries are POSTed to: https:// on a public address")
	cmd.MarkFlagRequired("url")
	cmd.Flags().StringVar(&in.Description, "description", "", "`TEXT` for people: who receives it")
	cmd.Flags().StringSliceVar(&in.Events, "events", nil, "event `TYPES` sent to it (default alert.triggered)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the endpoint and its secret as JSON")
	return cmd
}

func (a *app) webhooksListCmd() *cobra.Command {
	var (
		account string
		asJSON  bool
		idsOnly bool
	)
	cmd := &cobra.Command{
		Use:   "list --account NAME",
		Short: "List an account's webhook endpoints",
		Long: `list shows an account's webhook endpoints, oldest first, and whether each is
enabled (a disabled one says why). --ids prints only their ids, one a line,
for the commands that take one.`,
		Example:           "  grocery webhooks list --account acme\n  grocery webhooks list --account acme --ids",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withWebhooks(cmd, account, func(ctx context.Context, st webhookStore, _ bool) error {
				l, err := st.ListWebhooks(ctx)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				switch {
				case asJSON:
					return writeJSON(out, l)
				case idsOnly:
					for _, w := range l.Results {
						fmt.Fprintln(out, w.ID)
					}
					return nil
				case l.Total == 0:
					fmt.Fprintf(out, "Account %s has no webhook endpoints: register one with 'grocery webhooks create'.\n", account)
					return nil
				}
				return printWebhooks(out, l.Results)
			})
		}),
	}
	webhookAccountFlag(cmd, &account)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the endpoints as JSON")
	cmd.Flags().BoolVar(&idsOnly, "ids", false, "print only the endpoints' ids, one a line")
	cmd.MarkFlagsMutuallyExclusive("json", "ids")
	return cmd
}

func printWebhooks(w io.Writer, hooks []grocery.Webhook) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tURL\tEVENTS\tSTATUS\tCREATED\tDESCRIPTION")
	for _, h := range hooks {
		status := "enabled"
		if !h.Enabled {
			status = "disabled: " + h.DisabledReason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.ID, h.URL, strings.Join(h.Events, ","), status, timestamp(h.CreatedAt), h.Description)
	}
	return tw.Flush()
}

func (a *app) webhooksDeleteCmd() *cobra.Command {
	var account string
	cmd := &cobra.Command{
		Use:               "delete --account NAME ID",
		Short:             "Delete a webhook endpoint",
		Long:              `delete deletes one of an account's endpoints, by the id 'webhooks list' shows (whk_...), with its deliveries: nothing more is sent to it.`,
		Example:           "  grocery webhooks delete --account acme " + listWebhookIDs,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withWebhooks(cmd, account, func(ctx context.Context, st webhookStore, _ bool) error {
				if err := st.DeleteWebhook(ctx, args[0]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Deleted webhook endpoint %s of account %s.\n", strings.TrimSpace(args[0]), account)
				return nil
			})
		}),
	}
	webhookAccountFlag(cmd, &account)
	return cmd
}

func (a *app) webhooksTestCmd() *cobra.Command {
	var (
		account string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "test --account NAME ID",
		Short: "Send a ping event to a webhook endpoint",
		Long: `test queues a ping event for an endpoint, after what already waits for it;
'grocery webhooks deliveries' then shows what the receiver answered.`,
		Example:           "  grocery webhooks test --account acme " + listWebhookIDs,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withWebhooks(cmd, account, func(ctx context.Context, st webhookStore, local bool) error {
				d, err := st.TestWebhook(ctx, args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), d)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Queued ping %s as delivery %s of %s: 'grocery webhooks deliveries --account %s %s' shows the answer.\n",
					d.EventID, d.ID, strings.TrimSpace(args[0]), account, strings.TrimSpace(args[0]))
				if local {
					fmt.Fprintln(cmd.OutOrStdout(), "No server holds the data file: the ping is sent once 'grocery serve' runs on it.")
				}
				return nil
			})
		}),
	}
	webhookAccountFlag(cmd, &account)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the delivery as JSON")
	return cmd
}

func (a *app) webhooksDeliveriesCmd() *cobra.Command {
	var (
		account string
		in      grocery.WebhookDeliveriesInput
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "deliveries --account NAME ID",
		Short: "An endpoint's delivery log, newest first",
		Long: `deliveries shows what was sent to an endpoint, newest first: the event, its
status (pending, delivered, failed), the attempts, the latest attempt's
HTTP status, latency and error, and when a pending one is tried next.`,
		Example:           "  grocery webhooks deliveries --account acme " + listWebhookIDs + "\n  grocery webhooks deliveries --account acme " + listWebhookIDs + " --json",
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withWebhooks(cmd, account, func(ctx context.Context, st webhookStore, _ bool) error {
				l, err := st.WebhookDeliveries(ctx, args[0], in)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if asJSON {
					return writeJSON(out, l)
				}
				if l.Total == 0 {
					fmt.Fprintln(out, "Nothing was queued for this endpoint yet: alert events are, and 'grocery webhooks test' queues a ping.")
					return nil
				}
				return printDeliveries(out, l)
			})
		}),
	}
	webhookAccountFlag(cmd, &account)
	limitFlag(cmd, &in.Limit, "deliveries")
	cmd.Flags().IntVar(&in.Offset, "offset", 0, "skip this many deliveries first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the deliveries as JSON")
	return cmd
}

func printDeliveries(w io.Writer, l *grocery.WebhookDeliveryList) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tEVENT\tTYPE\tSTATUS\tATTEMPTS\tCODE\tLATENCY\tLAST ATTEMPT\tNEXT\tERROR")
	for _, d := range l.Results {
		code, latency, last, next := "-", "-", "-", "-"
		if d.ResponseCode != nil {
			code = strconv.Itoa(*d.ResponseCode)
		}
		if d.LatencyMS != nil {
			latency = strconv.FormatInt(*d.LatencyMS, 10) + " ms"
		}
		if d.LastAttemptAt != nil {
			last = timestamp(*d.LastAttemptAt)
		}
		if d.NextRetryAt != nil {
			next = timestamp(*d.NextRetryAt)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", d.ID, d.EventID, d.Type, d.Status, d.Attempts, code, latency, last, next, d.Error)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if l.Total > len(l.Results) {
		fmt.Fprintf(w, "\n%d of %d deliveries: see more with --offset.\n", len(l.Results), l.Total)
	}
	return nil
}
