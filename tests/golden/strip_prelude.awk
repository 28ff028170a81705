# tests/golden/strip_prelude.awk: an emitted file with each copied-in text (ir/scalar.h, the
# templates/ preludes) cut to one line, so a golden file shows what the planner decided.
#
# compiler/emit_text.c (emit_text) writes each text between the lines
#   /* gtc:prelude begin PATH */        and        /* gtc:prelude end PATH */
# (in plan.c inside the kernel-source string literals, one literal per line). The begin line is
# kept with "begin PATH" turned into "PATH (elided)"; the text and the end line are dropped.
# A begin without its end, an end without its begin, a nested begin or a mismatched path is an
# error: a message on stderr and exit status 1, so a broken marker never hides code.
#
# usage: awk -f strip_prelude.awk FILE
function fail(why) {
    printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
    failed = 1
    exit 1
}
# The PATH after `key` on this line ("" when the line has no such marker).
function marker(key,    i, rest, j) {
    i = index($0, "gtc:prelude " key " ")
    if (!i) return ""
    rest = substr($0, i + length("gtc:prelude " key " "))
    j = index(rest, " */")
    if (j < 2) fail("malformed gtc:prelude " key " marker")
    return substr(rest, 1, j - 1)
}
{
    b = marker("begin")
    e = marker("end")
    if (b != "") {
        if (inside != "") fail("gtc:prelude begin " b " inside " inside " (begun at line " at ")")
        inside = b
        at = FNR
        line = $0
        sub(/gtc:prelude begin [^ ]+ \*\//, "gtc:prelude " b " (elided) */", line)
        print line
        next
    }
    if (e != "") {
        if (inside == "") fail("gtc:prelude end " e " without its begin")
        if (e != inside) fail("gtc:prelude end " e " closes " inside " (begun at line " at ")")
        inside = ""
        next
    }
    if (inside == "") print
}
END {
    if (!failed && inside != "") {
        printf "%s:%d: gtc:prelude begin %s has no end\n", FILENAME, at, inside > "/dev/stderr"
        exit 1
    }
}
