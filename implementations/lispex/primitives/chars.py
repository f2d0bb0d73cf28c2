"""Characters: code points, Unicode classification, simple case mapping and comparison."""

from __future__ import annotations

import operator
import unicodedata
from bisect import bisect_right
from itertools import pairwise
from typing import Any

from ..values import Char
from .errors_util import wrong_type
from .table import define

# Unicode's Alphabetic property is the letters (Lu Ll Lt Lm Lo), the letter numbers (Nl) and
# Other_Alphabetic. Python's unicodedata gives the categories; these are the code points that are
# Alphabetic without being in one of those categories (mostly combining marks such as U+0345,
# plus letters newer than Python's Unicode tables), as hex ranges, from Unicode 17 data.
_EXTRA_ALPHABETIC = (
    "345 363-36F 5B0-5BD 5BF 5C1-5C2 5C4-5C5 5C7 610-61A 64B-657 659-65F 670 6D6-6DC 6E1-6E4 "
    "6E7-6E8 6ED 711 730-73F 7A6-7B0 816-817 81B-823 825-827 829-82C 88F 897 8D4-8DF 8E3-8E9 "
    "8F0-903 93A-93B 93E-94C 94E-94F 955-957 962-963 981-983 9BE-9C4 9C7-9C8 9CB-9CC 9D7 "
    "9E2-9E3 A01-A03 A3E-A42 A47-A48 A4B-A4C A51 A70-A71 A75 A81-A83 ABE-AC5 AC7-AC9 ACB-ACC "
    "AE2-AE3 AFA-AFC B01-B03 B3E-B44 B47-B48 B4B-B4C B56-B57 B62-B63 B82 BBE-BC2 BC6-BC8 "
    "BCA-BCC BD7 C00-C04 C3E-C44 C46-C48 C4A-C4C C55-C56 C5C C62-C63 C81-C83 CBE-CC4 CC6-CC8 "
    "CCA-CCC CD5-CD6 CDC CE2-CE3 CF3 D00-D03 D3E-D44 D46-D48 D4A-D4C D57 D62-D63 D81-D83 "
    "DCF-DD4 DD6 DD8-DDF DF2-DF3 E31 E34-E3A E4D EB1 EB4-EB9 EBB-EBC ECD F71-F83 F8D-F97 "
    "F99-FBC 102B-1036 1038 103B-103E 1056-1059 105E-1060 1062-1064 1067-106D 1071-1074 "
    "1082-108D 108F 109A-109D 1712-1713 1732-1733 1752-1753 1772-1773 17B6-17C8 1885-1886 "
    "18A9 1920-192B 1930-1938 1A17-1A1B 1A55-1A5E 1A61-1A74 1ABF-1AC0 1ACC-1ACE 1B00-1B04 "
    "1B35-1B43 1B80-1B82 1BA1-1BA9 1BAC-1BAD 1BE7-1BF1 1C24-1C36 1C89-1C8A 1DD3-1DF4 "
    "24B6-24E9 2DE0-2DFF A674-A67B A69E-A69F A7CB-A7CF A7D2 A7D4 A7DA-A7DC A7F1 A802 A80B "
    "A823-A827 A880-A881 A8B4-A8C3 A8C5 A8FF A926-A92A A947-A952 A980-A983 A9B4-A9BF A9E5 "
    "AA29-AA36 AA43 AA4C-AA4D AA7B-AA7D AAB0 AAB2-AAB4 AAB7-AAB8 AABE AAEB-AAEF AAF5 "
    "ABE3-ABEA FB1E 10376-1037A 105C0-105F3 10940-10959 10A01-10A03 10A05-10A06 10A0C-10A0F "
    "10D24-10D27 10D4A-10D65 10D69 10D6F-10D85 10EAB-10EAC 10EC2-10EC7 10EFA-10EFC "
    "11000-11002 11038-11045 11073-11074 11080-11082 110B0-110B8 110C2 11100-11102 "
    "11127-11132 11145-11146 11180-11182 111B3-111BF 111CE-111CF 1122C-11234 11237 "
    "1123E-11241 112DF-112E8 11300-11303 1133E-11344 11347-11348 1134B-1134C 11357 "
    "11362-11363 11380-11389 1138B 1138E 11390-113B5 113B7-113C0 113C2 113C5 113C7-113CA "
    "113CC-113CD 113D1 113D3 11435-11441 11443-11445 114B0-114C1 115AF-115B5 115B8-115BE "
    "115DC-115DD 11630-1163E 11640 116AB-116B5 1171D-1172A 1182C-11838 11930-11935 "
    "11937-11938 1193B-1193C 11940 11942 119D1-119D7 119DA-119DF 119E4 11A01-11A0A "
    "11A35-11A39 11A3B-11A3E 11A51-11A5B 11A8A-11A97 11B60-11B67 11BC0-11BE0 11C2F-11C36 "
    "11C38-11C3E 11C92-11CA7 11CA9-11CB6 11D31-11D36 11D3A 11D3C-11D3D 11D3F-11D41 11D43 "
    "11D47 11D8A-11D8E 11D90-11D91 11D93-11D96 11DB0-11DDB 11EF3-11EF6 11F00-11F10 "
    "11F12-11F3A 11F3E-11F40 1342F 13441-13446 13460-143FA 16100-1612E 16D40-16D6C "
    "16EA0-16EB8 16EBB-16ED3 16F4F 16F51-16F87 16F8F-16F92 16FF0-16FF6 187F8-187FF 18CFF "
    "18D09-18D1E 18D80-18DF2 1B132 1B155 1BC9E 1DF25-1DF2A 1E000-1E006 1E008-1E018 "
    "1E01B-1E021 1E023-1E024 1E026-1E02A 1E030-1E06D 1E08F 1E4D0-1E4EB 1E5D0-1E5ED 1E5F0 "
    "1E6C0-1E6DE 1E6E0-1E6F5 1E6FE-1E6FF 1E947 1F130-1F149 1F150-1F169 1F170-1F189 "
    "2B739-2B73F 2CEA2-2CEAD 2EBF0-2EE5D 31350-33479 "
)
_LETTER_CATEGORIES = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Nl"))


def _parse_ranges(text: str) -> tuple[list[int], list[int]]:
    starts, ends = [], []
    for token in text.split():
        lo, _, hi = token.partition("-")
        starts.append(int(lo, 16))
        ends.append(int(hi or lo, 16))
    return starts, ends


_EXTRA_STARTS, _EXTRA_ENDS = _parse_ranges("".join(_EXTRA_ALPHABETIC))

# The White_Space property (Python's str.isspace also accepts U+001C..U+001F).
_WHITESPACE = frozenset((0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680,
                         *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000))


def is_alphabetic(code: int) -> bool:
    if unicodedata.category(chr(code)) in _LETTER_CATEGORIES:
        return True
    i = bisect_right(_EXTRA_STARTS, code) - 1
    return i >= 0 and code <= _EXTRA_ENDS[i]


def upcase(code: int) -> int:
    """Simple uppercase mapping.

    Python exposes only full mappings. Where the full uppercase is several characters, the
    simple mapping (when Unicode defines one) is the titlecase letter: U+1F80 -> U+1F88,
    U+1FB3 -> U+1FBC. Characters like U+00DF, whose simple mapping is themselves, title-case to
    several characters and stay unchanged.
    """
    c = chr(code)
    u = c.upper()
    if len(u) == 1:
        return ord(u)
    t = c.title()
    return ord(t) if len(t) == 1 else code


# The only character whose full lowercase is several characters while its simple lowercase is a
# single one: U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE -> U+0069.
_SIMPLE_LOWER_EXTRA = {0x130: 0x69}


def downcase(code: int) -> int:
    """Simple lowercase mapping: the full mapping when it is one character, else the simple
    mapping Unicode defines (see _SIMPLE_LOWER_EXTRA), else unchanged."""
    u = chr(code).lower()
    return ord(u) if len(u) == 1 else _SIMPLE_LOWER_EXTRA.get(code, code)


def foldcase(code: int) -> int:
    """Simple case folding.

    The full folding when it is one character; otherwise the lowercase mapping when that is one
    character (U+1E9E folds to U+00DF this way); otherwise unchanged (U+00DF, U+0130).
    """
    c = chr(code)
    f = c.casefold()
    if len(f) == 1:
        return ord(f)
    f = c.lower()
    return ord(f) if len(f) == 1 else code


def _char(name: str, x: Any) -> Char:
    if type(x) is not Char:
        wrong_type(name, "a character", x)
    return x


@define("char->integer")
def char_to_integer(c: Any) -> int:
    return _char("char->integer", c).code


@define("integer->char")
def integer_to_char(n: Any) -> Char:
    if type(n) is not int or not (0 <= n <= 0x10FFFF) or 0xD800 <= n <= 0xDFFF:
        wrong_type("integer->char", "a Unicode scalar value", n)
    return Char(n)


@define("char-alphabetic?")
def char_alphabetic(c: Any) -> bool:
    return is_alphabetic(_char("char-alphabetic?", c).code)


@define("char-numeric?")
def char_numeric(c: Any) -> bool:
    return 0x30 <= _char("char-numeric?", c).code <= 0x39


@define("char-whitespace?")
def char_whitespace(c: Any) -> bool:
    return _char("char-whitespace?", c).code in _WHITESPACE


@define("char-upper-case?")
def char_upper_case(c: Any) -> bool:
    return chr(_char("char-upper-case?", c).code).isupper()


@define("char-lower-case?")
def char_lower_case(c: Any) -> bool:
    return chr(_char("char-lower-case?", c).code).islower()


@define("char-upcase")
def char_upcase(c: Any) -> Char:
    code = _char("char-upcase", c).code
    mapped = upcase(code)
    return c if mapped == code else Char(mapped)


@define("char-downcase")
def char_downcase(c: Any) -> Char:
    code = _char("char-downcase", c).code
    mapped = downcase(code)
    return c if mapped == code else Char(mapped)


@define("char-foldcase")
def char_foldcase(c: Any) -> Char:
    code = _char("char-foldcase", c).code
    mapped = foldcase(code)
    return c if mapped == code else Char(mapped)


def _comparison(name: str, holds, key):
    def compare(*chars: Any) -> bool:
        codes = [key(_char(name, c).code) for c in chars]  # every argument is type-checked
        return all(holds(a, b) for a, b in pairwise(codes))

    compare.__name__ = compare.__qualname__ = name
    return compare


def _same(code: int) -> int:
    return code


for _op, _holds in (("=", operator.eq), ("<", operator.lt), ("<=", operator.le),
                    (">", operator.gt), (">=", operator.ge)):
    define(f"char{_op}?")(_comparison(f"char{_op}?", _holds, _same))
    define(f"char-ci{_op}?")(_comparison(f"char-ci{_op}?", _holds, foldcase))
