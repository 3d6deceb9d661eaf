package core

import (
	"encoding/json"
	"testing"
)

func TestCompactJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"],"c":{"z":1.50,"y":-0}}`, `{"a":[true,null,"x"],"b":1,"c":{"y":-0,"z":1.50}}`},
		{`"quote \" backslash \\ nl \n tab \t ctl \u0001 del \u007f lt < amp & ls \u2028 é 😀"`,
			"\"quote \\\" backslash \\\\ nl \\n tab \\t ctl \\u0001 del \u007f lt < amp & ls \u2028 é 😀\""},
		{`{"é":1,"e":2,"E":3}`, `{"E":3,"e":2,"é":1}`},
		{`[]`, `[]`}, {`{}`, `{}`}, {`1e400`, `1e400`},
	}
	for _, c := range cases {
		v, err := DecodeJSON([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got := string(CompactJSON(v))
		if got != c.want {
			t.Errorf("CompactJSON(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("not valid JSON: %s", got)
		}
		back, _ := DecodeJSON([]byte(got))
		if !EqualJSON(v, back) {
			t.Errorf("round trip changed %s", c.in)
		}
	}
	if got := string(CompactJSON(map[string]any{"n": 3, "s": []string{"a"}, "f": 0.5})); got != `{"f":0.5,"n":3,"s":["a"]}` {
		t.Errorf("Go values: %s", got)
	}
}
