package a2a

// ValueJSON exposes valueJSON to the package's external tests.
var ValueJSON = valueJSON
