/* ir/text.c: text from a user's file or call, made safe to show in a message: control characters,
 * the invisible format characters (bidi overrides and isolates, zero-width characters, the
 * BOM, ...) that would reorder or hide what a terminal shows, and bytes that are not UTF-8 are
 * written as escapes. */
#include <stdio.h>
#include <string.h>

#include "ir.h"

/* Is code point c one a message must not show as it is? C0 and C1 controls, DEL, and Unicode's
 * format characters that change how text around them reads: soft hyphen, Arabic letter mark,
 * Mongolian vowel separator, zero-width space/non-joiner/joiner, LRM/RLM, line and paragraph
 * separators, the bidi embeddings, overrides and isolates, word joiner and invisible operators,
 * the BOM and the interlinear annotation marks. */
static bool invisible(unsigned c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xad || c == 0x61c || c == 0x180e ||
           (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) ||
           c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb);
}

int ir_invisible_at(const char *s, unsigned *cp) {
    const unsigned char *p = (const unsigned char *)s;
    unsigned c;
    int n;
    if (p[0] < 0x80) c = p[0], n = 1;
    else if ((p[0] & 0xe0) == 0xc0 && (p[1] & 0xc0) == 0x80) c = (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu), n = 2;
    else if ((p[0] & 0xf0) == 0xe0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80)
        c = (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu), n = 3;
    else return 0; /* other bytes, and 4-byte sequences (none of them is a format character) */
    if (!invisible(c)) return 0;
    if (cp) *cp = c;
    return n;
}

/* The length of the well-formed UTF-8 character at p (1 to 4 bytes: no overlong forms, no
 * surrogates, at most U+10FFFF), or 0 for a byte that starts none. */
static int utf8_len(const unsigned char *p) {
    if (p[0] < 0x80) return 1;
    int n = (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    unsigned c = p[0] & (0x7fu >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        c = c << 6 | (p[i] & 0x3fu);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (!n || c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    return n;
}

size_t ir_escape_invisible(const char *s, char *out, size_t n, bool keep_lines) {
    size_t o = 0;
    if (!n) return 0;
    for (const char *p = s; *p;) {
        unsigned c = (unsigned char)*p;
        int k = ir_invisible_at(p, &c), whole = k ? k : utf8_len((const unsigned char *)p);
        if (!whole) k = 1; /* a byte that is not UTF-8: escaped, so a message is always valid UTF-8 */
        if (keep_lines && (*p == '\n' || *p == '\t')) k = 0;
        char esc[8];
        int len = k == 0 ? whole : c < 0x80 || !whole ? snprintf(esc, sizeof esc, "\\x%02x", c) : snprintf(esc, sizeof esc, "\\u%04x", c);
        if (o + (size_t)len >= n) break;
        if (k == 0) memcpy(out + o, p, (size_t)len), o += (size_t)len, p += len;
        else memcpy(out + o, esc, (size_t)len), o += (size_t)len, p += k;
    }
    out[o] = 0;
    return o;
}
