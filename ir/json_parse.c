/* ir/json_parse.c: the text of a graph file to a cJSON tree. Every reason the text is not a JSON
 * graph file before its structure is looked at (size, UTF-8, NUL bytes, JSON syntax, text after
 * the object, a \u0000 escape) gets one message with its line and column. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "json_parse.h"

/* Finds the byte offset of the first invalid UTF-8 sequence, or -1. */
static long utf8_invalid(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t k = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
        if (k == 9 || (k == 1 && c < 0xC2) || (c == 0xF4 && i + 1 < n && s[i + 1] > 0x8F) || c > 0xF4)
            return (long)i;
        if (i + k >= n + (k ? 0 : 1) && k) return (long)i;
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xC0) != 0x80) return (long)i;
        if (k == 2 && ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F))) return (long)i;
        if (k == 3 && c == 0xF0 && s[i + 1] < 0x90) return (long)i;
        i += k + 1;
    }
    return -1;
}

#define JSON_STR2(x) #x
#define JSON_STR(x) JSON_STR2(x)

/* Whether offset `at` (outside strings) lies directly in an object rather than a list. */
static bool in_object(const char *text, size_t at) {
    char kind[CJSON_NESTING_LIMIT + 2] = {0};
    long depth = 0;
    bool str = false;
    for (size_t i = 0; i < at; i++) {
        char c = text[i];
        if (str) {
            if (c == '\\') i++;
            else if (c == '"') str = false;
        } else if (c == '"') {
            str = true;
        } else if ((c == '[' || c == '{') && depth <= CJSON_NESTING_LIMIT) {
            kind[++depth] = c;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return kind[depth] == '{';
}

/* Where and why cJSON's parse failed, as exactly as cJSON lets us tell:
 *  - a scan finds nesting deeper than cJSON accepts and a string still open at the end;
 *  - a literal or number that runs into the end of the text was cut by it;
 *  - cJSON reports a failure at the end of the text at the last byte, so such a failure is
 *    parsed again with two spaces appended: a truncated text then fails past its own end;
 *  - cJSON reports a key that does not start with '"' one byte late; that is undone. */
static size_t json_error(const char *text, size_t len, const char **why) {
    const char *ep = cJSON_GetErrorPtr();
    size_t off = ep && ep >= text && ep <= text + len ? (size_t)(ep - text) : len;
    long depth = 0, deep = -1, open = -1; /* open: where the string open at the end starts */
    for (size_t i = 0; i < len && deep < 0; i++) {
        char c = text[i];
        if (open >= 0) {
            if (c == '\\') i++;
            else if (c == '"') open = -1;
        } else if (c == '"') {
            open = (long)i;
        } else if (c == '[' || c == '{') {
            if (++depth > CJSON_NESTING_LIMIT) deep = (long)i;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    *why = "";
    if (deep >= 0 && (size_t)deep <= off) {
        *why = ": nested more than " JSON_STR(CJSON_NESTING_LIMIT) " levels deep";
        return (size_t)deep;
    }
    if (deep < 0 && open >= 0 && off >= (size_t)open) {
        *why = ": unexpected end of file inside a string";
        return len;
    }
    size_t tail = len - (off < len ? off : len), digits = 0; /* a literal or number cut short */
    while (digits < tail && strchr("0123456789+-.eE", text[off + digits])) digits++;
    if (tail && (digits == tail ||
                 (tail < 5 && (!strncmp(text + off, "true", tail) || !strncmp(text + off, "false", tail) ||
                               !strncmp(text + off, "null", tail))))) {
        *why = ": unexpected end of file";
        return len;
    }
    if (off + 1 >= len) {
        char *pad = malloc(len + 3);
        if (!pad) abort();
        memcpy(pad, text, len);
        memcpy(pad + len, "  ", 3);
        cJSON *again = cJSON_ParseWithLength(pad, len + 2);
        ep = cJSON_GetErrorPtr();
        size_t at = !again && ep && ep >= pad && ep <= pad + len + 2 ? (size_t)(ep - pad) : 0;
        cJSON_Delete(again);
        free(pad);
        if (at > len) {
            *why = ": unexpected end of file";
            return len;
        }
    }
    if (off >= 1 && off < len && !strchr("\" \t\r\n", text[off - 1])) {
        size_t k = off - 1;
        while (k > 0 && strchr(" \t\r\n", text[k - 1])) k--;
        if (k > 0 && (text[k - 1] == '{' || (text[k - 1] == ',' && in_object(text, k - 1)))) off--;
    }
    return off;
}

/* The offset of the first "\u0000" escape inside a string of valid JSON, or -1. cJSON decodes it
 * to a NUL byte, which would silently end a name, key or dtype ("float32\u0000x" as float32). */
static long escaped_nul(const char *s, size_t n) {
    bool str = false;
    for (size_t i = 0; i < n; i++) {
        if (!str) {
            str = s[i] == '"';
        } else if (s[i] == '"') {
            str = false;
        } else if (s[i] == '\\') {
            if (i + 6 <= n && memcmp(s + i + 1, "u0000", 5) == 0) return (long)i;
            i++;
        }
    }
    return -1;
}

static void line_col(const char *text, size_t off, int *line, int *col) {
    *line = 1, *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') (*line)++, *col = 1;
        else (*col)++;
    }
}

cJSON *ir_json_parse(const char *text, size_t len, Diag *d) {
    if (len > IR_MAX_FILE_BYTES) {
        diag_at(d, NULL, "file is larger than %zu MiB", IR_MAX_FILE_BYTES >> 20);
        return NULL;
    }
    long bad = utf8_invalid((const unsigned char *)text, len);
    if (bad >= 0) {
        int line, col;
        line_col(text, (size_t)bad, &line, &col);
        diag_at(d, NULL, "%d:%d: not valid UTF-8", line, col);
        return NULL;
    }
    const char *nul = memchr(text, 0, len);
    if (nul) {
        int line, col;
        line_col(text, (size_t)(nul - text), &line, &col);
        diag_at(d, NULL, "%d:%d: contains a NUL byte", line, col);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    size_t off = end ? (size_t)(end - text) : len;
    const char *why = "";
    if (!root) {
        off = json_error(text, len, &why);
    } else {
        while (off < len && (text[off] == ' ' || text[off] == '\n' || text[off] == '\r' || text[off] == '\t')) off++;
        why = ": text after the graph object";
    }
    if (!root || off < len) {
        int line, col;
        line_col(text, off, &line, &col);
        char c = off < len ? text[off] : 0;
        if (!*why && c > ' ' && c < 0x7f)
            diag_at(d, NULL, c == '\'' ? "%d:%d: invalid JSON: unexpected \"%c\"" : "%d:%d: invalid JSON: unexpected '%c'",
                    line, col, c);
        else diag_at(d, NULL, "%d:%d: invalid JSON%s", line, col, why);
        cJSON_Delete(root);
        return NULL;
    }
    long esc = escaped_nul(text, len);
    if (esc >= 0) {
        int line, col;
        line_col(text, (size_t)esc, &line, &col);
        diag_at(d, NULL, "%d:%d: a string holds \\u0000 (a NUL character), which no name, key or dtype may hold",
                line, col);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
