// Package webhook is the machinery of grocery's webhook deliveries: the
// signature of a delivery (Sign, Verify), the check that keeps deliveries
// off private networks (Allow: CheckURL at creation, Control at each
// dial), the retry schedule (Backoff) and the Worker that claims the due
// deliveries of an alertstore.HookStore's outboxes, sends them and records
// each attempt. It imports nothing from grocery, nor net/http: the HTTP
// client that sends deliveries is a transport, outside the domain, which
// grocery hands the Worker as Config.Send; what an endpoint's disabled
// reason says, and the delivery ids, are grocery's too.
package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Header names of a delivery.
const (
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256 of
	// '<t>.<body>' under the endpoint's secret>".
	SignatureHeader = "Grocery-Signature"
	// EventIDHeader carries the event's id, the same on every attempt:
	// a receiver deduplicates on it.
	EventIDHeader = "Grocery-Event-Id"
	// EventTypeHeader carries the event's type ("alert.triggered", "ping").
	EventTypeHeader = "Grocery-Event-Type"
	// DeliveryIDHeader carries the delivery's id (one endpoint, one event).
	DeliveryIDHeader = "Grocery-Delivery-Id"
)

// Timeout is how long a receiver has to answer a delivery.
const Timeout = 10 * time.Second

// Sign returns the signature header's value of body sent at t under secret.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks header (SignatureHeader's value) against body and secret:
// one of its v1 signatures must match, and its timestamp be within
// tolerance of now (tolerance 0: any time).
func Verify(secret []byte, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs [][]byte
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			if b, err := hex.DecodeString(v); err == nil {
				sigs = append(sigs, b)
			}
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("signature header has no timestamp: want t=<unix seconds>,v1=<hex>")
	}
	if len(sigs) == 0 {
		return errors.New("signature header has no v1 signature: want t=<unix seconds>,v1=<hex>")
	}
	if tolerance > 0 {
		if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
			return fmt.Errorf("signature timestamp %s is %s away from now, more than %s", time.Unix(sec, 0).UTC().Format(time.RFC3339), d.Round(time.Second), tolerance)
		}
	}
	want := mac(secret, ts, body)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return nil
		}
	}
	return errors.New("signature does not match the body under this secret")
}

// Allow widens which addresses an endpoint may have. The zero value
// allows only public addresses over https.
type Allow struct {
	// Loopback allows loopback addresses (127.0.0.0/8, ::1), over http
	// as well as https: for testing a receiver on the same machine.
	Loopback bool
	// Private allows private (10/8, 172.16/12, 192.168/16, 100.64/10,
	// fc00::/7) and link-local addresses (169.254/16, fe80::/10), among
	// them the cloud metadata addresses 169.254.169.254 and fd00:ec2::254.
	Private bool
}

// CheckAddr returns why a delivery may not go to ip, or nil. An IPv6
// address that carries an IPv4 address (NAT64 64:ff9b::/96, 6to4
// 2002::/16, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96) is
// checked as that IPv4 address; a local-use NAT64 address
// (64:ff9b:1::/48, whose IPv4 address's place depends on the network)
// is private.
func (a Allow) CheckAddr(ip netip.Addr) error {
	ip = ip.Unmap()
	if v4, form, ok := embeddedV4(ip); ok {
		if err := a.CheckAddr(v4); err != nil {
			return fmt.Errorf("%s is the %s form of %s: %w", ip, form, v4, err)
		}
		return nil
	}
	switch {
	case !ip.IsValid():
		return errors.New("not an IP address")
	case localNAT64.Contains(ip):
		if !a.Private {
			return fmt.Errorf("%s is a local-use NAT64 address, which reaches an IPv4 network of its own", ip)
		}
	case ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast(), ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return fmt.Errorf("%s is not a unicast address", ip)
	case ip.IsLoopback():
		if !a.Loopback {
			return fmt.Errorf("%s is a loopback address (allowed only when the server allows loopback webhooks, for local testing)", ip)
		}
	case ip == metadataV4 || ip == metadataV6:
		if !a.Private {
			return fmt.Errorf("%s is a cloud metadata address", ip)
		}
	case ip.IsLinkLocalUnicast():
		if !a.Private {
			return fmt.Errorf("%s is a link-local address", ip)
		}
	case ip.IsPrivate() || cgnat.Contains(ip) || thisNet.Contains(ip):
		if !a.Private {
			return fmt.Errorf("%s is a private address", ip)
		}
	}
	return nil
}

// embeddedV4 returns the IPv4 address an IPv6 address carries, and the
// name of its form.
func embeddedV4(ip netip.Addr) (netip.Addr, string, bool) {
	if !ip.Is6() {
		return netip.Addr{}, "", false
	}
	b := ip.As16()
	last := netip.AddrFrom4([4]byte(b[12:16]))
	switch {
	case nat64.Contains(ip):
		return last, "NAT64", true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte(b[2:6])), "6to4", true
	case translated.Contains(ip):
		return last, "IPv4-translated", true
	case compatible.Contains(ip) && !ip.IsUnspecified() && !ip.IsLoopback():
		return last, "IPv4-compatible", true
	}
	return netip.Addr{}, "", false
}

var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	localNAT64 = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	compatible = netip.MustParsePrefix("::/96")
	translated = netip.MustParsePrefix("::ffff:0:0:0/96")
)

var (
	metadataV4 = netip.MustParseAddr("169.254.169.254")
	metadataV6 = netip.MustParseAddr("fd00:ec2::254")
	cgnat      = netip.MustParsePrefix("100.64.0.0/10")
	thisNet    = netip.MustParsePrefix("0.0.0.0/8")
)

// CheckURL checks an endpoint's URL as far as it can without the network:
// https (or http to a loopback host when a.Loopback), a host, no
// credentials or fragment, and an IP literal or "localhost" host (with
// or without its final dot) allowed by a; a host that is a number
// (2130706433, 0x7f000001, 127.1: forms some resolvers read as IPv4
// addresses) is refused. It returns the URL in canonical form. Which addresses a name
// resolves to is checked by Resolve and at each dial (Client).
func (a Allow) CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, errors.New("not an absolute URL: want https://host/path")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.User != nil {
		return nil, errors.New("credentials in the URL are not taken: put a token in the path or query instead")
	}
	if u.Fragment != "" {
		return nil, errors.New("a fragment (#...) is not sent: leave it out")
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return nil, errors.New("no host: want https://host/path")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q: want 1 to 65535", p)
		}
	}
	name := strings.TrimSuffix(host, ".") // a fully qualified name ends in a dot
	loopback := name == "localhost" || strings.HasSuffix(name, ".localhost")
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil && numericName(name) {
		// 2130706433, 0x7f000001, 0177.0.0.1, 127.1: no name (no top-level
		// domain is a number), and resolvers that read such forms as IPv4
		// addresses do not agree on them.
		return nil, fmt.Errorf("host %q is a number, not a name: write an IPv4 address as four decimal numbers (a.b.c.d), or use a host name", host)
	}
	if err == nil {
		if err := a.CheckAddr(ip); err != nil {
			return nil, err
		}
		loopback = ip.Unmap().IsLoopback()
	} else if loopback && !a.Loopback {
		return nil, fmt.Errorf("%s is a loopback host (allowed only when the server allows loopback webhooks, for local testing)", host)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !loopback || !a.Loopback {
			return nil, errors.New("scheme http: want https (http only to a loopback host, when the server allows it for local testing)")
		}
	default:
		return nil, fmt.Errorf("scheme %q: want https", u.Scheme)
	}
	return u, nil
}

// numericName reports whether a host name's last label is a number,
// decimal or hexadecimal (0x...), as in the IPv4 forms inet_aton reads.
func numericName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if h, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		last = h
		if last == "" {
			return true
		}
		_, err := strconv.ParseUint(last, 16, 64)
		return err == nil || errors.Is(err, strconv.ErrRange)
	}
	if last == "" {
		return false
	}
	for _, c := range last {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Resolve checks the addresses u's host resolves to (with a short
// timeout): an error names one that a does not allow. A host that does
// not resolve passes: every dial is checked again.
func (a Allow) Resolve(ctx context.Context, u *url.URL) error {
	host := u.Hostname()
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, ip := range addrs {
		if err := a.CheckAddr(ip); err != nil {
			return fmt.Errorf("host %s resolves to %w", host, err)
		}
	}
	return nil
}

// Control is a net.Dialer's Control that refuses, at each dial, an
// address a does not allow: the address the name resolved to at that
// moment, so a name that changes its answer after it was checked (DNS
// rebinding) is refused too. Its error is a *RefusedError.
func (a Allow) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("address %q: %w", address, err)
	}
	if err := a.CheckAddr(ap.Addr()); err != nil {
		return &RefusedError{Reason: err.Error()}
	}
	return nil
}

// RefusedError is a dial refused because of the address it would reach.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "address refused: " + e.Reason }

// Backoff returns the wait after a delivery's attempt-th failed attempt
// (1, 2, ...): 30 s doubling to at most one hour, times jitter, a number
// in [0, 1) mapped to 0.8..1.2.
func Backoff(attempt int, jitter float64) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempt && d < time.Hour; i++ {
		d *= 2
	}
	d = min(d, time.Hour)
	return time.Duration(float64(d) * (0.8 + 0.4*jitter))
}
