// Package table is the results table of dlsched: records (one map of
// column → cell per row, with the input columns that identify a row),
// filters (COLUMN=VALUE[,VALUE...], numbers compared by value), column
// selection and the chart query that turns records into a plotting.Chart
// (x and y columns, series, filters, differences to a baseline,
// aggregation, reference lines, axis titles in words with units), and the
// number formatting of keys, CSV cells and records (FormatFloat: the
// shortest decimal that reads back exactly, "inf").
//
// sweep turns results rows into records (sweep.RowRecords) and writes its
// CSV with WriteCSV; the command line's plot draws Chart's answer. Errors
// about a query name its options in the library's words (QueryError:
// "invalid x W: no such column"); only the command line writes them as
// flags.
package table
