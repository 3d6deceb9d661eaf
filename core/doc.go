// Package core decides what is valid in AQP, and nothing else: it knows no transport, store or clock of its own.
//
// It holds the protocol's rules in one place each, so that the collector, every binding and the respondent apply
// them identically:
//
//   - decoding (I-JSON, RFC 7493: no duplicate member names, no lone surrogates; bounded size, depth and numbers)
//     and validation of the three canonical objects against spec/'s JSON Schemas, with the formats of D4
//     asserted ([Parse], [Validate]), reporting every failure as an [Error] with a stable [Code], a JSON
//     Pointer and the failing keyword;
//   - the typed path over the generated types of gen/aqp ([ParseRequest], [ParseResponse], [ParseReceipt],
//     [ValidateObject], [NewResponse], [CheckObjects]) for programs that build or read documents;
//   - the answer contract (§3) and the paired checks of §4 in their pinned order ([CheckResponse], [CheckPair],
//     [ValidatePair]);
//   - the one set of codes every part of the module speaks ([Code], [ReceiptCodes]);
//   - the canonical encoding that verdicts are computed on, so that no verdict depends on the bytes a client's
//     JSON library wrote ([EncodeCanonical], D12, D16), and the compact writer the collector writes documents with
//     ([CompactJSON], D19).
//
// The decisions the seeds leave open are in spec/DECISIONS.md; functions cite them by number.
package core
