/* ir/names.c: a small open-addressing hash map from names to node ids, so that loading and
 * verifying a graph of 100,000 nodes stays linear. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static size_t hash(const char *s) {
    size_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

void namemap_init(NameMap *m) { memset(m, 0, sizeof *m); }

void namemap_free(NameMap *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

NodeId namemap_get(const NameMap *m, const char *key) {
    if (!m->cap) return -1;
    for (size_t i = hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) return -1;
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
    }
}

static void put(NameMap *m, const char *key, NodeId v) {
    size_t i = hash(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) m->len++;
    m->keys[i] = key;
    m->vals[i] = v;
}

void namemap_put(NameMap *m, const char *key, NodeId v) {
    if ((m->len + 1) * 2 > m->cap) {
        NameMap old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->len = 0;
        m->keys = calloc(m->cap, sizeof *m->keys);
        m->vals = calloc(m->cap, sizeof *m->vals);
        if (!m->keys || !m->vals) abort();
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) put(m, old.keys[i], old.vals[i]);
        free(old.keys);
        free(old.vals);
    }
    put(m, key, v);
}
