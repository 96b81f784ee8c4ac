package restserver

import (
	"fmt"
	"sync"
)

// The XLSX exports that may run at once: an XLSX export keeps its sheet
// in a temporary file until the end (about 780 bytes a row) and its
// writer in memory, so unbounded parallel ones exhaust a server's memory
// and disk. Other formats stream row by row and are not limited.
const (
	DefaultMaxXLSXExports           = 2 // per server
	DefaultMaxXLSXExportsPerAccount = 1
)

// exportSlots counts the XLSX exports under way, in all and per account.
type exportSlots struct {
	mu                 sync.Mutex
	total              int
	byAccount          map[string]int
	max, maxPerAccount int
}

// exportRetryAfter is the Retry-After of a refused export, in seconds.
const exportRetryAfter = "10"

// acquire takes a slot for account, or returns the 429 that names the
// limit reached.
func (e *exportSlots) acquire(account string) (release func(), err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.byAccount[account] >= e.maxPerAccount:
		return nil, &problemError{code: codeTooManyExports,
			detail: fmt.Sprintf("at most %d XLSX %s of one account run at a time, and one of yours is under way: retry when it ends (or use format csv or jsonl, which are not limited)", e.maxPerAccount, exportsWord(e.maxPerAccount))}
	case e.total >= e.max:
		return nil, &problemError{code: codeTooManyExports,
			detail: fmt.Sprintf("at most %d XLSX %s run at a time on this server, and that many are under way: retry shortly (or use format csv or jsonl, which are not limited)", e.max, exportsWord(e.max))}
	}
	if e.byAccount == nil {
		e.byAccount = map[string]int{}
	}
	e.total++
	e.byAccount[account]++
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.total--
		if e.byAccount[account]--; e.byAccount[account] == 0 {
			delete(e.byAccount, account)
		}
	}, nil
}

func exportsWord(n int) string {
	if n == 1 {
		return "export"
	}
	return "exports"
}
