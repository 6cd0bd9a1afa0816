"""QR codes for login cards: inline SVG (segno, pure Python; no image files, no CDN)."""

import segno
from django.utils.safestring import mark_safe


def qr_svg(text, *, label=""):
    """``text`` as an inline ``<svg>`` (scaled by CSS: it has a viewBox, no size).  Medium
    error correction survives a crumpled card."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=2, omitsize=True, svgclass="qr", lineclass="qr-line",
                          title=label or None)
    return mark_safe(svg)  # noqa: S308 - segno's own markup: path data and our escaped title
