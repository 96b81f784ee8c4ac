package webhook

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestSignVerify(t *testing.T) {
	t.Parallel()
	secret, body := []byte("whsec_test"), []byte(`{"id":"evt_1"}`)
	at := time.Unix(1795000000, 0)
	h := Sign(secret, at, body)
	// The shell's check: printf '%s.%s' 1795000000 '{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
	if want := "t=1795000000,v1=9768205fbb644a6a645cdd13f225c6791ed91580e4d16c14b9a8e73cd4ba4393"; h != want {
		t.Fatalf("Sign: got %q, want %q (openssl's)", h, want)
	}
	for _, tc := range []struct {
		name   string
		header string
		body   []byte
		now    time.Time
		want   string
	}{
		{"OK", h, body, at.Add(time.Minute), ""},
		{"ErrBody", h, []byte(`{"id":"evt_2"}`), at, "does not match"},
		{"ErrOld", h, body, at.Add(6 * time.Minute), "more than 5m0s"},
		{"ErrNoTime", strings.Replace(h, "t=", "x=", 1), body, at, "no timestamp"},
		{"ErrNoSig", "t=1795000000", body, at, "no v1 signature"},
		{"OKSecondSig", "t=1795000000,v1=00," + h[strings.Index(h, "v1="):], body, at, ""},
	} {
		err := Verify(secret, tc.header, tc.body, tc.now, 5*time.Minute)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		attempt int
		want    time.Duration
	}{{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {7, 32 * time.Minute}, {8, time.Hour}, {40, time.Hour}} {
		if lo, mid, hi := Backoff(tc.attempt, 0), Backoff(tc.attempt, 0.5), Backoff(tc.attempt, 0.999999); lo != tc.want*8/10 || mid != tc.want || hi > tc.want*12/10 || hi < tc.want*119/100 {
			t.Errorf("Backoff(%d): got %s, %s, %s, want %s ± 20%%", tc.attempt, lo, mid, hi, tc.want)
		}
	}
}

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr                  string
		strict, loop, private bool // allowed with no option, with Loopback, with Private
	}{
		{"203.0.113.9", true, true, true},
		{"2001:db8::1", true, true, true},
		{"127.0.0.1", false, true, false},
		{"::1", false, true, false},
		{"::ffff:127.0.0.1", false, true, false},
		{"10.0.0.1", false, false, true},
		{"172.16.3.4", false, false, true},
		{"100.64.0.1", false, false, true},
		{"fd12::1", false, false, true},
		{"169.254.169.254", false, false, true},
		{"fd00:ec2::254", false, false, true},
		{"fe80::1", false, false, true},
		{"0.0.0.0", false, false, false},
		{"224.0.0.1", false, false, false},
		{"255.255.255.255", false, false, false},
		// IPv6 forms that carry an IPv4 address are checked by it.
		{"64:ff9b::a9fe:a9fe", false, false, true}, // NAT64 of 169.254.169.254
		{"64:ff9b::7f00:1", false, true, false},    // NAT64 of 127.0.0.1
		{"64:ff9b::a00:1", false, false, true},     // NAT64 of 10.0.0.1
		{"64:ff9b::cb00:7109", true, true, true},   // NAT64 of 203.0.113.9
		{"64:ff9b:1::a00:1", false, false, true},   // local-use NAT64 (RFC 8215)
		{"2002:a9fe:a9fe::1", false, false, true},  // 6to4 of 169.254.169.254
		{"2002:7f00:1::1", false, true, false},     // 6to4 of 127.0.0.1
		{"2002:cb00:7109::1", true, true, true},    // 6to4 of 203.0.113.9
		{"::a9fe:a9fe", false, false, true},        // IPv4-compatible 169.254.169.254
		{"::7f00:1", false, true, false},           // IPv4-compatible 127.0.0.1
		{"::ffff:0:a9fe:a9fe", false, false, true}, // IPv4-translated 169.254.169.254
		{"::ffff:0:7f00:1", false, true, false},    // IPv4-translated 127.0.0.1
	} {
		ip := netip.MustParseAddr(tc.addr)
		for _, c := range []struct {
			a    Allow
			want bool
		}{{Allow{}, tc.strict}, {Allow{Loopback: true}, tc.loop}, {Allow{Private: true}, tc.private}} {
			if err := c.a.CheckAddr(ip); (err == nil) != c.want {
				t.Errorf("%+v.CheckAddr(%s): got %v, want allowed %v", c.a, ip, err, c.want)
			}
		}
	}
}
