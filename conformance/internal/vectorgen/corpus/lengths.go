package corpus

import "fmt"

func lengthVectors() []sv {
	var v []sv
	// bound adds the at-limit (valid) and past-limit (invalid) vectors of one string member.
	type member struct {
		kind string
		base func() object
		ptr  string
		min  int
		max  int
		pre  []mutation // makes the member allowed (e.g. consentMode ask_once for consentScope)
	}
	members := []member{
		{"request", request, "/prompt", 1, 4000, nil},
		{"request", request, "/instructions", 1, 4000, nil},
		{"request", request, "/dataPolicy", 1, 1000, nil},
		{"request", request, "/consentScope", 8, 256, []mutation{set("/consentMode", "ask_once")}},
		{"request", request, "/delivery/authorization", 1, 4096, nil},
		{"request", request, "/delivery/operation", 1, 128, nil},
		{"request", request, "/subject/id", 1, 512, nil},
		{"request", request, "/response/choices/0", 1, 256, nil},
		{"response", response, "/respondent/id", 1, 256, nil},
		{"response", response, "/explanation", 1, 4000, nil},
		{"response", fullResponse, "/consent/scope", 8, 256, nil},
		{"receipt", rejectedReceipt, "/error/message", 1, 1000, nil},
	}
	for _, m := range members {
		name := m.kind + dotted(m.ptr)
		if m.ptr == "/response/choices/0" {
			name = "request/response.choices.item"
		}
		doc := func(s string) any { return with(m.base(), append(append([]mutation{}, m.pre...), set(m.ptr, s))...) }
		if m.min == 1 {
			v = append(v, bad(m.kind, name+"/minLength-0-is-empty", fmt.Sprintf("%s is at least one character: an empty string says nothing.", m.ptr),
				doc(""), E(m.ptr, "minLength")))
		} else {
			v = append(v,
				ok(m.kind, fmt.Sprintf("%s/minLength-%d-is-enough", name, m.min), fmt.Sprintf("%d characters is %s's minimum.", m.min, m.ptr), doc(rep("s", m.min))),
				bad(m.kind, fmt.Sprintf("%s/minLength-%d-is-too-short", name, m.min-1), fmt.Sprintf("%d characters is one short of %s's minimum.", m.min-1, m.ptr),
					doc(rep("s", m.min-1)), E(m.ptr, "minLength")))
		}
		v = append(v,
			ok(m.kind, fmt.Sprintf("%s/maxLength-%d-is-the-limit", name, m.max), fmt.Sprintf("%d characters is %s's maximum.", m.max, m.ptr), doc(rep("a", m.max))),
			bad(m.kind, fmt.Sprintf("%s/maxLength-%d-is-too-long", name, m.max+1), fmt.Sprintf("%d characters is one past %s's maximum.", m.max+1, m.ptr),
				doc(rep("a", m.max+1)), E(m.ptr, "maxLength")))
	}
	// Bounds given in a format's unit rather than a plain string.
	endpoint := func(n int) string {
		const prefix = "https://queries.example/"
		return prefix + rep("r", n-len(prefix))
	}
	pointer := func(n int) string { return "/" + rep("p", n-1) }
	v = append(v,
		ok("request", "request/delivery.endpoint/maxLength-2048-is-the-limit", "An endpoint URI of 2048 characters is the maximum.",
			with(request(), set("/delivery/endpoint", endpoint(2048)))),
		bad("request", "request/delivery.endpoint/maxLength-2049-is-too-long", "An endpoint URI of 2049 characters is one past the maximum (and still a valid URI).",
			with(request(), set("/delivery/endpoint", endpoint(2049))), E("/delivery/endpoint", "maxLength")),
		bad("request", "request/delivery.endpoint/invalid-uri-past-maxLength-fails-both",
			"A 2049-character endpoint with a space fails format and maxLength, both in one schema object: both are reported.",
			with(request(), set("/delivery/endpoint", endpoint(2049)[:2040]+" "+rep("r", 8))), E("/delivery/endpoint", "format"), E("/delivery/endpoint", "maxLength")),
		ok("receipt", "receipt/error.pointer/maxLength-2048-is-the-limit", "An error pointer of 2048 characters is the maximum.",
			with(rejectedReceipt(), set("/error/pointer", pointer(2048)))),
		bad("receipt", "receipt/error.pointer/maxLength-2049-is-too-long", "An error pointer of 2049 characters is one past the maximum.",
			with(rejectedReceipt(), set("/error/pointer", pointer(2049))), E("/error/pointer", "maxLength")),
	)

	// Code points, not bytes, not UTF-16 units, not graphemes (D5).
	askOnce := func(sc string) any { return with(request(), set("/consentMode", "ask_once"), set("/consentScope", sc)) }
	v = append(v,
		ok("request", "request/prompt/4000-astral-code-points-is-the-limit",
			"4000 × U+1F600 is 4000 code points (16000 UTF-8 bytes, 8000 UTF-16 units): exactly the maximum. A validator counting bytes or UTF-16 units wrongly rejects it.",
			with(request(), set("/prompt", rep(grinning, 4000)))),
		bad("request", "request/prompt/4001-astral-code-points-is-too-long",
			"4001 × U+1F600 is one code point past the maximum.",
			with(request(), set("/prompt", rep(grinning, 4001))), E("/prompt", "maxLength")),
		ok("request", "request/prompt/4000-two-byte-code-points-is-the-limit",
			"4000 × é (U+00E9) is 4000 code points in 8000 bytes: exactly the maximum.",
			with(request(), set("/prompt", rep(eAcute, 4000)))),
		bad("request", "request/prompt/4001-two-byte-code-points-is-too-long",
			"4001 × é is one code point past the maximum.",
			with(request(), set("/prompt", rep(eAcute, 4001))), E("/prompt", "maxLength")),
		ok("request", "request/prompt/combining-marks-count-as-code-points-at-the-limit",
			"2000 × e + U+0301 is 2000 graphemes but 4000 code points: exactly the maximum.",
			with(request(), set("/prompt", rep(eComb, 2000)))),
		bad("request", "request/prompt/combining-marks-count-as-code-points-past-the-limit",
			"2000 × e + U+0301 followed by one more e is 4001 code points though only 2001 graphemes: too long, because lengths count code points, not what a reader sees.",
			with(request(), set("/prompt", rep(eComb, 2000)+"e")), E("/prompt", "maxLength")),
		ok("request", "request/consentScope/8-two-byte-code-points-is-enough",
			"8 × é is 8 code points (16 bytes): exactly the minimum.",
			askOnce(rep(eAcute, 8))),
		bad("request", "request/consentScope/7-two-byte-code-points-is-too-short",
			"7 × é is 14 bytes — more than 8 — but only 7 code points: too short. A validator counting bytes wrongly accepts it.",
			askOnce(rep(eAcute, 7)), E("/consentScope", "minLength")),
		bad("request", "request/consentScope/4-astral-code-points-is-too-short",
			"4 × U+1F600 is 8 UTF-16 units but 4 code points: too short. A validator counting UTF-16 units (JavaScript's length) wrongly accepts it.",
			askOnce(rep(grinning, 4)), E("/consentScope", "minLength")),
		ok("request", "request/consentScope/8-astral-code-points-is-enough",
			"8 × U+1F600 is 8 code points: exactly the minimum.",
			askOnce(rep(grinning, 8))),
		ok("request", "request/consentScope/256-astral-code-points-is-the-limit",
			"256 × U+1F600 is 256 code points (512 UTF-16 units, 1024 bytes): exactly the maximum.",
			askOnce(rep(grinning, 256))),
		bad("request", "request/consentScope/257-astral-code-points-is-too-long",
			"257 × U+1F600 is one code point past the maximum.",
			askOnce(rep(grinning, 257)), E("/consentScope", "maxLength")),
		ok("request", "request/subject.id/512-astral-code-points-is-the-limit",
			"512 × U+1F600 is 512 code points: exactly the maximum of subject.id.",
			with(request(), set("/subject/id", rep(grinning, 512)))),
		textDoc("request", "request/consentScope/escaped-code-points-count-once",
			"In the JSON text consentScope is eight \\u00e9 escapes (48 characters of text); decoded it is 8 code points, exactly the minimum. Lengths apply to the decoded string.",
			`{"protocolVersion":"2026-07-30","queryId":"`+queryID+`","type":"feedback","subject":{"kind":"task","id":"task-42"},`+
				`"prompt":"How did it go?","timing":"immediate","consentMode":"ask_once","consentScope":"`+rep(`\u00e9`, 8)+`",`+
				`"response":{"format":"text"},"delivery":{"binding":"https"},"expiresAt":"`+expiresAt+`"}`, true),
		textDoc("request", "request/consentScope/escaped-surrogate-pairs-count-as-one-code-point-each",
			"In the JSON text consentScope is seven escaped surrogate pairs (\\ud83d\\ude00, 14 escapes); decoded it is 7 code points: too short.",
			`{"protocolVersion":"2026-07-30","queryId":"`+queryID+`","type":"feedback","subject":{"kind":"task","id":"task-42"},`+
				`"prompt":"How did it go?","timing":"immediate","consentMode":"ask_once","consentScope":"`+rep(`\ud83d\ude00`, 7)+`",`+
				`"response":{"format":"text"},"delivery":{"binding":"https"},"expiresAt":"`+expiresAt+`"}`, false, E("/consentScope", "minLength")),
	)
	return v
}
