package corpus

import "fmt"

func contractVectors() []sv {
	const k = "request"
	resp := func(r object) any { return with(request(), set("/response", r)) }
	choices := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("option-%02d", i+1)
		}
		return out
	}
	const compileWhy = "A JSON Schema validator checks only that jsonSchema is an object; whether it compiles offline as draft 2020-12 is an AQP rule (§3)."
	v := []sv{
		// format: each value, with what its conditional requires.
		ok(k, "request/response.format/text-is-valid", "format text needs nothing else.", resp(obj("format", "text"))),
		ok(k, "request/response.format/structured-with-jsonSchema-is-valid", "format structured with its jsonSchema.", resp(obj("format", "structured", "jsonSchema", structuredSchema()))),
		ok(k, "request/response.format/choice-with-choices-is-valid", "format choice with its choices.", resp(obj("format", "choice", "choices", arr("yes", "no")))),
		ok(k, "request/response.format/boolean-is-valid", "format boolean needs nothing else.", resp(obj("format", "boolean"))),
		ok(k, "request/response.format/number-is-valid", "format number needs nothing else.", resp(obj("format", "number"))),
		bad(k, "request/response.format/unknown-value-is-rejected", "format is a closed enum; json is not one of its values (structured is).",
			resp(obj("format", "json")), E("/response/format", "enum")),
		bad(k, "request/response.format/absent-is-required-and-both-conditionals-hold-vacuously",
			"format is required; with it absent both if-clauses (format const structured, format const choice) hold vacuously, so jsonSchema and choices are required too — the same seed behaviour as D2.",
			resp(obj()), E("/response/format", "required"), E("/response/jsonSchema", "required"), E("/response/choices", "required")),
		bad(k, "request/response.format/structured-without-jsonSchema-is-rejected",
			"if format is structured then jsonSchema is required: a structured answer is only checkable against a schema.",
			resp(obj("format", "structured")), E("/response/jsonSchema", "required")),
		bad(k, "request/response.format/choice-without-choices-is-rejected",
			"if format is choice then choices is required: a choice needs a set to choose from.",
			resp(obj("format", "choice")), E("/response/choices", "required")),
		ok(k, "request/response.format/text-with-choices-is-valid",
			"The schema does not forbid choices for other formats; they are simply not the contract of a text answer.",
			resp(obj("format", "text", "choices", arr("a", "b")))),
		ok(k, "request/response.format/boolean-with-jsonSchema-is-valid",
			"jsonSchema is allowed with any format; it must also accept the answer (§3).",
			resp(obj("format", "boolean", "jsonSchema", obj("const", true)))),

		// jsonSchema: type and compilation.
		ok(k, "request/response.jsonSchema/empty-object-is-valid", "{} is a schema that accepts every answer.",
			resp(obj("format", "structured", "jsonSchema", obj()))),
		bad(k, "request/response.jsonSchema/array-is-rejected", "jsonSchema must be an object.",
			resp(obj("format", "structured", "jsonSchema", arr(obj("type", "object")))), E("/response/jsonSchema", "type")),
		bad(k, "request/response.jsonSchema/boolean-schema-is-rejected",
			"true is a valid JSON Schema, but the AQP schema requires jsonSchema to be an object.",
			resp(obj("format", "structured", "jsonSchema", true)), E("/response/jsonSchema", "type")),
		ok(k, "request/response.jsonSchema/declared-2020-12-is-valid",
			"A jsonSchema may declare $schema as draft 2020-12 explicitly.",
			resp(obj("format", "structured", "jsonSchema", obj("$schema", "https://json-schema.org/draft/2020-12/schema", "type", "object")))),
		ok(k, "request/response.jsonSchema/local-ref-to-defs-is-valid",
			"A $ref into the jsonSchema itself resolves offline.",
			resp(obj("format", "structured", "jsonSchema", obj(
				"$defs", obj("score", obj("type", "integer", "minimum", 0, "maximum", 10)),
				"type", "object",
				"properties", obj("score", obj("$ref", "#/$defs/score")),
			)))),
		bad(k, "request/response.jsonSchema/remote-ref-does-not-compile",
			"A remote $ref is never fetched (§3), so a jsonSchema that needs one does not compile and the request is invalid.",
			resp(obj("format", "structured", "jsonSchema", obj("$ref", "https://schemas.example/answer.schema.json"))),
			E("/response/jsonSchema", "compile")).beyondSchema(compileWhy),
		bad(k, "request/response.jsonSchema/draft-07-$schema-does-not-compile",
			"jsonSchema is compiled as draft 2020-12 only; declaring draft-07 makes the request invalid, pointing at the $schema member.",
			resp(obj("format", "structured", "jsonSchema", obj("$schema", "http://json-schema.org/draft-07/schema#", "type", "object"))),
			E("/response/jsonSchema/$schema", "compile")).beyondSchema(compileWhy),
		bad(k, "request/response.jsonSchema/draft-2019-09-$schema-does-not-compile",
			"Draft 2019-09 is not 2020-12 either.",
			resp(obj("format", "structured", "jsonSchema", obj("$schema", "https://json-schema.org/draft/2019-09/schema", "type", "object"))),
			E("/response/jsonSchema/$schema", "compile")).beyondSchema(compileWhy),
		bad(k, "request/response.jsonSchema/dangling-local-ref-does-not-compile",
			"A $ref to a $defs entry that does not exist cannot be resolved.",
			resp(obj("format", "structured", "jsonSchema", obj("$ref", "#/$defs/missing"))),
			E("/response/jsonSchema", "compile")).beyondSchema(compileWhy),
		bad(k, "request/response.jsonSchema/invalid-keyword-value-does-not-compile",
			"A jsonSchema that is not valid against the 2020-12 meta-schema (type 5) does not compile.",
			resp(obj("format", "structured", "jsonSchema", obj("type", 5))),
			E("/response/jsonSchema", "compile")).beyondSchema(compileWhy),
		bad(k, "request/response.jsonSchema/uncompilable-with-format-text-is-rejected",
			"jsonSchema applies whatever the format (§3), so it must compile with format text too.",
			resp(obj("format", "text", "jsonSchema", obj("$ref", "https://schemas.example/answer.schema.json"))),
			E("/response/jsonSchema", "compile")).beyondSchema(compileWhy),

		// choices.
		bad(k, "request/response.choices/string-is-rejected", "choices is an array of strings, not one string.",
			resp(obj("format", "choice", "choices", "yes,no")), E("/response/choices", "type")),
		bad(k, "request/response.choices/number-item-is-rejected", "Every choice is a string.",
			resp(obj("format", "choice", "choices", arr("yes", 0))), E("/response/choices/1", "type")),
		bad(k, "request/response.choices/minItems-0-is-too-few", "An empty set of choices can never be answered.",
			resp(obj("format", "choice", "choices", arr())), E("/response/choices", "minItems")),
		ok(k, "request/response.choices/minItems-1-is-enough", "One choice is the minimum.",
			resp(obj("format", "choice", "choices", arr("acknowledged")))),
		ok(k, "request/response.choices/maxItems-64-is-the-limit", "64 choices is the maximum.",
			resp(obj("format", "choice", "choices", choices(64)))),
		bad(k, "request/response.choices/maxItems-65-is-too-many", "65 choices is one past the maximum.",
			resp(obj("format", "choice", "choices", choices(65))), E("/response/choices", "maxItems")),
		bad(k, "request/response.choices/duplicate-is-rejected", "choices are uniqueItems: a repeated choice is ambiguous.",
			resp(obj("format", "choice", "choices", arr("yes", "no", "yes"))), E("/response/choices", "uniqueItems")),
		ok(k, "request/response.choices/differing-in-case-are-unique", "Uniqueness compares exact strings: Yes and yes are different choices.",
			resp(obj("format", "choice", "choices", arr("yes", "Yes")))),
		bad(k, "request/response.choices/empty-item-is-rejected", "A choice is at least one character.",
			resp(obj("format", "choice", "choices", arr("yes", ""))), E("/response/choices/1", "minLength")),
		bad(k, "request/response.choices/duplicate-and-empty-item-are-both-reported",
			"Two failures in one array are both reported, each at its own location: uniqueItems at the array, minLength at the item.",
			resp(obj("format", "choice", "choices", arr("", "yes", ""))), E("/response/choices", "uniqueItems"), E("/response/choices/0", "minLength"), E("/response/choices/2", "minLength")),

		// maxLength.
		ok(k, "request/response.maxLength/minimum-1-is-valid", "maxLength 1 is the minimum.", resp(obj("format", "text", "maxLength", 1))),
		ok(k, "request/response.maxLength/maximum-16000-is-valid", "maxLength 16000 is the maximum.", resp(obj("format", "text", "maxLength", 16000))),
		bad(k, "request/response.maxLength/0-is-below-minimum", "maxLength 0 would allow no answer at all.",
			resp(obj("format", "text", "maxLength", 0)), E("/response/maxLength", "minimum")),
		bad(k, "request/response.maxLength/negative-is-below-minimum", "A negative maxLength is meaningless.",
			resp(obj("format", "text", "maxLength", -1)), E("/response/maxLength", "minimum")),
		bad(k, "request/response.maxLength/16001-is-above-maximum", "16001 is one past the maximum.",
			resp(obj("format", "text", "maxLength", 16001)), E("/response/maxLength", "maximum")),
		bad(k, "request/response.maxLength/fraction-is-not-an-integer", "maxLength is an integer; 1.5 is not.",
			resp(obj("format", "text", "maxLength", num("1.5"))), E("/response/maxLength", "type")),
		ok(k, "request/response.maxLength/100.0-is-an-integer", "JSON Schema 2020-12 counts any number with a zero fraction as an integer, so 100.0 is a valid maxLength.",
			resp(obj("format", "text", "maxLength", num("100.0")))),
		bad(k, "request/response.maxLength/half-fails-type-and-minimum", "0.5 is not an integer and is below the minimum: every failing keyword is reported, not only the first.",
			resp(obj("format", "text", "maxLength", num("0.5"))), E("/response/maxLength", "minimum"), E("/response/maxLength", "type")),
		bad(k, "request/response.maxLength/string-is-rejected", "maxLength is a number, not a numeric string.",
			resp(obj("format", "text", "maxLength", "100")), E("/response/maxLength", "type")),

		// Unknown members.
		bad(k, "request/response/unknown-member-is-rejected", "response has additionalProperties false: minLength is not part of the contract.",
			resp(obj("format", "text", "minLength", 1)), E("/response/minLength", "additionalProperties")),
		bad(k, "request/response/misnamed-jsonSchema-is-rejected", "schema is not jsonSchema; with format structured the real member is then missing too.",
			resp(obj("format", "structured", "schema", obj("type", "object"))), E("/response/jsonSchema", "required"), E("/response/schema", "additionalProperties")),
	}
	return v
}
