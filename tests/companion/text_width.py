"""How wide a line of words is drawn, and how many lines it takes, in the app's font.

Flet's web client draws every text in Roboto (one weight: ``flet_web``'s bundled
``assets/fonts/roboto.woff2``, also used for a button's "medium" words -- the
widths below are the same at 400 and 500).  :data:`ADVANCE` holds each character's
advance in thousandths of an em, measured from that file by Chromium's canvas
(``python -m tests.companion.text_width`` measures them again and prints the
table).  A line's width is the sum of its characters' advances: that is never
narrower than the shaped line (kerning only narrows it, "AVAWTo Ty" by 4 %), so
a line said to fit does fit.  A character the file does not hold (the suits
♥♦♣♠, drawn from a fallback font) counts a whole em.

Lines break between words only, as the greedy wrap of a paragraph does; Flutter
may also break after a hyphen, so again the count is never below the real one.
"""

from __future__ import annotations

import hashlib
import math
import re
import sys
from pathlib import Path

import flet_web

__all__ = ["ADVANCE", "FONT", "FONT_SHA256", "lines_needed", "text_width"]

#: the font Flet's web client draws with, and the digest of the file measured below
FONT = Path(flet_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"
FONT_SHA256 = "35b02ca266b79eb4996590f15817425a1ce9ebf48f84471843233ff614656bf2"
#: a character the font lacks: a whole em
UNKNOWN = 1000

#: advance widths in thousandths of an em (rounded up), measured from FONT
ADVANCE: dict[str, int] = {
    ' ': 248, '!': 258, '"': 320, '#': 616, '$': 562, '%': 733, '&': 622, "'": 175, '(': 342,
    ')': 348, '*': 431, '+': 567, ',': 197, '-': 276, '.': 264, '/': 413, '0': 562, '1': 562,
    '2': 562, '3': 562, '4': 562, '5': 562, '6': 562, '7': 562, '8': 562, '9': 562, ':': 243,
    ';': 212, '<': 509, '=': 549, '>': 523, '?': 473, '@': 898, 'A': 653, 'B': 623, 'C': 651,
    'D': 656, 'E': 569, 'F': 553, 'G': 682, 'H': 713, 'I': 272, 'J': 552, 'K': 627, 'L': 539,
    'M': 874, 'N': 713, 'O': 688, 'P': 631, 'Q': 688, 'R': 616, 'S': 594, 'T': 597, 'U': 649,
    'V': 637, 'W': 888, 'X': 627, 'Y': 601, 'Z': 599, '[': 266, '\\': 411, ']': 266, '^': 418,
    '_': 452, '`': 310, 'a': 544, 'b': 562, 'c': 524, 'd': 564, 'e': 530, 'f': 348, 'g': 562,
    'h': 551, 'i': 243, 'j': 239, 'k': 507, 'l': 243, 'm': 877, 'n': 552, 'o': 571, 'p': 562,
    'q': 569, 'r': 339, 's': 516, 't': 327, 'u': 552, 'v': 485, 'w': 752, 'x': 496, 'y': 474,
    'z': 496, '{': 339, '|': 244, '}': 339, '~': 681, '·': 261, '×': 534, '–': 657, '—': 781,
    '’': 200, '…': 669,
}  # fmt: skip


def text_width(text: str, size: float, spacing: float = 0.0) -> float:
    """px: ``text`` on one line at font ``size`` (never less than drawn), with
    ``spacing`` px between letters (a button's words: Material 3 gives them 0.1)."""
    return sum(ADVANCE.get(ch, UNKNOWN) for ch in text) * size / 1000 + spacing * len(text)


def lines_needed(text: str, size: float, width: float, spacing: float = 0.0) -> int | None:
    """How many lines ``text`` wraps to in a box ``width`` px wide, breaking between
    words; None when one word alone is wider than the box (it would be cut mid-word)."""
    lines = 0
    for paragraph in text.split("\n"):
        line = ""
        lines += 1
        for word in re.split(r" +", paragraph.strip()):
            if text_width(word, size, spacing) > width:
                return None
            wider = f"{line} {word}" if line else word
            if text_width(wider, size, spacing) <= width:
                line = wider
            else:
                lines += 1
                line = word
    return lines


def measure() -> dict[str, int]:
    """Measure the advances again, from FONT, in Chromium (Playwright)."""
    import base64

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    chars = "".join(ADVANCE) or "".join(chr(c) for c in range(32, 127))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<canvas id=c></canvas>")
        found: dict[str, float] = page.evaluate(
            """async ([b64, chars]) => {
                const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
                const font = new FontFace('M', bytes); await font.load();
                document.fonts.add(font);
                const ctx = document.getElementById('c').getContext('2d');
                ctx.font = '1000px M';
                const out = {}; for (const ch of chars) out[ch] = ctx.measureText(ch).width;
                return out;
            }""",
            [base64.b64encode(FONT.read_bytes()).decode(), chars],
        )
        browser.close()
    return {ch: math.ceil(w) for ch, w in found.items()}


if __name__ == "__main__":
    print("FONT_SHA256 =", repr(hashlib.sha256(FONT.read_bytes()).hexdigest()))
    print(measure())
    sys.exit(0)
