/* ir/json_read.h: what ir/json_read.c (the graph file) and ir/json_train.c (its "train" section)
 * share: the reader's state, the failure macros and the message helpers. Internal to ir/. */
#ifndef GTC_JSON_READ_H
#define GTC_JSON_READ_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "ir.h"

/* Operand names wait here until every node is known, so nodes may be listed in any order. */
typedef struct {
    const char *names[IR_MAX_INPUTS]; /* NULL for constants */
} Pending;

typedef struct {
    Graph *g;
    Diag *d;
    Pending *pend;
} Reader;

#define FAIL(...) (diag_at(r->d, __VA_ARGS__), -1)
#define NFAIL(n, ...) (diag_node(r->d, n, __VA_ARGS__), -1)

/* The kind of a JSON value for messages ("a string", "a list", ...). */
const char *json_type_name(const cJSON *j);
/* A string from the file as messages show it: quoted, escaped, cut after about 64 bytes; buf
 * holds QBUF bytes. */
#define QBUF 400
const char *json_quote(const char *s, char *buf);
/* What a value is, for "got ..." in messages: the number itself, else its kind. */
const char *json_describe(const cJSON *j, char *buf, size_t n);
/* Checks an object's keys: each in the NULL-terminated `allowed`, none twice (messages name the
 * node n, or the path loc). */
int json_check_keys(Reader *r, const cJSON *obj, const char *const *allowed, const Node *n, const char *loc);
/* The "train" section into r->g->train (json_train.c), then its checks once the graph is verified. */
int json_read_train(Reader *r, const cJSON *j);
int json_check_train(Reader *r);

#endif
