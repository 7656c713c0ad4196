"""Caps on what a content file may be: every limit in one place (docs/limits.md explains them).

Content comes from strangers' pull requests; these caps keep a hostile or broken file from
costing memory or time before it is refused. Each is far above what a real game needs (the
largest game file is about 50 KB, 2,300 values, lines under 600 characters, depth under 10).
"""

# a file over 1 MiB is refused before it is decoded (the libyaml path reads ~0.3 s/MiB, but an unusual
# file takes the pure-Python path: 4-7 s/MiB)
MAX_FILE_BYTES = 1024 * 1024
MAX_LINE_CHARS = 10_000           # a longer line is refused before parsing
MAX_NODES = 10_000                # values (scalars, lists, mappings) in one file, keys included
MAX_DEPTH = 40                    # nesting of lists and mappings

# Characters no content text may hold, anywhere in a file: C0/C1 controls other than tab and
# line breaks, and invisible characters that make two ids or terms look alike or reorder text
# (zero-width space/joiners, direction marks and embeddings, word joiner, a BOM after the start).
INVISIBLE = {
    0x200B: "ZERO WIDTH SPACE", 0x200C: "ZERO WIDTH NON-JOINER", 0x200D: "ZERO WIDTH JOINER",
    0x200E: "LEFT-TO-RIGHT MARK", 0x200F: "RIGHT-TO-LEFT MARK",
    0x202A: "LEFT-TO-RIGHT EMBEDDING", 0x202B: "RIGHT-TO-LEFT EMBEDDING",
    0x202C: "POP DIRECTIONAL FORMATTING", 0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE",
    0x2060: "WORD JOINER", 0x2061: "FUNCTION APPLICATION", 0x2062: "INVISIBLE TIMES",
    0x2063: "INVISIBLE SEPARATOR", 0x2064: "INVISIBLE PLUS",
    0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE",
    0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
    0xFEFF: "ZERO WIDTH NO-BREAK SPACE (BOM)",
}
