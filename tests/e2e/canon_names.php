<?php
/* tests/e2e/canon_names.php: prints a gtc output with its node names replaced by their positions
 * in the graph (n0, n1, ...) and runs of spaces squeezed, so that two graphs that differ only in
 * node names (a PHP graph whose helper functions gtc inlined, against its JSON twin) print the
 * same. Used by tests/e2e/php_graphs.sh as
 *
 *   php canon_names.php DUMP TEXT
 *
 * DUMP is `gtc dump` of the graph (its "input NAME:" and "NAME: ..." lines give the names in
 * order); TEXT is the output to rewrite. */
declare(strict_types=1);

[, $dump, $text] = $argv + [null, '', ''];
$names = [];
foreach (file($dump, FILE_IGNORE_NEW_LINES) ?: [] as $line) {
    if (preg_match('/^(?:input )?([A-Za-z_][A-Za-z0-9_]*):/', $line, $m)) {
        $names[$m[1]] = 'n' . count($names);
    }
}
$out = preg_replace_callback('/\b[A-Za-z_][A-Za-z0-9_]*\b/', fn($m) => $names[$m[0]] ?? $m[0], (string)file_get_contents($text));
echo preg_replace('/ +/', ' ', $out);
