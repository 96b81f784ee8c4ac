// Package alertredis keeps grocery's alert rules and events, webhook
// endpoints with their outboxes, and idempotency records in a Redis that
// several servers share (Redis, Idempotency), with the Lua scripts that
// make each write atomic, and the one-time copy of a data file's rules and
// events to Redis (CopyFile). It implements the interfaces of alertstore
// and idemstore and imports nothing from grocery.
package alertredis
