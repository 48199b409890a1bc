"""Physical directions in a stylesheet: what a right-to-left page would not mirror.

An Arabic or Persian page (`<html dir="rtl">`) is laid out from the right. A stylesheet
written with logical properties and values (`margin-inline-start`, `inset-inline-end`,
`text-align: start`, `float: inline-end`) follows the page's direction; one written with
left and right does not, and in English the two are the same. What must stay where it is
whichever way the page reads (the felt's geometry, a box centred with `left: 50%`) says
so, and why, with a marker comment `/* physical: why */` on its line or the line before.

Caught: a property named with a side (`margin-left`, `border-top-right-radius`, `left`),
a `left` or `right` keyword in a value (`text-align: right`, `float: left`,
`transition: left .2s`), a four-value box shorthand whose left and right differ
(`margin: 0 0 0 auto`), a corner radius that differs between left and right, and a shadow
cast sideways (`inset 4px 0 0 gold`, a bar on the left side). `translate()` is not a
direction of reading and is allowed.
"""

from __future__ import annotations

import re

MARKER = "/* physical:"

_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
# A declaration: after the `{` or `;` that opens it, up to the `;` or `}` that ends it (a
# selector such as `a:hover {` ends with a brace, so it is never taken for one).
_DECLARATION = re.compile(r"(?<=[{;])\s*(?P<prop>[A-Za-z-][\w-]*)\s*:(?P<value>[^;{}]*)(?=[;}])")
_STRING = re.compile(r"\"[^\"]*\"|'[^']*'|url\([^)]*\)")
_IDENT = re.compile(r"(?<![\w#.-])[A-Za-z-][\w-]*")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[a-z]+|%)?")
_MATH = ("calc(", "min(", "max(", "clamp(")

# The shorthands whose four values are top, right, bottom, left.
_BOX_SIDES = {
    "margin",
    "padding",
    "inset",
    "border-width",
    "border-style",
    "border-color",
    "scroll-margin",
    "scroll-padding",
}
_SHADOWS = {"box-shadow", "text-shadow"}


def _sided(name: str) -> bool:
    return not name.startswith("--") and bool({"left", "right"} & set(name.lower().split("-")))


def _split(value: str, separator: str | None = None) -> list[str]:
    """Top-level parts of a value, split on whitespace (or `separator`) outside brackets."""
    parts, depth, current = [], 0, ""
    for char in value:
        depth += {"(": 1, ")": -1}.get(char, 0)
        cut = char.isspace() if separator is None else char == separator
        if depth == 0 and cut:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _is_zero(token: str) -> bool:
    return _NUMBER.fullmatch(token) is not None and float(re.sub(r"[a-z%]+$", "", token)) == 0


def _is_length(token: str) -> bool:
    return _NUMBER.fullmatch(token) is not None or token.lower().startswith(_MATH)


def _corners(values: list[str]) -> tuple[str, str, str, str]:
    """Top-left, top-right, bottom-right, bottom-left of a border-radius's values."""
    if len(values) == 1:
        return values[0], values[0], values[0], values[0]
    if len(values) == 2:
        return values[0], values[1], values[0], values[1]
    if len(values) == 3:
        return values[0], values[1], values[2], values[1]
    return values[0], values[1], values[2], values[3]


def _why_physical(prop: str, value: str) -> str | None:
    """What makes a declaration physical, or None when it reads the same either way."""
    prop = prop.lower()
    if _sided(prop):
        return "a physical property"
    bare = _STRING.sub(" ", value.replace("!important", " "))
    if any(_sided(word) for word in _IDENT.findall(bare)):
        return "a left or right keyword"
    parts = _split(bare)
    if prop in _BOX_SIDES and len(parts) == 4 and parts[1] != parts[3]:
        return "left and right differ in a four-value shorthand"
    if prop == "border-radius":
        for axis in _split(bare, "/"):
            top_left, top_right, bottom_right, bottom_left = _corners(_split(axis))
            if top_left != top_right or bottom_left != bottom_right:
                return "left and right corners differ"
    if prop in _SHADOWS:
        for shadow in _split(bare, ","):
            lengths = [t for t in _split(shadow) if _is_length(t)]
            if lengths and not _is_zero(lengths[0]):
                return "a shadow cast sideways"
    return None


def physical_directions(css: str, name: str = "<css>") -> list[str]:
    """Every physical direction in `css` not marked as meant, as `name:line: declaration
    (why)`. Comments are blanked (their line breaks kept) before reading the declarations,
    so a side named in a comment is no declaration, and lines keep their numbers."""
    lines = css.splitlines()
    blanked = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), css)
    found = []
    for match in _DECLARATION.finditer(blanked):
        why = _why_physical(match["prop"], match["value"])
        if why is None:
            continue
        line = blanked.count("\n", 0, match.start("prop")) + 1
        marked = any(MARKER in lines[n - 1] for n in (line, line - 1) if 0 < n <= len(lines))
        if not marked:
            declaration = " ".join(f"{match['prop']}:{match['value']}".split())
            found.append(f"{name}:{line}: {declaration} ({why})")
    return found
