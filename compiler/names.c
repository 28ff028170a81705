/* compiler/names.c: the names gtc derives from a graph's name for what it generates: the PHP
 * class of a compiled model (ext.c) and of its plan table (RtPlan.class_name). A leaf: the IR
 * only. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "php_classes.h"

/* PHP's reserved words and reserved class names (PHP 8.2), lower case. A class may not be
 * named after any of them. */
static const char *const php_reserved[] = {
    "abstract", "and", "array", "as", "bool", "break", "callable", "case", "catch", "class",
    "clone", "const", "continue", "declare", "default", "die", "do", "echo", "else", "elseif",
    "empty", "enddeclare", "endfor", "endforeach", "endif", "endswitch", "endwhile", "enum",
    "eval", "exit", "extends", "false", "final", "finally", "float", "fn", "for", "foreach",
    "function", "global", "goto", "if", "implements", "include", "instanceof", "insteadof", "int",
    "interface", "isset", "iterable", "list", "match", "mixed", "namespace", "never", "new",
    "null", "numeric", "object", "or", "parent", "print", "private", "protected", "public",
    "readonly", "require", "resource", "return", "self", "static", "string", "switch", "throw",
    "trait", "true", "try", "unset", "use", "var", "void", "while", "xor", "yield",
};

/* What a class may not be named after: a reserved word ("a reserved word"), or a class,
 * interface or trait PHP or a common extension declares (php_classes.h: "a PHP built-in
 * class"); NULL when the name is free. Case-insensitive, as PHP's class names are. */
static const char *taken_by(const char *s) {
    char low[IR_MAX_NAME + 1];
    size_t n = strlen(s);
    if (n > IR_MAX_NAME) return NULL;
    for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
    for (size_t i = 0; i < sizeof php_reserved / sizeof *php_reserved; i++)
        if (strcmp(low, php_reserved[i]) == 0) return "a PHP reserved word";
    for (size_t i = 0; i < sizeof php_builtin_classes / sizeof *php_builtin_classes; i++)
        if (strcmp(low, php_builtin_classes[i]) == 0) return "the name of a PHP built-in class";
    return NULL;
}

/* CamelCase of the graph name's '_'-separated words; a reserved word, a built-in class's name
 * or a name that would not start with a letter gets the prefix "Gtc" (PHP would refuse to
 * declare it, or refuse to start the module). Returns 1 with a note in err when it did so. */
int names_php_class(const char *graph, char *buf, size_t n, char *err, size_t errn) {
    if (!graph || !ir_is_identifier(graph) || strlen(graph) > IR_MAX_NAME) {
        snprintf(err, errn, "the graph name \"%s\" is not an identifier of at most %d characters",
                 graph ? graph : "", IR_MAX_NAME);
        return -1;
    }
    char camel[IR_MAX_NAME + 1];
    size_t k = 0;
    bool up = true;
    for (const char *p = graph; *p; p++) {
        if (*p == '_') {
            up = true;
            continue;
        }
        camel[k++] = up ? (char)toupper((unsigned char)*p) : *p;
        up = false;
    }
    camel[k] = 0;
    const char *taken = k ? taken_by(camel) : NULL;
    bool prefix = k == 0 || !isalpha((unsigned char)camel[0]) || taken;
    if ((size_t)snprintf(buf, n, "%s%s", prefix ? "Gtc" : "", k ? camel : "Model") >= n) {
        snprintf(err, errn, "the class name for graph \"%s\" is too long", graph);
        return -1;
    }
    if (!taken) return 0;
    snprintf(err, errn, "graph \"%s\": the class %s would be %s; the model's class is %s", graph, camel, taken, buf);
    return 1;
}
