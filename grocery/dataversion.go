package grocery

import (
	"crypto/rand"
	"encoding/binary"
)

// DataVersion identifies the data the queries answer from: the stores,
// products, prices and the analytics derived from them. It changes after
// every write of them (an import, the demo's build, a replica taking a
// newer snapshot) and differs between Services, even on the same file
// (it starts at a random number at Open), so that two calls that return
// the same number bracket no such write: every query of the data alone
// answers alike between them. A transport makes validators from it (the
// REST interface's ETag). Accounts, keys, quota and alert rules and
// events are not data in this sense and leave it as it is. It returns no
// error.
func (s *Service) DataVersion() uint64 { return s.dataVersion.Load() }

// newDataVersion sets the DataVersion of a Service being opened.
func (s *Service) newDataVersion() {
	var b [8]byte
	rand.Read(b[:])
	s.dataVersion.Store(binary.LittleEndian.Uint64(b[:]))
}

// dataWritten moves DataVersion on, once a write of the data committed:
// a query that began before reads the old data and is tagged with the
// old version at the latest, never the reverse.
// The answer cache is warmed for the new version (Options.WarmAnswers).
func (s *Service) dataWritten() {
	s.dataVersion.Add(1)
	s.warmAnswers()
}
