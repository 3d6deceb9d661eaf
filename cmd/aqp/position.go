package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineColumn maps a byte offset in data to a 1-based line and column, for a person looking at the file in an
// editor: lines end at \n, and the column counts characters (UTF-8 code points), not bytes. An offset past the end
// of data is clamped to the end, which is where a truncated document's error is.
func lineColumn(data []byte, offset int) (line, column int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(data) {
		offset = len(data)
	}
	line, start := 1, 0
	for i := 0; i < offset; i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(data[start:offset]) + 1
}

// byteOffsetRE finds the byte offset core's JSON errors report.
var byteOffsetRE = regexp.MustCompile(`at byte offset (\d+)`)

// locateJSONError adds the line and column to a JSON error message that reports a byte offset in data. An end of
// input is always at the end of data, whatever offset the message reports (the decoder of the day reports where
// the last complete value started).
func locateJSONError(data []byte, msg string) string {
	loc := byteOffsetRE.FindStringSubmatchIndex(msg)
	if loc == nil {
		return msg
	}
	offset, err := strconv.Atoi(msg[loc[2]:loc[3]])
	if err != nil {
		return msg
	}
	if strings.Contains(msg, "end of input") {
		offset = len(data)
	}
	line, col := lineColumn(data, offset)
	return msg[:loc[0]] + fmt.Sprintf("at byte offset %d (line %d, column %d)", offset, line, col) + msg[loc[1]:]
}
