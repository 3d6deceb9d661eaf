package wire

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Number is a JSON number kept as its exact text, like json.Number: 0.90 stays 0.90 and 2^53+1 stays exact, where
// a float64 would round both. It is written back verbatim, so a document decoded and encoded again carries the
// same number text (what "same content" compares, decision D16). Float64, Int64 and Rat read its value; Equal
// compares two numbers by exact decimal value.
type Number string

// String returns the number's text.
func (n Number) String() string { return string(n) }

// MarshalJSON writes the text verbatim; text that is not a JSON number (RFC 8259 §6) is an error.
func (n Number) MarshalJSON() ([]byte, error) {
	if _, err := parseDecimal(string(n)); err != nil {
		return nil, fmt.Errorf("wire: Number %q: %w", short(string(n)), err)
	}
	return []byte(n), nil
}

// UnmarshalJSON accepts a JSON number and keeps its text; a string, boolean, object or array is an error (a
// quoted "0.9" is not a number); null leaves n unchanged, as encoding/json does for other types.
func (n *Number) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if _, err := parseDecimal(string(data)); err != nil {
		return fmt.Errorf("wire: a number must be a JSON number, got %s", describe(data))
	}
	*n = Number(data)
	return nil
}

// Float64 returns the nearest float64. A number beyond float64's range is an error (with ±Inf), as strconv
// reports it; one too small for float64 rounds to zero.
func (n Number) Float64() (float64, error) {
	if _, err := parseDecimal(string(n)); err != nil {
		return 0, fmt.Errorf("wire: Number %q: %w", short(string(n)), err)
	}
	return strconv.ParseFloat(string(n), 64)
}

// Int64 returns the number's value when it is an integer that fits in 64 bits, whatever its form: 60, 60.0, 6e1
// and 600e-1 are all 60. A fractional value or one out of range is an error saying which.
func (n Number) Int64() (int64, error) {
	d, err := parseDecimal(string(n))
	if err != nil {
		return 0, fmt.Errorf("wire: Number %q: %w", short(string(n)), err)
	}
	return d.int64(string(n))
}

// maxRatExponent bounds the power of ten Rat will expand: 10^10000 is a 33,000-bit integer, far beyond any value a
// document means, and "1e999999999" must not cost a gigabyte.
const maxRatExponent = 10000

// Rat returns the number's exact value as a rational. A number whose power of ten exceeds ±10000 is an error
// rather than an unbounded computation.
func (n Number) Rat() (*big.Rat, error) {
	d, err := parseDecimal(string(n))
	if err != nil {
		return nil, fmt.Errorf("wire: Number %q: %w", short(string(n)), err)
	}
	r := new(big.Rat)
	if d.digits == "" {
		return r, nil
	}
	if d.exp.big != "" || d.exp.small > maxRatExponent || d.exp.small < -maxRatExponent {
		return nil, fmt.Errorf("wire: Number %s: power of ten beyond ±%d", short(string(n)), maxRatExponent)
	}
	m, _ := new(big.Int).SetString(d.digits, 10)
	e := d.exp.small
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs(e)), nil)
	if e >= 0 {
		r.SetInt(m.Mul(m, p))
	} else {
		r.SetFrac(m, p)
	}
	if d.neg {
		r.Neg(r)
	}
	return r, nil
}

// Equal reports whether two numbers have the same exact decimal value: 1 equals 1.0 and 1e0, 0.90 equals 0.9,
// -0 equals 0, and 9007199254740993 differs from 9007199254740992. Text that is not a JSON number equals nothing.
func (n Number) Equal(o Number) bool {
	a, errA := parseDecimal(string(n))
	b, errB := parseDecimal(string(o))
	return errA == nil && errB == nil && a.neg == b.neg && a.digits == b.digits && a.exp.equal(b.exp)
}

// Integer is a JSON Schema "integer": any JSON number whose value is an integer, whatever its form (60, 60.0, 6e1),
// held exactly as an int64. A fraction (60.5) or a value beyond 64 bits is a decoding error that says so, where
// *int would refuse 60.0 outright. It encodes as a plain integer.
type Integer int64

// UnmarshalJSON accepts an integer-valued JSON number; null leaves n unchanged, as encoding/json does for other
// types.
func (n *Integer) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	d, err := parseDecimal(string(data))
	if err != nil {
		return fmt.Errorf("wire: an integer must be a JSON number, got %s", describe(data))
	}
	v, err := d.int64(string(data))
	if err != nil {
		return fmt.Errorf("wire: %w", err)
	}
	*n = Integer(v)
	return nil
}

// decimal is a JSON number's exact value: ±digits × 10^exp, digits without leading or trailing zeros ("" for
// zero, which has no sign and exponent 0). Two numbers are equal exactly when their decimals are.
type decimal struct {
	neg    bool
	digits string
	exp    exponent
}

// exponent is an exact power of ten in one canonical form: small when its magnitude is below 10^18, otherwise
// its sign and decimal digits. Reading "1e" followed by a megabyte of digits exactly must cost linear time, which a
// big.Int (quadratic decimal conversion: seconds for a megabyte) does not.
type exponent struct {
	small int64
	neg   bool   // the sign, when big is set
	big   string // the magnitude's digits (at least 19, no leading zeros), or "" when small holds the exponent
}

func (e exponent) equal(o exponent) bool { return e == o }

// sign is -1, 0 or 1.
func (e exponent) sign() int {
	switch {
	case e.big != "" && e.neg, e.big == "" && e.small < 0:
		return -1
	case e.big == "" && e.small == 0:
		return 0
	}
	return 1
}

// newExponent returns the exponent ±mag + delta, where mag is the exponent's digits as written and |delta| < 2^40
// (a document has fewer digits than that), in the canonical form: small exactly when the magnitude is below 10^18.
func newExponent(neg bool, mag string, delta int64) exponent {
	const limit = 1_000_000_000_000_000_000
	mag = strings.TrimLeft(mag, "0")
	if len(mag) <= 18 {
		v, _ := strconv.ParseInt("0"+mag, 10, 64)
		if neg {
			v = -v
		}
		v += delta // |v| < 10^18 + 2^40: no overflow
		if -limit < v && v < limit {
			return exponent{small: v}
		}
		if v < 0 {
			return exponent{neg: true, big: strconv.FormatInt(-v, 10)}
		}
		return exponent{big: strconv.FormatInt(v, 10)}
	}
	// |±mag| ≥ 10^18 > |delta|: the sign is mag's, and the magnitude moves by delta towards or away from zero.
	if neg {
		delta = -delta
	}
	mag = addToMagnitude(mag, delta)
	if len(mag) <= 18 {
		v, _ := strconv.ParseInt(mag, 10, 64)
		if neg {
			v = -v
		}
		return exponent{small: v}
	}
	return exponent{neg: neg, big: mag}
}

// addToMagnitude returns mag + d for a decimal magnitude of at least 19 digits and |d| < 10^18, in linear time:
// the last 19 digits take d, and a carry or borrow ripples into the rest.
func addToMagnitude(mag string, d int64) string {
	const base = uint64(10_000_000_000_000_000_000)
	head, tail := mag[:len(mag)-19], mag[len(mag)-19:]
	t, _ := strconv.ParseUint(tail, 10, 64)
	if d >= 0 {
		t += uint64(d)
		if t >= base {
			t -= base
			head = stepDigits(head, 1)
		}
	} else if u := uint64(-d); t >= u {
		t -= u
	} else {
		t = t + base - u
		head = stepDigits(head, -1) // head > 0 here: mag ≥ 10^18 and t < 10^18 mean mag has more than 19 digits
	}
	return strings.TrimLeft(head+fmt.Sprintf("%019d", t), "0")
}

// stepDigits adds 1 or -1 to a non-negative decimal string.
func stepDigits(s string, step int) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if step > 0 {
			if b[i] < '9' {
				b[i]++
				return string(b)
			}
			b[i] = '0'
		} else {
			if b[i] > '0' {
				b[i]--
				return string(b)
			}
			b[i] = '9'
		}
	}
	if step > 0 {
		return "1" + string(b)
	}
	return string(b) // only reached for "0" - 1, which callers never ask for
}

// parseDecimal checks s against the JSON number grammar (RFC 8259 §6) and returns its exact value, in time linear
// in len(s).
func parseDecimal(s string) (decimal, error) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return decimal{}, errors.New("not a JSON number: digits must follow the optional '-'")
	}
	intPart := s[intStart:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return decimal{}, errors.New("not a JSON number: a digit must follow '.'")
		}
		frac = s[start:i]
	}
	expNeg, expDigits := false, ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return decimal{}, errors.New("not a JSON number: a digit must follow the exponent's 'e'")
		}
		expDigits = s[start:i]
	}
	if i != len(s) {
		return decimal{}, fmt.Errorf("not a JSON number: unexpected %q at offset %d", s[i], i)
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return decimal{}, nil
	}
	delta := int64(len(digits)-len(trimmed)) - int64(len(frac))
	return decimal{neg: neg, digits: trimmed, exp: newExponent(expNeg, expDigits, delta)}, nil
}

// int64 returns the decimal's value as an int64, or why it is not one; text names the number in the message.
func (d decimal) int64(text string) (int64, error) {
	if d.digits == "" {
		return 0, nil
	}
	if d.exp.sign() < 0 {
		return 0, fmt.Errorf("%s is not an integer: it has a fractional part", short(text))
	}
	// 2^63 has 19 digits: more than 19 cannot fit, 19 might.
	if d.exp.big != "" || int64(len(d.digits))+d.exp.small > 19 {
		return 0, fmt.Errorf("%s is out of the range of a 64-bit integer", short(text))
	}
	s := d.digits + strings.Repeat("0", int(d.exp.small))
	if d.neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is out of the range of a 64-bit integer", short(text))
	}
	return v, nil
}

// short cuts number text for a message to 40 bytes: a megabyte of digits must not become a megabyte of error.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
