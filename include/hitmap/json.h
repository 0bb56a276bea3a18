/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_JSON_H
#define HITMAP_JSON_H

/* A small streaming JSON emitter shared by every --json output. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct hm_json;

struct hm_json *hm_json__new(FILE *f, bool pretty);
/* Ends any open containers, writes a newline, frees.  Accepts NULL. */
void hm_json__delete(struct hm_json *j);

/* @key is NULL inside arrays and at top level. */
void hm_json__obj_begin(struct hm_json *j, const char *key);
void hm_json__obj_end(struct hm_json *j);
void hm_json__arr_begin(struct hm_json *j, const char *key);
void hm_json__arr_end(struct hm_json *j);
void hm_json__str(struct hm_json *j, const char *key, const char *val);	/* NULL -> null */
void hm_json__u64(struct hm_json *j, const char *key, uint64_t val);
void hm_json__s64(struct hm_json *j, const char *key, int64_t val);
void hm_json__double(struct hm_json *j, const char *key, double val);	/* non-finite -> null */
void hm_json__bool(struct hm_json *j, const char *key, bool val);
void hm_json__hex(struct hm_json *j, const char *key, uint64_t val);	/* "0x..." string */

/* Write @s JSON-escaped (with quotes) to @f. */
void hm_json__write_string(FILE *f, const char *s);

#endif
