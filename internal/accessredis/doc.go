// Package accessredis keeps grocery's API keys, accounts and quota
// counters in a Redis that several servers share (Redis), with the Lua
// scripts that make each metered call one round trip. It implements
// access.Store and imports nothing from grocery.
package accessredis
