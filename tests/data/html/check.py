#!/usr/bin/env python3
"""Checks of tests/cli/report-html.sh on an HTML report and on what headless Chromium made of it.

usage: check.py static REPORT.html      self-contained: no script, no external resource, escaped
                                        names
       check.py dom DOM.html PLOTS      the rendered DOM has PLOTS plots, each with data marks
       check.py png SHOT.png            the screenshot is not blank and shows the plots' colours

Python's standard library only: the PNG is decoded with zlib.
"""
import html.parser
import struct
import sys
import zlib

MARKS = {"polyline": "series", "circle": "pt", "rect": ("pt", "bar"), "path": "pt"}


class Page(html.parser.HTMLParser):
    """Collects the plots (svg.plot) and their data marks, sections, scripts and external
    references."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.plots, self.sections, self.external, self.scripts = [], [], [], 0
        self.in_plot = None
        self.in_h3 = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "script":
            self.scripts += 1
        for key in ("src", "href", "xlink:href", "action"):
            v = a.get(key)
            if v and not v.startswith("#"):
                self.external.append((tag, key, v))
        if tag == "link" or (tag == "style" and a.get("src")):
            self.external.append((tag, "link", a.get("href")))
        if tag == "svg" and "plot" in cls:
            self.in_plot = {"marks": 0, "points": [], "title": ""}
            self.plots.append(self.in_plot)
        elif self.in_plot is not None:
            want = MARKS.get(tag)
            if want and any(c in (want if isinstance(want, tuple) else (want,)) for c in cls):
                self.in_plot["marks"] += 1
                if tag == "polyline":
                    self.in_plot["points"].append(len(a.get("points", "").split()))
        if tag == "section" and "interval" in cls:
            self.sections.append({"id": a.get("id"), "class": cls, "heading": ""})
        if tag == "h3" and self.sections:
            self.in_h3 = self.sections[-1]

    def handle_endtag(self, tag):
        if tag == "svg":
            self.in_plot = None
        if tag == "h3":
            self.in_h3 = None

    def handle_data(self, data):
        if self.in_h3 is not None:
            self.in_h3["heading"] += data


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    return p


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check_static(path):
    with open(path, "rb") as f:
        raw = f.read()
    raw.decode("utf-8")  # well-formed UTF-8 or an exception
    p = parse(path)
    if p.scripts:
        fail("%d <script> elements: the report must not need JavaScript" % p.scripts)
    if p.external:
        fail("references outside the page: %r" % p.external[:5])
    if b"<b x=" in raw:
        fail("an interval name reached the page unescaped")
    for s in p.sections:
        print("section %s %s %s" % (s["id"], " ".join(c for c in s["class"] if c.startswith("st-")),
                                    " ".join(s["heading"].split())))
    print("plots %d" % len(p.plots))


def check_dom(path, expected):
    p = parse(path)
    if len(p.plots) != expected:
        fail("%d plots in the rendered page, expected %d" % (len(p.plots), expected))
    for i, plot in enumerate(p.plots):
        if plot["marks"] < 1:
            fail("plot %d has no data mark" % i)
        if any(n < 2 for n in plot["points"]):
            fail("plot %d has a line with fewer than 2 points" % i)
    print("dom: %d plots, %d marks" % (len(p.plots), sum(x["marks"] for x in p.plots)))


def read_png(path):
    with open(path, "rb") as f:
        d = f.read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat = 8, []
    while pos < len(d):
        n, kind = struct.unpack(">I4s", d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("unexpected PNG format: depth %d, colour type %d, interlace %d"
             % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride, rows, prev = w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for x in range(stride):
                line[x] = (line[x] + ((line[x - bpp] if x >= bpp else 0) + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = prev[x], prev[x - bpp] if x >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def check_png(path):
    w, h, bpp, rows = read_png(path)
    # the palette of the plots: blue (current), orange and green (lost time)
    palette = {"blue": (0x00, 0x72, 0xB2), "orange": (0xE6, 0x9F, 0x00),
               "green": (0x00, 0x9E, 0x73)}
    count = dict.fromkeys(palette, 0)
    ink = 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if r < 235 or g < 235 or b < 235:
                ink += 1
                for name, (pr, pg, pb) in palette.items():
                    if abs(r - pr) + abs(g - pg) + abs(b - pb) < 40:
                        count[name] += 1
    share = ink / float(w * h)
    print("png: %dx%d, %.1f %% not white, %s"
          % (w, h, 100 * share, ", ".join("%s %d px" % kv for kv in count.items())))
    if share < 0.03:
        fail("the screenshot is blank: %.2f %% of its pixels are not white" % (100 * share))
    missing = [name for name, n in count.items() if n < 200]
    if missing:
        fail("the screenshot shows (almost) none of the plot colours: %s" % ", ".join(missing))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "static":
        check_static(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "dom":
        check_dom(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "png":
        check_png(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
