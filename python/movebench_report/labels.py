"""Text from a result file, bounded where it is drawn or printed: a name,
a unit, a parameter or a reason may be as long as a malformed or hostile
file makes it (100 000 characters), and matplotlib takes a minute to lay out
one such label. Every plot label, table cell and piece of the page that
comes from a file goes through shorten() (the one helper); a real file's
strings are all shorter than the bound, so they are never cut (the longest
in tests/data/results: a verdict's reason of 161 characters)."""

from __future__ import annotations

# The most characters of one string from a file where it is shown: above any
# real name or sentence, small enough that a label of it lays out at once.
MAX_TEXT = 200
# A panel's title or a legend entry of a peak: a line beside a small plot.
MAX_SHORT = 70
ELLIPSIS = "…"


def shorten(text, most: int = MAX_TEXT) -> str:
    """The text (str() of it) cut to at most `most` characters, ending in an
    ellipsis where it was cut."""
    text = text if isinstance(text, str) else str(text)
    return text if len(text) <= most else text[: most - len(ELLIPSIS)] + ELLIPSIS
