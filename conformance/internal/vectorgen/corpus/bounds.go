package corpus

import (
	"fmt"
	"strings"
)

// boundsVectors are D22 (numbers) and D24 (a request's jsonSchema): at each bound valid, one past it invalid
// with keyword size.
func boundsVectors() []sv {
	const k = "request"
	schema := func(js any) any {
		return with(request(), set("/response", obj("format", "structured", "jsonSchema", js)))
	}
	const schemaWhy = "A JSON Schema validator puts no bound on a jsonSchema; D24 bounds its depth, values, regular expressions and bytes so that compiling it stays fast."
	const numberWhy = "JSON puts no bound on a number; D22 bounds its digits and exponent so that an exact comparison stays cheap."
	// nested is depth objects nested through "items".
	nested := func(depth int) any {
		var v any = obj()
		for i := 1; i < depth; i++ {
			v = obj("items", v)
		}
		return v
	}
	// values is an object holding an array of n numbers: n+2 JSON values.
	values := func(n int) any {
		items := make([]any, n)
		for i := range items {
			items[i] = 0
		}
		return obj("enum", items)
	}
	// patterns is n pattern values.
	patterns := func(n int) any {
		props := object{}
		for i := 0; i < n; i++ {
			props = append(props, member{fmt.Sprintf("p%02d", i), obj("pattern", "^x")})
		}
		return obj("properties", props)
	}
	// sized is a jsonSchema whose compact JSON is exactly n bytes.
	sized := func(n int) any { return obj("description", strings.Repeat("d", n-len(`{"description":""}`))) }
	deep := "/response/jsonSchema" + strings.Repeat("/items", 64)
	resp := func(n string) any { return with(response(), set("/confidence", num(n))) }
	return []sv{
		ok(k, "request/response.jsonSchema/depth-64-is-the-limit", "A jsonSchema may nest objects and arrays 64 deep (the jsonSchema itself is depth 1).", schema(nested(64))),
		bad(k, "request/response.jsonSchema/depth-65-is-too-deep", "65 deep is one past the bound; the pointer names the first value too deep.",
			schema(nested(65)), E(deep, "size")).beyondSchema(schemaWhy),
		ok(k, "request/response.jsonSchema/10000-values-is-the-limit", "A jsonSchema may hold 10,000 JSON values: here an object, an array and 9,998 numbers.", schema(values(9998))),
		bad(k, "request/response.jsonSchema/10001-values-is-too-many", "10,001 values is one past the bound.",
			schema(values(9999)), E("/response/jsonSchema", "size")).beyondSchema(schemaWhy),
		ok(k, "request/response.jsonSchema/64-patterns-is-the-limit", "A jsonSchema may hold 64 regular expressions.", schema(patterns(64))),
		bad(k, "request/response.jsonSchema/65-patterns-is-too-many", "65 regular expressions is one past the bound.",
			schema(patterns(65)), E("/response/jsonSchema", "size")).beyondSchema(schemaWhy),
		ok(k, "request/response.jsonSchema/65536-bytes-is-the-limit", "A jsonSchema's compact JSON may be 65,536 bytes.", schema(sized(65536))),
		bad(k, "request/response.jsonSchema/65537-bytes-is-too-large", "65,537 bytes is one past the bound.",
			schema(sized(65537)), E("/response/jsonSchema", "size")).beyondSchema(schemaWhy),

		ok("response", "response/number/1000-digits-is-the-limit", "A number may have 1,000 digits (here 0.000…1, within confidence's 0–1).", resp("0."+strings.Repeat("0", 998)+"1")),
		bad("response", "response/number/1001-digits-is-too-many", "1,001 digits is one past the bound; the pointer names the number.",
			resp("0."+strings.Repeat("0", 999)+"1"), E("/confidence", "size")).beyondSchema(numberWhy),
		ok("response", "response/number/exponent-minus-1000-is-the-limit", "An exponent may be -1000 to 1000.", resp("1e-1000")),
		bad("response", "response/number/exponent-minus-1001-is-too-large", "-1001 is one past the bound.",
			resp("1e-1001"), E("/confidence", "size")).beyondSchema(numberWhy),
		bad("response", "response/number/exponent-past-a-million-is-refused", "1e1000001 crashed the validator before D22.",
			resp("1e1000001"), E("/confidence", "size")).beyondSchema(numberWhy),
	}
}
