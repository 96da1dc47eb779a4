#!/usr/bin/env python3
"""Builds assets/fonts/NotoSansSC-rigplan-subset.otf, the CJK font rigplan ships.

Source: Noto Sans CJK SC Regular (face 2 of NotoSansCJK-Regular.ttc, Debian package
fonts-noto-cjk 1:20220127, upstream https://github.com/googlefonts/noto-cjk, SIL OFL 1.1,
copyright 2014-2021 Adobe). Kept: every character of GB2312 (the 6763 hanzi of levels 1 and 2
and its 682 symbols), CJK punctuation (U+3000-303F), full-width forms (U+FF00-FFEF), and every
non-ASCII character in rigplan's sources and catalog (so a translated string never falls
outside the font). Dropped: hinting and layout features egui does not use.

Run from the repository root:  python3 assets/fonts/make_cjk_subset.py
Needs: pip install fonttools; apt-get install fonts-noto-cjk.
"""
import pathlib
from fontTools import subset
from fontTools.ttLib import TTCollection

SRC = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FACE_SC = 2
OUT = pathlib.Path("assets/fonts/NotoSansSC-rigplan-subset.otf")


def gb2312():
    chars = set()
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def repo_chars():
    chars = set()
    for root in ["src", "catalog", "templates"]:
        for p in pathlib.Path(root).rglob("*"):
            if p.suffix in (".rs", ".ron", ".md") and p.is_file():
                chars.update(c for c in p.read_text(encoding="utf-8") if ord(c) > 0x7F)
    return chars


def main():
    wanted = gb2312() | repo_chars()
    wanted |= {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF00, 0xFFF0)}
    font = TTCollection(SRC).fonts[FACE_SC]
    cmap = font.getBestCmap()
    have = sorted(ord(c) for c in wanted if ord(c) in cmap)
    opts = subset.Options()
    opts.hinting = False
    opts.layout_features = []
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=have)
    sub.subset(font)
    font.save(OUT)
    print(f"{OUT}: {len(have)} characters, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
