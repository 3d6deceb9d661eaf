package core

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestEncodeCanonicalNumbers(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0.90", "0.9"}, {"1.0", "1"}, {"1e2", "100"}, {"-0", "0"}, {"-0.0e-5", "0"}, {"0", "0"},
		{"9007199254740993", "9007199254740993"}, {"1e400", "1e+400"}, {"-1E-400", "-1e-400"},
		{"0.92", "0.92"}, {"0.920", "0.92"}, {"92e-2", "0.92"}, {"1E21", "1e+21"}, {"1e20", "100000000000000000000"},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e+29"},
		{"0.000001", "0.000001"}, {"1e-7", "1e-7"}, {"0.0000001234", "1.234e-7"}, {"12.5e-1", "1.25"},
		{"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"}, {"999999999999999900000", "999999999999999900000"},
		{"1e0000000000000000000000000000001", "10"},
		{"1e1000000000000000000000", "1e+1000000000000000000000"}, {"25e-1000000000000000000001", "2.5e-1000000000000000000000"},
		{"-12.340e3", "-12340"}, {"100", "100"}, {"0.1", "0.1"},
	}
	for _, c := range cases {
		got, err := EncodeCanonical(json.Number(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeCanonical(%s) = %s, %v; want %s", c.in, got, err, c.want)
			continue
		}
		again, _ := EncodeCanonical(json.Number(got))
		if string(again) != c.want {
			t.Errorf("not idempotent: %s → %s → %s", c.in, got, again)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1 ", "NaN"} {
		if _, err := EncodeCanonical(json.Number(bad)); err == nil {
			t.Errorf("EncodeCanonical(json.Number(%q)) accepted", bad)
		}
	}
}

// For every number a double holds, the canonical text is RFC 8785's: ECMAScript's shortest round-trip digits laid
// out by Number::toString. Go's strconv gives the same shortest digits; the layout is checked against ES rules by
// `make interop` with node itself, here against the properties the layout must have.
func TestEncodeCanonicalDoublesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		text := strconv.FormatFloat(f, 'g', -1, 64)
		got, err := EncodeCanonical(json.Number(text))
		if err != nil {
			t.Fatal(err)
		}
		back, err := strconv.ParseFloat(string(got), 64)
		if err != nil || back != f {
			t.Fatalf("%s → %s does not read back as the same double", text, got)
		}
		if e := strings.IndexByte(string(got), 'e'); e >= 0 && (got[e+1] != '+' && got[e+1] != '-') {
			t.Fatalf("%s → %s: exponent without sign", text, got)
		}
	}
}

func TestEncodeCanonical(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"],"c":{"z":1.50,"y":-0}}`, `{"a":[true,null,"x"],"b":1,"c":{"y":0,"z":1.5}}`},
		{`"quote \" backslash \\ nl \n tab \t bs \b ff \f ctl \u0001 \u001F del \u007f lt < amp & ls \u2028 \u00e9 é 😀 \ud83d\ude00 \/"`,
			"\"quote \\\" backslash \\\\ nl \\n tab \\t bs \\b ff \\f ctl \\u0001 \\u001f del \u007f lt < amp & ls \u2028 é é 😀 😀 /\""},
		// RFC 8785 §3.2.3: sorted by UTF-16 code units, so U+1F600 (high surrogate D83D) sorts before U+FB01.
		{`{"\ufb01":1,"😀":2,"é":3,"e":4,"E":5,"":6}`, `{"":6,"E":5,"e":4,"é":3,"😀":2,"ﬁ":1}`},
		{`[]`, `[]`}, {`{}`, `{}`}, {`[1e400, 1.0, 0.90]`, `[1e+400,1,0.9]`},
		{" {\n \"answer\" : [ 0 , { } ] } ", `{"answer":[0,{}]}`},
	}
	for _, c := range cases {
		v, err := DecodeJSON([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeCanonical(v)
		if err != nil || string(got) != c.want {
			t.Errorf("EncodeCanonical(%s)\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
		fromText, err := CanonicalizeJSON([]byte(c.in))
		if err != nil || string(fromText) != c.want {
			t.Errorf("CanonicalizeJSON(%s)\n got %s (%v)\nwant %s", c.in, fromText, err, c.want)
		}
		raw, err := EncodeCanonical(map[string]any{"v": json.RawMessage(c.in)})
		if err != nil || string(raw) != `{"v":`+c.want+`}` {
			t.Errorf("EncodeCanonical of a json.RawMessage %s: %s (%v)", c.in, raw, err)
		}
		back, _ := DecodeJSON(got)
		if again, _ := EncodeCanonical(back); string(again) != c.want {
			t.Errorf("not idempotent: %s", again)
		}
	}
	if got, _ := EncodeCanonical(map[string]any{"n": 3, "s": []string{"a"}, "f": 0.5, "g": 1e21}); string(got) != `{"f":0.5,"g":1e+21,"n":3,"s":["a"]}` {
		t.Errorf("Go values: %s", got)
	}
	for _, bad := range []any{math.NaN(), make(chan int), json.RawMessage(`{"a":1,"a":2}`), json.RawMessage(`"\ud800"`), json.RawMessage(`1 2`), "\xff"} {
		if got, err := EncodeCanonical(bad); err == nil {
			t.Errorf("EncodeCanonical(%#v) = %s, want an error", bad, got)
		}
	}
}

func TestEqualJSONIsExact(t *testing.T) {
	eq := func(a, b string) bool {
		x, _ := DecodeJSON([]byte(a))
		y, _ := DecodeJSON([]byte(b))
		return EqualJSON(x, y)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"0.90", "0.9", true}, {"1.0", "1", true}, {"1e2", "100", true}, {"-0", "0", true}, {"1e400", "10e399", true},
		{"9007199254740993", "9007199254740992", false},
		// 256-bit floats could not tell these apart (they differ in the 100th digit).
		{"0." + strings.Repeat("3", 99) + "4", "0." + strings.Repeat("3", 99) + "5", false},
		{`{"a":[1,2.0]}`, `{"a":[1.0,2]}`, true}, {`{"a":1}`, `{"a":1,"b":1}`, false}, {`"é"`, `"\u00e9"`, true},
	} {
		if got := eq(c.a, c.b); got != c.want {
			t.Errorf("EqualJSON(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
