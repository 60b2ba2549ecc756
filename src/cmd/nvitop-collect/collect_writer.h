/*
 * Collector results as rows of a file: CSV (a header of keys, a row per collect) or JSON Lines
 * (one object per collect).
 *
 * Keys come and go during a run (a process starts after the first row).  JSON Lines simply has
 * them in the rows where they exist.  CSV has one header: columns are the keys in order of first
 * appearance; a row lacking a key has an empty cell (so has a N/A value).  When a new key appears
 * and the output is a regular file, the whole file is rewritten in place with the wider header
 * (rows are kept in memory for that); on a pipe or terminal, which cannot be rewritten, new keys
 * are left out and a warning says so once.
 *
 * Numbers are written in the shortest form that reads back as the same double.  Programs only
 * (allocations abort on failure).  Not thread-safe.
 */
#ifndef NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_WRITER_H
#define NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <nvitop/collector.h>

enum collect_format {
    COLLECT_CSV,
    COLLECT_JSONL
};

struct collect_writer;

/* Write to out (not closed by the writer).  rewritable: out is a regular file opened for writing
 * from its start, which the CSV writer may rewrite.  warn_prog: program name for warnings. */
struct collect_writer *collect_writer_new(FILE *out, bool rewritable, enum collect_format format,
                                          const char *warn_prog);

/* Append one row.  Returns false on a write error (errno says why). */
bool collect_writer_row(struct collect_writer *writer, const struct nvt_metric *metrics,
                        size_t count);

/* Free the writer (flushes nothing more: every row is flushed as written).  Accepts NULL. */
void collect_writer_free(struct collect_writer *writer);

/* The shortest "%.Ng" form of value that strtod() reads back exactly ("" for NaN).  buf needs 32
 * bytes. */
void collect_format_number(char *buf, size_t size, double value);

#endif /* NVITOP_SRC_CMD_NVITOP_COLLECT_COLLECT_WRITER_H */
