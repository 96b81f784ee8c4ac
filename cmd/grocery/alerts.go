package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/grocerydata/grocery/grocery"
	"github.com/grocerydata/grocery/internal/words"
	"github.com/spf13/cobra"
)

// alertStore is what the alerts commands call, for the account the
// context acts for (grocery.NewContextWithAccount).
type alertStore interface {
	CreateAlert(ctx context.Context, in grocery.AlertInput) (*grocery.AlertRule, error)
	ListAlerts(ctx context.Context, in grocery.ListAlertsInput) (*grocery.AlertRules, error)
	UpdateAlert(ctx context.Context, id string, in grocery.AlertUpdate) (*grocery.AlertRule, error)
	DeleteAlert(ctx context.Context, id string) error
	AlertEvents(ctx context.Context, in grocery.AlertEventsInput) (*grocery.AlertEventList, error)
	EvaluateAlert(ctx context.Context, id string) (*grocery.AlertRule, error)
	EvaluateAlerts(ctx context.Context) (*grocery.AlertEvaluation, error)
}

func (a *app) alertsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "alerts",
		Short: "Price alert rules of an account, and their events",
		Long: `alerts manages an account's price alert rules (the REST interface's
/b2b/alerts) and shows the events they recorded.

A rule watches a barcode (--upc, optionally at one --banner) or one banner's
SKU (--banner and --sku) in a province, and fires on a day of the series'
timeline of prices in force: the banner's price in force (the offer's: the
most common of its stores' prices in force, an ended promotion at its regular
price) on each day it may change (an observation day, a day a store's
observation leaves the 14-day window, a day after a promotion ended):

  price_below     the price is at or below --threshold dollars
  price_above     the price is at or above --threshold dollars
  price_drop_pct  the price is at least --threshold percent below the
                  previous day's, a store having lowered its own
  rise_pct        the price is at least --threshold percent above the
                  previous day's, a store having raised its own
  promo_start     the price in force is a promotion
  back_in_stock   a price in force again after the series left the shelf,
                  or its first day in the province
  listed          its first day in the province (once)
  delisted        the day it leaves the shelf: 14 days after its stores'
                  last observation
  competitor_undercut
                  (--upc and --banner: your banner) another banner's
                  price in force of the barcode goes under your banner's

A rule does not fire again while a price hovers at its threshold: it re-arms
once the price has moved back past the threshold by 2% of it (a move: past
the price it fired at, or a further --threshold percent; an undercut: the
lowest other price at or 2% over yours), a promotion has ended, or the
series is observed again.

A new rule is evaluated at once on the latest day: a price_below rule whose
price is already at or under its threshold, or a promo_start rule on a
product already on promotion, records one event then (reason at_creation);
either way 'create' shows where each watched banner stands. The moves
(price_drop_pct, rise_pct, back_in_stock, listed, delisted) record nothing at
creation. Every import evaluates the active rules watching what it
writes once it committed (reason import), and 'alerts evaluate' on demand
(reason evaluate); each records at most one event per rule and observation
day: a re-import records nothing new. An evaluation that could not record
its events (the process stopped, Redis did not answer) is run again by the
next import, the next server start or 'alerts evaluate'. 'alerts update' changes a
rule's name, condition or threshold, or pauses it (--active=false: it records
nothing until resumed), keeping its id and events. An account holds at most
1,000 rules.

With --redis (or GROCERY_REDIS_URL) the rules and events are in Redis,
shared by every server pointed at it; when Redis does not answer at an
import, the import says so.

While a server holds the data file, these commands reach it through its
admin socket.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, args []string) error { return cmd.Help() }),
	}
	cmd.PersistentFlags().StringVar(&a.redisURL, "redis", "", redisAlertsHelp)
	cmd.AddCommand(a.alertsCreateCmd(), a.alertsListCmd(), a.alertsUpdateCmd(), a.alertsDeleteCmd(), a.alertsEventsCmd(), a.alertsEvaluateCmd())
	return cmd
}

// accountFlag registers --account (required unless optional) into name.
func accountFlag(cmd *cobra.Command, name *string, optional bool) {
	help := "`NAME` of the account the rules belong to"
	if optional {
		help = "only the rules of the account `NAME` (default: every account's)"
	}
	cmd.Flags().StringVar(name, "account", "", help)
	if !optional {
		cmd.MarkFlagRequired("account")
	}
	cmd.RegisterFlagCompletionFunc("account", noFiles)
}

// withAlerts runs f on the alert rules of account, through the running
// server's admin socket or on the data file. With --redis, a command whose
// data all lives in Redis (redisEnough: list, delete, events) runs on a
// host without the data file, a replica's; create (which checks the
// catalogue) and evaluate (which reads the prices) need the file.
func (a *app) withAlerts(cmd *cobra.Command, account string, redisEnough bool, f func(context.Context, alertStore) error) error {
	opts, err := a.keyOptions(cmd)
	if err != nil {
		return err
	}
	need := fileNeeded
	if redisEnough {
		need = redisOrFile
	}
	return a.withStore(cmd, opts, need, func(ctx context.Context, st keyStore) error {
		if account != "" {
			ctx = grocery.NewContextWithAccount(ctx, account)
		}
		return f(ctx, st)
	})
}

func (a *app) alertsCreateCmd() *cobra.Command {
	var (
		in        grocery.AlertInput
		account   string
		threshold float64
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "create --account NAME --name TEXT (--upc UPC [--banner B] | --banner B --sku SKU) --province P --condition C [--threshold X]",
		Short: "Create an alert rule",
		Long: `create stores a new alert rule for an account (create the account first with
'grocery keys create'). --condition is price_below or price_above (--threshold
in dollars), price_drop_pct or rise_pct (--threshold in percent), promo_start,
back_in_stock, listed, delisted or competitor_undercut (no threshold; the
last needs --upc and --banner, your banner); see 'grocery alerts --help' for
when each fires. The rule is evaluated at once on the latest day: when its condition already holds there,
one event is recorded (reason at_creation); either way create shows where
each banner it watches stands (price, regular price, promotion, day). Every
import evaluates it from then on.`,
		Example: "  grocery keys create --account acme --plan integration > acme.key\n" +
			"  grocery alerts create --account acme --name 'Orange juice under 4 dollars' --upc 067000378089 --province ON --condition price_below --threshold 4\n" +
			"  grocery alerts create --account acme --name 'No Frills OJ on promotion' --banner no-frills --sku 20156839_EA --province ON --condition promo_start\n" +
			"  grocery alerts create --account acme --name 'OJ down 10%' --upc 067000378089 --province ON --condition price_drop_pct --threshold 10 --json\n" +
			"  grocery alerts create --account acme --name 'OJ undercut at No Frills' --upc 067000378089 --banner no-frills --province ON --condition competitor_undercut",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("threshold") {
				in.Threshold = &threshold
			}
			return a.withAlerts(cmd, account, false, func(ctx context.Context, st alertStore) error {
				r, err := st.CreateAlert(ctx, in)
				if err != nil {
					return err
				}
				return printEvaluated(cmd.OutOrStdout(), r, asJSON)
			})
		}),
	}
	accountFlag(cmd, &account, false)
	cmd.Flags().StringVar(&in.Name, "name", "", "`TEXT` naming the rule, shown in its events")
	cmd.Flags().StringVar(&in.UPC, "upc", "", "the `UPC` to watch, at every banner (or at --banner)")
	cmd.Flags().StringVar(&in.Banner, "banner", "", "the `BANNER` of --sku, or the only banner of --upc")
	cmd.RegisterFlagCompletionFunc("banner", completeBanner)
	cmd.Flags().StringVar(&in.SKU, "sku", "", "the banner's external `SKU` to watch")
	cmd.Flags().StringVar(&in.Province, "province", "", "province or territory code, e.g. ON")
	cmd.RegisterFlagCompletionFunc("province", completeProvince)
	cmd.Flags().StringVar(&in.Condition, "condition", "", "`CONDITION`: price_below, price_above, price_drop_pct, rise_pct, promo_start, back_in_stock, listed, delisted or competitor_undercut")
	cmd.RegisterFlagCompletionFunc("condition", completeCondition)
	cmd.Flags().Float64Var(&threshold, "threshold", 0, "`X`: dollars for price_below, percent for price_drop_pct")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rule as JSON")
	return cmd
}

func (a *app) alertsListCmd() *cobra.Command {
	var (
		account string
		in      grocery.ListAlertsInput
		asJSON  bool
		idsOnly bool
	)
	cmd := &cobra.Command{
		Use:   "list --account NAME",
		Short: "List an account's alert rules",
		Long: `list shows an account's alert rules, oldest first. --ids prints only their ids,
one a line, for the commands that take one.`,
		Example:           "  grocery alerts list --account acme\n  grocery alerts list --account acme --json\n  grocery alerts list --account acme --ids",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withAlerts(cmd, account, true, func(ctx context.Context, st alertStore) error {
				l, err := st.ListAlerts(ctx, in)
				if err != nil {
					return err
				}
				switch {
				case asJSON:
					return writeJSON(cmd.OutOrStdout(), l)
				case idsOnly:
					for _, r := range l.Results {
						fmt.Fprintln(cmd.OutOrStdout(), r.ID)
					}
					return nil
				}
				if l.Total == 0 {
					fmt.Fprintf(cmd.OutOrStdout(), "Account %s has no alert rules: create one with 'grocery alerts create'.\n", account)
					return nil
				}
				return printRules(cmd.OutOrStdout(), l.Results, l.Total)
			})
		}),
	}
	accountFlag(cmd, &account, false)
	limitFlag(cmd, &in.Limit, "rules")
	cmd.Flags().IntVar(&in.Offset, "offset", 0, "skip this many rules first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rules as JSON")
	cmd.Flags().BoolVar(&idsOnly, "ids", false, "print only the rules' ids, one a line")
	cmd.MarkFlagsMutuallyExclusive("json", "ids")
	return cmd
}

// printRules prints rules as a table, and a line when total is more.
func printRules(w io.Writer, rules []grocery.AlertRule, total int) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tNAME\tWATCHES\tPROVINCE\tCONDITION\tACTIVE")
	for _, r := range rules {
		watches := "upc " + r.UPC
		switch {
		case r.SKU != "":
			watches = r.Banner + " sku " + r.SKU
		case r.Banner != "":
			watches += " at " + r.Banner
		}
		cond := r.Condition
		if r.Threshold != nil {
			if r.Condition == grocery.AlertPriceBelow {
				cond += " $" + strconv.FormatFloat(*r.Threshold, 'f', 2, 64)
			} else {
				cond += " " + strconv.FormatFloat(*r.Threshold, 'f', -1, 64) + "%"
			}
		}
		active := "yes"
		if !r.Active {
			active = "paused"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, watches, r.Province, cond, active)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if total > len(rules) {
		fmt.Fprintf(w, "\n%d of %d rules: see more with --offset.\n", len(rules), total)
	}
	return nil
}

// completeCondition completes --condition.
func completeCondition(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{grocery.AlertPriceBelow, grocery.AlertPriceDropPct, grocery.AlertPromoStart, grocery.AlertBackInStock}, cobra.ShellCompDirectiveNoFileComp
}

// printEvaluated prints a rule with where it stands (create, evaluate
// ID): as JSON, or as the rule's line and the standing's table.
func printEvaluated(w io.Writer, r *grocery.AlertRule, asJSON bool) error {
	if asJSON {
		return writeJSON(w, r)
	}
	if err := printRules(w, []grocery.AlertRule{*r}, 1); err != nil {
		return err
	}
	return printStanding(w, r.Standing)
}

// printStanding prints where a rule stands on the latest data: each
// banner it watches, and the event recorded or found.
func printStanding(w io.Writer, st *grocery.AlertStanding) error {
	if st == nil {
		return nil
	}
	fmt.Fprintln(w)
	if len(st.Series) == 0 {
		fmt.Fprintf(w, "Nothing it watches was observed in the 14 days up to %s.\n", st.AsOf)
	} else {
		fmt.Fprintf(w, "Where it stands on the latest data (up to %s):\n", st.AsOf)
		tw := newTable(w)
		fmt.Fprintln(tw, "BANNER\tSKU\tPRICE\tREGULAR\tPROMO\tOBSERVED\tHOLDS")
		for _, x := range st.Series {
			promo, holds := "", ""
			if x.OnPromo {
				promo = "yes"
			}
			if x.Holds {
				holds = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t$%s\t$%s\t%s\t%s\t%s\n", x.BannerName, x.SKU, x.Price, x.RegularPrice, promo, x.ObservedAt, holds)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	switch {
	case st.Event != nil && st.Recorded:
		fmt.Fprintf(w, "\nRecorded event %s (%s): %s\n", st.Event.ID, st.Event.Reason, st.Event.Message)
	case st.Event != nil:
		fmt.Fprintf(w, "\nAlready recorded for that day: event %s (%s): %s\n", st.Event.ID, st.Event.Reason, st.Event.Message)
	case st.Holds:
		fmt.Fprintln(w, "\nIts condition holds, but the rule is paused: nothing recorded.")
	default:
		fmt.Fprintln(w, "\nIts condition does not hold now: nothing recorded; imports will evaluate it.")
	}
	return nil
}

func (a *app) alertsUpdateCmd() *cobra.Command {
	var (
		account   string
		name      string
		condition string
		threshold float64
		active    bool
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "update --account NAME ID [--name TEXT] [--condition C] [--threshold X] [--active=false|true]",
		Short: "Change an alert rule, or pause or resume it",
		Long: `update changes one of an account's alert rules, by the id 'alerts list' shows
(alr_...): its --name, --condition or --threshold, or whether it is active
(--active=false pauses it: imports and evaluations record nothing for it until
--active=true resumes it). The rule keeps its id and its events. What it
watches (upc, banner, sku, province) cannot change: create another rule.
The changed rule is checked as a new one is; when --condition changes, give
the --threshold the new condition needs (the old one goes with the old
condition).`,
		Example: "  grocery alerts update --account acme \"$(grocery alerts list --account acme --ids | head -n 1)\" --active=false\n" +
			"  grocery alerts update --account acme \"$(grocery alerts list --account acme --ids | head -n 1)\" --active=true --name 'OJ on promotion' --condition promo_start --json",
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			var in grocery.AlertUpdate
			f := cmd.Flags()
			if f.Changed("name") {
				in.Name = &name
			}
			if f.Changed("condition") {
				in.Condition = &condition
			}
			if f.Changed("threshold") {
				in.Threshold = &threshold
			}
			if f.Changed("active") {
				in.Active = &active
			}
			return a.withAlerts(cmd, account, true, func(ctx context.Context, st alertStore) error {
				r, err := st.UpdateAlert(ctx, args[0], in)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), r)
				}
				return printRules(cmd.OutOrStdout(), []grocery.AlertRule{*r}, 1)
			})
		}),
	}
	accountFlag(cmd, &account, false)
	cmd.Flags().StringVar(&name, "name", "", "the rule's new `TEXT`")
	cmd.Flags().StringVar(&condition, "condition", "", "the new `CONDITION`: price_below, price_above, price_drop_pct, rise_pct, promo_start, back_in_stock, listed, delisted or competitor_undercut")
	cmd.RegisterFlagCompletionFunc("condition", completeCondition)
	cmd.Flags().Float64Var(&threshold, "threshold", 0, "the new `X`: dollars for price_below, percent for price_drop_pct")
	cmd.Flags().BoolVar(&active, "active", true, "false pauses the rule, true resumes it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rule as JSON")
	return cmd
}

func (a *app) alertsDeleteCmd() *cobra.Command {
	var account string
	cmd := &cobra.Command{
		Use:               "delete --account NAME ID",
		Short:             "Delete an alert rule",
		Long:              `delete deletes one of an account's alert rules, by the id 'alerts list' shows (alr_...). Its events stay.`,
		Example:           "  grocery alerts delete --account acme \"$(grocery alerts list --account acme --ids | head -n 1)\"",
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withAlerts(cmd, account, true, func(ctx context.Context, st alertStore) error {
				if err := st.DeleteAlert(ctx, args[0]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "Deleted alert rule %s of account %s.\n", strings.TrimSpace(args[0]), account)
				return nil
			})
		}),
	}
	accountFlag(cmd, &account, false)
	return cmd
}

func (a *app) alertsEventsCmd() *cobra.Command {
	var (
		account string
		in      grocery.AlertEventsInput
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "events --account NAME",
		Short: "An account's recorded alert events, newest first",
		Long: `events shows the events an account's rules recorded, newest first: when, which
rule, what recorded it (import, evaluate or at_creation), the observation day,
and what happened. --since keeps those recorded
at or after a time (RFC 3339) or a date; --rule keeps one rule's.`,
		Example:           "  grocery alerts events --account acme\n  grocery alerts events --account acme --rule \"$(grocery alerts list --account acme --ids | head -n 1)\" --json",
		Args:              usageArgs(cobra.NoArgs),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			return a.withAlerts(cmd, account, true, func(ctx context.Context, st alertStore) error {
				l, err := st.AlertEvents(ctx, in)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), l)
				}
				w := cmd.OutOrStdout()
				if l.Total == 0 {
					fmt.Fprintln(w, "No alert events match: rules record events when an import (or 'grocery alerts evaluate') meets their condition.")
					return nil
				}
				tw := newTable(w)
				fmt.Fprintln(tw, "ID\tRULE\tRECORDED\tREASON\tMESSAGE")
				for _, e := range l.Results {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.RuleID, timestamp(e.TriggeredAt), e.Reason, e.Message)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				if l.Total > len(l.Results) {
					fmt.Fprintf(w, "\n%d of %d events: see more with --offset.\n", len(l.Results), l.Total)
				}
				return nil
			})
		}),
	}
	accountFlag(cmd, &account, false)
	cmd.Flags().StringVar(&in.Since, "since", "", "only events recorded at or after `TIME` (RFC 3339 or YYYY-MM-DD)")
	cmd.Flags().StringVar(&in.RuleID, "rule", "", "only the events of the rule `ID`")
	limitFlag(cmd, &in.Limit, "events")
	cmd.Flags().IntVar(&in.Offset, "offset", 0, "skip this many events first")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the events as JSON")
	return cmd
}

func (a *app) alertsEvaluateCmd() *cobra.Command {
	var (
		account string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "evaluate [--account NAME [ID]]",
		Short: "Evaluate the alert rules on the latest data",
		Long: `evaluate evaluates every account's active alert rules (or one account's) on
the latest data: each observation day, in the 14 days up to the data set's
latest day, of every series they watch. It records the events not yet
recorded (reason evaluate), so running it twice records nothing new. Imports
evaluate by themselves; this is for data the rules should have seen.

With a rule's ID (and --account), it evaluates that rule on the latest day
only, as POST /b2b/alerts/{id}/evaluate does, and shows where it stands:
when its condition holds there (price_below: at or under the threshold;
price_above: at or over it; promo_start: on promotion; the moves: the rule
fires on the series' timeline on or after its latest observation day), one
event is recorded, unless the rule has one for that day already.`,
		Example: "  grocery alerts evaluate\n  grocery alerts evaluate --account acme --json\n" +
			"  grocery alerts evaluate --account acme \"$(grocery alerts list --account acme --ids | head -n 1)\"",
		Args:              usageArgs(cobra.MaximumNArgs(1)),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if account == "" {
					return grocery.Errorf(grocery.EINVALIDARGUMENT, "--account is required with a rule id: the rule belongs to an account")
				}
				return a.withAlerts(cmd, account, false, func(ctx context.Context, st alertStore) error {
					r, err := st.EvaluateAlert(ctx, args[0])
					if err != nil {
						return err
					}
					return printEvaluated(cmd.OutOrStdout(), r, asJSON)
				})
			}
			return a.withAlerts(cmd, account, false, func(ctx context.Context, st alertStore) error {
				ev, err := st.EvaluateAlerts(ctx)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), ev)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Evaluated %s %s on %s series, days %s to %s: %s new %s recorded.\n",
					count(ev.Rules), words.Plural(ev.Rules, "rule"), count(ev.Series), ev.From, ev.To, count(ev.Events), words.Plural(ev.Events, "event"))
				return nil
			})
		}),
	}
	accountFlag(cmd, &account, true)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}
