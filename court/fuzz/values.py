"""Edge-biased literal values for generated programs, as Lispex source text."""

from __future__ import annotations

INTS = ["0", "-1", "1", "2", "7", "-7", "10", "255", "1000", "-3", "18446744073709551616",
        "-1000000000000000000000000000000", "9007199254740993", "4294967296"]
RATIONALS = ["1/3", "-7/2", "2/4", "22/7", "-1/1000000", "100000000000000000001/3"]
FLOATS = ["0.0", "-0.0", "1.5", "-2.25", "0.1", "123.456", "1e21", "1e-7", "1e300", "-1e300",
          "5e-324", "2.5", "3.0", "1e22", "1.7976931348623157e308", "0.000001", "1e16"]
STRINGS = ['""', '"a"', '"hello"', '"héllo wörld"', '"日本語"', '"a\\"b"', '"tab\\there"',
           '"line\\nbreak"', '"x\\x3bb;y"', '"   "', '"ABC def"', '"straße"']
CHARS = ["#\\a", "#\\Z", "#\\space", "#\\newline", "#\\x3bb", "#\\0", "#\\tab", "#\\é"]
SYMBOLS = ["'a", "'b", "'deny", "'allow", "'x->y", "'...", "'+", "'λ"]
NAMES = ["a", "b", "c", "n", "k", "x", "y", "acc", "lst", "s", "v", "total", "item", "rate",
         "age", "score"]
