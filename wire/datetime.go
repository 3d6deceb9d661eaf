package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// DateTime is an RFC 3339 date-time (§5.6) kept as its exact text. time.Time cannot carry every date-time the
// schemas accept — a lowercase "t" or "z", a leap second (23:59:60Z), more than nine fraction digits, the offset
// as written — so a document decoded into time.Time and encoded again would change or fail. A DateTime decoded
// from JSON is always a valid date-time; Time gives its instant.
type DateTime string

// NewDateTime formats t as AQP writes its own timestamps: UTC with milliseconds, "2026-07-30T17:05:13.000Z".
// t must lie in the years 0000–9999, the range RFC 3339 can write.
func NewDateTime(t time.Time) DateTime {
	return DateTime(t.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// Time returns the instant the date-time names, with its offset as a fixed zone; a leap second counts as the first
// instant of the next minute. The error says which RFC 3339 rule the text breaks.
func (d DateTime) Time() (time.Time, error) { return ParseDateTime(string(d)) }

// String returns the date-time's text.
func (d DateTime) String() string { return string(d) }

// MarshalJSON writes the text unchanged, as a JSON string, whatever it holds: a hand-built object with a bad
// date-time then encodes, and validating it (core.ValidateObject) reports the bad member at its own pointer
// ("/createdAt"), where an encoding error could only say that the whole value failed.
func (d DateTime) MarshalJSON() ([]byte, error) { return json.Marshal(string(d)) }

// UnmarshalJSON accepts a JSON string holding an RFC 3339 date-time and keeps its text exactly; null leaves d
// unchanged, as encoding/json does for other types.
func (d *DateTime) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("wire: a date-time must be a JSON string, got %s", describe(data))
	}
	if _, err := ParseDateTime(s); err != nil {
		return fmt.Errorf("wire: %q is not an RFC 3339 date-time: %w", s, err)
	}
	*d = DateTime(s)
	return nil
}

// ParseDateTime parses an RFC 3339 date-time (§5.6) into an instant. Unlike time.Parse it accepts every form the
// RFC allows — lowercase "t" and "z", any number of fraction digits, a leap second (23:59:60 in UTC, counted as
// the first instant of the next day) — and rejects every form it does not: a missing offset, an offset without a
// colon, a space for "T", out-of-range fields.
func ParseDateTime(s string) (time.Time, error) {
	// full-date "T" partial-time time-offset; the shortest is 2006-01-02T15:04:05Z (20 bytes).
	if len(s) < 20 {
		return time.Time{}, fmt.Errorf("too short for an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss and an offset)")
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			if !isDigit(s[i]) {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, errors.New("date must be YYYY-MM-DD")
	}
	if month < 1 || month > 12 {
		return time.Time{}, fmt.Errorf("month %02d is out of range 01-12", month)
	}
	if day < 1 || day > daysIn(year, month) {
		return time.Time{}, fmt.Errorf("day %02d is out of range for %04d-%02d", day, year, month)
	}
	if s[10] != 'T' && s[10] != 't' {
		return time.Time{}, fmt.Errorf("date and time must be separated by \"T\", got %q", s[10])
	}
	hour, ok1 := num(11, 13)
	minute, ok2 := num(14, 16)
	second, ok3 := num(17, 19)
	if !ok1 || !ok2 || !ok3 || s[13] != ':' || s[16] != ':' {
		return time.Time{}, errors.New("time must be hh:mm:ss")
	}
	if hour > 23 || minute > 59 || second > 60 {
		return time.Time{}, fmt.Errorf("time %02d:%02d:%02d is out of range", hour, minute, second)
	}
	rest := s[19:]
	nanos := 0
	if rest != "" && rest[0] == '.' {
		i := 1
		for i < len(rest) && isDigit(rest[i]) {
			if i <= 9 {
				nanos = nanos*10 + int(rest[i]-'0')
			}
			i++
		}
		if i == 1 {
			return time.Time{}, errors.New("a fraction of a second needs at least one digit after \".\"")
		}
		for d := i - 1; d < 9; d++ {
			nanos *= 10
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(len(s)-5, len(s)-3)
		om, ok2 := num(len(s)-2, len(s))
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return time.Time{}, fmt.Errorf("offset %q is out of range (+hh:mm, hh 00-23, mm 00-59)", rest)
		}
		offset = oh*3600 + om*60
		if rest[0] == '-' {
			offset = -offset
		}
	case rest == "":
		return time.Time{}, errors.New("an offset is required (\"Z\" or +hh:mm/-hh:mm)")
	default:
		return time.Time{}, fmt.Errorf("offset must be \"Z\" or +hh:mm/-hh:mm, got %q", rest)
	}
	leap := second == 60
	if leap {
		second = 59
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.FixedZone("", offset))
	if leap {
		if u := t.UTC(); u.Hour() != 23 || u.Minute() != 59 {
			return time.Time{}, errors.New("a leap second (:60) can only be 23:59:60 in UTC")
		}
		t = t.Add(time.Second)
	}
	return t, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// describe names the JSON type of a value's text for an error message.
func describe(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch data[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
