package wire

// ProtocolVersion is the AQP version a document declares in its protocolVersion member. It is a plain string, not
// an enum: a document of another version must still decode, so that a collector can answer it with
// unsupported_version rather than fail to read it. The version this module implements is spec.ProtocolVersion, the
// one constant of it (wire imports nothing of this module, so it does not repeat it).
type ProtocolVersion string
