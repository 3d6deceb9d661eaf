package wire

// ProtocolVersion is the AQP version a document declares in its protocolVersion member. It is a plain string, not
// an enum: a document of another version must still decode, so that a collector can answer it with
// unsupported_version rather than fail to read it.
type ProtocolVersion string

// ProtocolVersion20260730 is the version this module implements, the only value the 2026-07-30 schemas accept.
const ProtocolVersion20260730 ProtocolVersion = "2026-07-30"
