#!/usr/bin/env python3
"""tests/hostile/code_only.py: checks that words do not appear in generated C or CUDA code
outside string literals, character literals and comments.

usage: code_only.py SRC_DIR WORDS_FILE
Reads every *.c, *.cu, *.h file of SRC_DIR, removes comments and literals (with line splices,
escapes and trigraph-free text as gtc writes it), and fails listing each word of WORDS_FILE (one a
line; matched as a substring) found in what is left."""
import pathlib
import sys


def code_only(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("\\\n", i):          # a line splice joins lines everywhere
            i += 2
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 2 if text.startswith("\\\n", i) else 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("unterminated comment")
            i = end + 2
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\n":
                    raise ValueError("newline inside a literal at offset %d" % j)
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                raise ValueError("unterminated literal")
            i = j + 1
            out.append(c + c)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main():
    src = pathlib.Path(sys.argv[1])
    words = [w for w in pathlib.Path(sys.argv[2]).read_text().split("\n") if w]
    files = sorted(p for p in src.iterdir() if p.suffix in (".c", ".cu", ".h"))
    if not files:
        print("no sources in %s" % src)
        return 1
    bad = []
    for f in files:
        try:
            code = code_only(f.read_text(encoding="latin-1"))
        except ValueError as e:
            bad.append("%s: %s" % (f.name, e))
            continue
        bad += ["%s: %r outside literals and comments" % (f.name, w) for w in words if w in code]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
