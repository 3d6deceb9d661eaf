// Package wire holds the scalar types AQP documents are made of, written so that a document read into Go and
// written back is the same JSON value: a date-time keeps its exact text (RFC 3339 allows forms time.Time cannot
// hold, such as a lowercase "t" or a leap second), a number keeps its exact decimal text (a float64 would round
// 2^53+1 and turn 0.90 into 0.9), an integer accepts every integer-valued JSON number (60.0, 6e1) exactly.
//
// The generated types of package gen/aqp use these for their members; package core validates whole documents.
// This package imports nothing else of the module, so any package can use it.
package wire
