//go:build race

package core_test

// raceEnabled: the race detector slows everything several-fold, so timing assertions are skipped under it.
const raceEnabled = true
