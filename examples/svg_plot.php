<?php
/*
 * examples/svg_plot.php: a line plot as a standalone SVG document, in plain PHP (no library):
 * examples/train_mlp.php --plot=loss.svg draws its loss curve with it.
 *
 *   file_put_contents('loss.svg', svg_line_plot([1 => 2.3, 50 => 0.4, 100 => 0.1],
 *                                               title: 'training loss', xLabel: 'epoch', yLabel: 'loss'));
 *
 * $points maps x to y (numbers; sorted by x). The plot has axes with 5 labelled ticks each, one
 * <polyline> through every point and one <circle> per point (data-x / data-y hold the values),
 * and escapes every text it writes. A y axis that spans several orders of magnitude can be
 * drawn on a log scale ($logY; every y must then be positive). Non-finite values are refused.
 */

function svg_line_plot(array $points, string $title = '', string $xLabel = '', string $yLabel = '',
                       bool $logY = false, int $width = 640, int $height = 400): string {
    if (!$points) throw new InvalidArgumentException('svg_line_plot: no points');
    if ($width < 200 || $height < 150) throw new InvalidArgumentException('svg_line_plot: the plot must be at least 200x150');
    foreach ($points as $x => $y) {
        if (!is_int($x) && !is_float($x) && !is_numeric($x)) throw new InvalidArgumentException("svg_line_plot: x '$x' is not a number");
        if (!is_int($y) && !is_float($y)) throw new InvalidArgumentException("svg_line_plot: y at x=$x is not a number");
        if (!is_finite((float)$y)) throw new InvalidArgumentException("svg_line_plot: y at x=$x is $y");
        if ($logY && $y <= 0) throw new InvalidArgumentException("svg_line_plot: y at x=$x is $y, not positive (logY)");
    }
    ksort($points, SORT_NUMERIC);
    $xs = array_map('floatval', array_keys($points));
    $ys = array_map(fn($y) => $logY ? log10((float)$y) : (float)$y, array_values($points));
    [$x0, $x1, $y0, $y1] = [min($xs), max($xs), min($ys), max($ys)];
    if ($x1 == $x0) [$x0, $x1] = [$x0 - 1, $x1 + 1];
    if ($y1 == $y0) [$y0, $y1] = [$y0 - 1, $y1 + 1];
    [$left, $right, $top, $bottom] = [70, 20, $title === '' ? 20 : 40, 50];
    $pw = $width - $left - $right;
    $ph = $height - $top - $bottom;
    $px = fn(float $x) => $left + ($x - $x0) / ($x1 - $x0) * $pw;
    $py = fn(float $y) => $top + (1 - ($y - $y0) / ($y1 - $y0)) * $ph;
    $e = fn(string $s) => htmlspecialchars($s, ENT_XML1 | ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
    $n = fn(float $v) => rtrim(rtrim(sprintf('%.2f', $v), '0'), '.');
    $label = fn(float $v) => $logY ? sprintf('%.3g', 10 ** $v) : sprintf('%.4g', $v);

    $s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       . "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"$width\" height=\"$height\" viewBox=\"0 0 $width $height\""
       . " font-family=\"sans-serif\" font-size=\"12\">\n"
       . "<rect width=\"$width\" height=\"$height\" fill=\"white\"/>\n";
    if ($title !== '') $s .= '<text x="' . $n($width / 2) . "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{$e($title)}</text>\n";
    $s .= "<g stroke=\"#ccc\" stroke-width=\"1\">\n";
    for ($i = 0; $i <= 4; $i++) { // grid lines and ticks
        $gx = $left + $pw * $i / 4;
        $gy = $top + $ph * $i / 4;
        $s .= "<line x1=\"{$n($gx)}\" y1=\"$top\" x2=\"{$n($gx)}\" y2=\"" . ($top + $ph) . "\"/>\n";
        $s .= "<line x1=\"$left\" y1=\"{$n($gy)}\" x2=\"" . ($left + $pw) . "\" y2=\"{$n($gy)}\"/>\n";
    }
    $s .= "</g>\n<g fill=\"#333\">\n";
    for ($i = 0; $i <= 4; $i++) {
        $gx = $left + $pw * $i / 4;
        $gy = $top + $ph * $i / 4;
        $s .= "<text x=\"{$n($gx)}\" y=\"" . ($top + $ph + 18) . "\" text-anchor=\"middle\">{$e(sprintf('%.4g', $x0 + ($x1 - $x0) * $i / 4))}</text>\n";
        $s .= "<text x=\"" . ($left - 6) . "\" y=\"{$n($gy + 4)}\" text-anchor=\"end\">{$e($label($y1 - ($y1 - $y0) * $i / 4))}</text>\n";
    }
    if ($xLabel !== '') $s .= '<text x="' . $n($left + $pw / 2) . '" y="' . ($height - 8) . "\" text-anchor=\"middle\">{$e($xLabel)}</text>\n";
    if ($yLabel !== '') $s .= '<text x="16" y="' . $n($top + $ph / 2) . '" text-anchor="middle" transform="rotate(-90 16 '
                            . $n($top + $ph / 2) . ")\">{$e($yLabel . ($logY ? ' (log scale)' : ''))}</text>\n";
    $s .= "</g>\n<rect x=\"$left\" y=\"$top\" width=\"$pw\" height=\"$ph\" fill=\"none\" stroke=\"#333\"/>\n";
    $coords = [];
    foreach ($xs as $i => $x) $coords[] = $n($px($x)) . ',' . $n($py($ys[$i]));
    $s .= '<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="' . implode(' ', $coords) . "\"/>\n";
    $s .= "<g fill=\"#1f77b4\">\n";
    $orig = array_values($points);
    foreach ($xs as $i => $x)
        $s .= '<circle cx="' . $n($px($x)) . '" cy="' . $n($py($ys[$i])) . '" r="2.5" data-x="' . $e((string)$x)
            . '" data-y="' . $e(sprintf('%.9g', $orig[$i])) . "\"/>\n";
    return $s . "</g>\n</svg>\n";
}
