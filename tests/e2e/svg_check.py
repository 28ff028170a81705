#!/usr/bin/env python3
"""tests/e2e/svg_check.py: checks a line plot written by examples/svg_plot.php: well-formed XML
whose root is an SVG <svg>, one <polyline> with one point per data point, one <circle> per data
point with data-x values XS in order, and every coordinate inside the viewBox.

usage: svg_check.py FILE.svg XS   (XS: comma-separated x values, e.g. 1,3,6,7)
Prints what is wrong and exits 1, or exits 0."""
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    want = [float(v) for v in argv[1].split(",")]
    try:
        root = ET.parse(argv[0]).getroot()
    except ET.ParseError as e:
        print("not well-formed XML: %s" % e)
        return 1
    if root.tag != NS + "svg":
        print("the root is %s, not an SVG <svg>" % root.tag)
        return 1
    w, h = float(root.get("width")), float(root.get("height"))
    lines = root.findall(".//" + NS + "polyline")
    circles = root.findall(".//" + NS + "circle")
    if len(lines) != 1:
        print("%d polylines, want 1" % len(lines))
        return 1
    pts = [tuple(map(float, p.split(","))) for p in lines[0].get("points").split()]
    xs = [float(c.get("data-x")) for c in circles]
    for x, y in pts + [(float(c.get("cx")), float(c.get("cy"))) for c in circles]:
        if not (0 <= x <= w and 0 <= y <= h):
            print("point (%g, %g) outside the %gx%g plot" % (x, y, w, h))
            return 1
    if len(pts) != len(want) or xs != want:
        print("%d polyline points, circles at x %s; want %d points at %s" % (len(pts), xs, len(want), want))
        return 1
    if any(b[0] <= a[0] for a, b in zip(pts, pts[1:])):
        print("the polyline does not go left to right")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
