r"""Plotting helpers of the figure scripts (scripts/figures/*.py), for any simrun plot.

- add_format_argument(parser): the --format option, png (default), pdf or svg, several at once
  comma-separated (--format png,pdf).
- pyplot(): matplotlib.pyplot on the Agg backend, or None when matplotlib is not installed (a
  note goes to stderr; the scripts then write their CSVs only). matplotlib is imported by these
  functions only, so `import simrun` works without it.
- save_figure(fig, out_dir, stem, formats): writes OUT_DIR/STEM.FORMAT for every format, prints
  "wrote PATH" for each file and closes the figure.
- sci(x): a number in mathtext notation (3e7 -> 3 \times 10^{7}).
- curve_style(i, n_points): a marker and a line style for the i-th of several curves that may
  overlap, with markers every ~n_points/8 points, staggered between curves, so that each curve
  stays visible where they coincide and in grayscale.

Labels use matplotlib's mathtext (r"$\lambda_i$", r"$h\,\omega$"), units in brackets.
"""
import argparse
import os
import sys

FORMATS = ("png", "pdf", "svg")
# Distinct in grayscale: open markers (a curve underneath shows through) and dash patterns.
MARKERS = ("o", "s", "^", "v", "D", "x", "+", "*", "<", ">", "p", "h")
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 1)), (0, (8, 3)), (0, (3, 1, 1, 1)))


def parse_formats(text):
    """'png,pdf' -> ['png', 'pdf'] (argparse type of --format)."""
    formats = []
    for part in text.split(","):
        fmt = part.strip().lower().lstrip(".")
        if fmt not in FORMATS:
            raise argparse.ArgumentTypeError(f"unknown format {part.strip()!r}: use {', '.join(FORMATS)}")
        if fmt not in formats:
            formats.append(fmt)
    return formats


def add_format_argument(parser):
    """Adds --format (png, pdf, svg; several comma-separated) to an argparse parser."""
    parser.add_argument("--format", type=parse_formats, default=["png"], metavar="png|pdf|svg",
                        help="figure file format(s), comma-separated, e.g. png,pdf (default png)")


def pyplot():
    """matplotlib.pyplot with the Agg backend, or None if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: CSV only", file=sys.stderr)
        return None
    # Reproducible vector files: no random ids in SVG, no dates in SVG and PDF (see save_figure).
    matplotlib.rcParams["svg.hashsalt"] = "simrun"
    return plt


def save_figure(fig, out_dir, stem, formats=("png",), dpi=120):
    """Write fig as OUT_DIR/STEM.FORMAT per format, print "wrote PATH" per file; returns the paths."""
    import matplotlib.pyplot as plt
    paths = []
    for fmt in formats:
        path = os.path.join(out_dir, f"{stem}.{fmt}")
        metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt)
        fig.savefig(path, format=fmt, dpi=dpi, metadata=metadata)
        print(f"wrote {path}")
        paths.append(path)
    plt.close(fig)
    return paths


def sci(x):
    r"""A number for mathtext: 3e7 -> '3 \times 10^{7}', 1e8 -> '10^{8}', 0.5 -> '0.5' (no $)."""
    mantissa, exponent = f"{x:.3g}".partition("e")[::2]
    if not exponent:
        return mantissa
    mantissa = "" if mantissa == "1" else mantissa + r" \times "
    return f"{mantissa}10^{{{int(exponent)}}}"


def curve_style(i, n_points, series=4, marks=8):
    """Keyword arguments for Axes.plot: the i-th marker and line style, markevery with about
    `marks` markers along n_points points, offset by i/series of the spacing."""
    every = max(1, n_points // marks)
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "markevery": ((i * every) // max(series, 1) % every, every), "markersize": 5,
            "markerfacecolor": "none"}
