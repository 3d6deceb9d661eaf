package core_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestErrorsIsNotAnError pins that a validation result cannot be returned as a non-nil error by accident: Errors has
// no Error method (so `var err error = core.Validate(...)` does not compile), and Err is nil exactly when the list
// is empty.
func TestErrorsIsNotAnError(t *testing.T) {
	if reflect.TypeFor[core.Errors]().Implements(reflect.TypeFor[error]()) {
		t.Fatal("core.Errors implements error: an empty list returned as error would be a non-nil error for a valid document")
	}
	valid := core.Validate(core.KindRequest, []byte(exampleQuery))
	if err := valid.Err(); err != nil || !valid.Valid() {
		t.Fatalf("valid request: Err() = %v, Valid() = %v; want nil, true", err, valid.Valid())
	}
	if err := core.Errors(nil).Err(); err != nil {
		t.Fatalf("nil Errors: Err() = %v, want nil", err)
	}
	bad := core.Validate(core.KindRequest, []byte(`{}`))
	err := bad.Err()
	if err == nil || bad.Valid() {
		t.Fatal("empty object: Err() = nil, want the failures")
	}
	var ve core.ValidationError
	if !errors.As(err, &ve) || !reflect.DeepEqual(core.Errors(ve), bad) {
		t.Fatalf("errors.As(Err()) = %v, want the same list back", ve)
	}
	if err.Error() != bad.String() {
		t.Fatalf("Err().Error() = %q, want String() %q", err.Error(), bad.String())
	}
}

// ExampleErrors_Err shows the one conversion to use where a function returns error: nil for a valid document.
func ExampleErrors_Err() {
	check := func(b []byte) error { return core.Validate(core.KindReceipt, b).Err() }
	fmt.Println(check([]byte(`{"aqpVersion":"2026-07-30"}`)) != nil)
	// Output: true
}
