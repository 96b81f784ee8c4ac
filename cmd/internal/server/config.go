package server

import (
	"strings"

	"github.com/grocerydata/grocery/grocery"
)

// OptionsFromEnv reads the data-file options every binary shares from the
// environment: GROCERY_KEY_PREFIX (the start of API keys, default gro) and
// GROCERY_PLAN_QUOTAS, which overrides the monthly calls of named default
// plans: "starter=2000,integration=5000000", and GROCERY_REDIS_URL, the
// Redis that keeps keys and quota when several servers share them
// (redis://127.0.0.1:6379/0; a --redis flag overrides it). Options.Plans
// is always set.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	opts := Options{Options: grocery.Options{KeyPrefix: getenv("GROCERY_KEY_PREFIX")}, RedisURL: getenv("GROCERY_REDIS_URL")}
	plans, err := grocery.ParsePlanQuotas(getenv("GROCERY_PLAN_QUOTAS"))
	if err != nil {
		return opts, grocery.Errorf(grocery.EINVALIDARGUMENT, "GROCERY_PLAN_QUOTAS: %s", strings.TrimPrefix(grocery.ErrorMessage(err), "plan quotas: "))
	}
	opts.Plans = plans
	return opts, nil
}

// Version returns the build's version, grocery.Version: the release, with
// the VCS revision when the build recorded one.
func Version() string { return grocery.Version() }
