package admin

// DialTrusting is Dial trusting sockets owned by owners and served by
// processes of peers, so that tests can play another user.
func DialTrusting(path string, owners, peers []uint32) *Client {
	return dial(path, trust{owners: owners, peers: peers})
}
