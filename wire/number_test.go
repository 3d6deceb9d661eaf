package wire_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/wire"
)

// TestNumberRoundTrip: the text comes back verbatim, including forms a float64 would change.
func TestNumberRoundTrip(t *testing.T) {
	for _, text := range []string{"0.90", "1.0", "9007199254740993", "1e400", "-0", "6E+1", "1e-400",
		"123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"} {
		var n wire.Number
		if err := json.Unmarshal([]byte(text), &n); err != nil {
			t.Errorf("Unmarshal(%s): %v", text, err)
			continue
		}
		out, err := json.Marshal(n)
		if err != nil || string(out) != text {
			t.Errorf("Marshal(Unmarshal(%s)) = %s, %v", text, out, err)
		}
	}
}

func TestNumberRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"0.9"`, "got a string"}, {`true`, "got a boolean"}, {`[1]`, "got an array"}, {`{}`, "got an object"},
	} {
		var n wire.Number
		if err := json.Unmarshal([]byte(c.in), &n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
	for _, bad := range []wire.Number{"", "01", "1.", ".5", "+1", "1e", "0x10", "NaN", "Inf", "1 ", "1_000"} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("Marshal(Number(%q)) accepted text that is not a JSON number", bad)
		}
		if bad.Equal(bad) {
			t.Errorf("Number(%q).Equal(itself): text that is not a number must equal nothing", bad)
		}
	}
}

func TestNumberEqual(t *testing.T) {
	for _, c := range []struct {
		a, b wire.Number
		want bool
	}{
		{"1", "1.0", true}, {"1", "1e0", true}, {"0.90", "0.9", true}, {"60", "6e1", true}, {"60", "600e-1", true},
		{"-0", "0", true}, {"0.0e5", "0", true}, {"100", "1E2", true}, {"1e99999999999999999999", "10e99999999999999999998", true},
		{"9007199254740993", "9007199254740992", false}, {"1", "-1", false}, {"0.1", "0.10000000000000001", false},
		{"1e400", "1e401", false}, {"1e-400", "0", false},
	} {
		if got := c.a.Equal(c.b); got != c.want {
			t.Errorf("Number(%s).Equal(%s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := c.b.Equal(c.a); got != c.want {
			t.Errorf("Number(%s).Equal(%s) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

func TestNumberValues(t *testing.T) {
	for _, c := range []struct {
		in      wire.Number
		i       int64
		iErr    string
		f       float64
		fErr    bool
		rat     string
		ratFail bool
	}{
		{in: "60.0", i: 60, f: 60, rat: "60/1"},
		{in: "6e1", i: 60, f: 60, rat: "60/1"},
		{in: "-9223372036854775808", i: math.MinInt64, f: -9223372036854775808, rat: "-9223372036854775808/1"},
		{in: "9223372036854775808", iErr: "out of the range", f: 9223372036854775808, rat: "9223372036854775808/1"},
		{in: "0.9", iErr: "not an integer", f: 0.9, rat: "9/10"},
		{in: "1e400", iErr: "out of the range", fErr: true, rat: "1" + strings.Repeat("0", 400) + "/1"},
		{in: "1e99999", iErr: "out of the range", fErr: true, ratFail: true},
	} {
		i, err := c.in.Int64()
		if c.iErr == "" && (err != nil || i != c.i) || c.iErr != "" && (err == nil || !strings.Contains(err.Error(), c.iErr)) {
			t.Errorf("Number(%s).Int64() = %d, %v; want %d, %q", c.in, i, err, c.i, c.iErr)
		}
		f, err := c.in.Float64()
		if (err != nil) != c.fErr || !c.fErr && f != c.f {
			t.Errorf("Number(%s).Float64() = %v, %v", c.in, f, err)
		}
		r, err := c.in.Rat()
		if c.ratFail != (err != nil) || err == nil && r.String() != c.rat {
			t.Errorf("Number(%s).Rat() = %v, %v; want %s", c.in, r, err, c.rat)
		}
	}
	if r, _ := wire.Number("-2.50").Rat(); r.Cmp(big.NewRat(-5, 2)) != 0 {
		t.Errorf("Rat(-2.50) = %v", r)
	}
}

func TestInteger(t *testing.T) {
	for _, c := range []struct {
		in   string
		want wire.Integer
		err  string
	}{
		{in: "60", want: 60}, {in: "60.0", want: 60}, {in: "6e1", want: 60}, {in: "6E+1", want: 60}, {in: "600e-1", want: 60},
		{in: "-0", want: 0}, {in: "0.0", want: 0}, {in: "9223372036854775807", want: math.MaxInt64},
		{in: "60.5", err: "60.5 is not an integer: it has a fractional part"},
		{in: "1e-1", err: "not an integer"},
		{in: "1e400", err: "1e400 is out of the range of a 64-bit integer"},
		{in: "9223372036854775808", err: "out of the range"},
		{in: "1" + strings.Repeat("0", 100), err: "out of the range"},
		{in: `"60"`, err: "an integer must be a JSON number, got a string"},
		{in: `[60]`, err: "got an array"},
	} {
		var n wire.Integer
		err := json.Unmarshal([]byte(c.in), &n)
		if c.err == "" && (err != nil || n != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d, %q", c.in, n, err, c.want, c.err)
		}
	}
	if out, err := json.Marshal(wire.Integer(60)); err != nil || string(out) != "60" {
		t.Errorf("Marshal(60) = %s, %v", out, err)
	}
	n := wire.Integer(7)
	if err := json.Unmarshal([]byte("null"), &n); err != nil || n != 7 {
		t.Errorf("Unmarshal(null) = %d, %v", n, err)
	}
}

// TestNumberHugeExponents: exponents beyond int64 compare exactly, carries and borrows included, and a megabyte of
// exponent digits costs linear time (a big.Int conversion takes seconds).
func TestNumberHugeExponents(t *testing.T) {
	for _, c := range []struct {
		a, b wire.Number
		want bool
	}{
		{"1e1000000000000000000", "1000e999999999999999997", true},
		{"0.1e1000000000000000000", "1e999999999999999999", true}, // the borrow leaves 18 digits: small form
		{"1e-1000000000000000000", "10e-1000000000000000001", true},
		{"1e100000000000000000000", "1e100000000000000000001", false},
		{"1e99999999999999999999", "1e-99999999999999999999", false},
		{"1e0099999999999999999999", "1e99999999999999999999", true},
		{"0e99999999999999999999", "0", true},
	} {
		if got := c.a.Equal(c.b); got != c.want {
			t.Errorf("Number(%s).Equal(%s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	huge := wire.Number("1e" + strings.Repeat("9", 1<<20))
	if !huge.Equal(huge) {
		t.Error("a huge number does not equal itself")
	}
	var n wire.Integer
	if err := json.Unmarshal([]byte(huge), &n); err == nil || !strings.Contains(err.Error(), "out of the range") {
		t.Errorf("Integer(1e<1 MiB of 9s>) = %v", err)
	}
	if err := json.Unmarshal([]byte("1e-"+strings.Repeat("9", 1<<20)), &n); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("Integer(1e-<1 MiB of 9s>) = %v", err)
	}
	if _, err := huge.Rat(); err == nil {
		t.Error("Rat expanded a power of ten beyond ±10000")
	}
}

// TestNumberEqualAgreesWithRat: on every pairing of a spread of forms, Equal is exact rational equality.
func TestNumberEqualAgreesWithRat(t *testing.T) {
	var forms []wire.Number
	for _, m := range []string{"0", "-0", "1", "10", "100", "0.1", "1.0", "1.50", "15", "-15", "0.015", "9007199254740993"} {
		for _, e := range []string{"", "e0", "e1", "E-1", "e+2", "e-3", "e-16", "e19"} {
			forms = append(forms, wire.Number(m+e))
		}
	}
	for _, a := range forms {
		ra, err := a.Rat()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range forms {
			rb, _ := b.Rat()
			if got, want := a.Equal(b), ra.Cmp(rb) == 0; got != want {
				t.Errorf("Number(%s).Equal(%s) = %v, rationals say %v", a, b, got, want)
			}
		}
	}
}
