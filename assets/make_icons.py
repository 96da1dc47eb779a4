#!/usr/bin/env python3
"""Draws rigplan's icons: assets/rigplan.png (256x256 app icon) and assets/icons/<kind>.png
(32x32 white-on-transparent category icons, tinted by the app per theme).

Every icon is a list of simple shapes (rounded rectangles, circles, rings, thick line
segments) added to or cut out of a layer, rendered with 4x4 supersampling for smooth edges.
Only the Python standard library is used. Run from the repository root:
    python3 assets/make_icons.py
"""
import math
import os
import struct
import zlib

SS = 4  # supersampling per axis


def rect(x0, y0, x1, y1, r=0.0):
    def inside(x, y):
        if x < x0 or x > x1 or y < y0 or y > y1:
            return False
        cx = min(max(x, x0 + r), x1 - r)
        cy = min(max(y, y0 + r), y1 - r)
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r + 1e-9
    return inside


def circle(cx, cy, r):
    return lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def ring(cx, cy, r0, r1):
    return lambda x, y: r0 * r0 <= (x - cx) ** 2 + (y - cy) ** 2 <= r1 * r1


def seg(x0, y0, x1, y1, w):
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy

    def inside(x, y):
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / ll))
        px, py = x0 + t * dx, y0 + t * dy
        return (x - px) ** 2 + (y - py) ** 2 <= (w / 2) ** 2
    return inside


def outline(x0, y0, x1, y1, r, w):
    outer = rect(x0, y0, x1, y1, r)
    inner = rect(x0 + w, y0 + w, x1 - w, y1 - w, max(0.0, r - w))
    return lambda x, y: outer(x, y) and not inner(x, y)


def render(size, layers, scale=1.0):
    """layers: [(rgb, [(op, shape), ...])]; shapes in a size/scale coordinate space."""
    px = [[(0.0, 0.0, 0.0, 0.0)] * size for _ in range(size)]
    for rgb, ops in layers:
        for j in range(size):
            for i in range(size):
                hits = 0
                for sj in range(SS):
                    for si in range(SS):
                        x = (i + (si + 0.5) / SS) / scale
                        y = (j + (sj + 0.5) / SS) / scale
                        inside = False
                        for op, shape in ops:
                            if shape(x, y):
                                inside = op == "+"
                        hits += inside
                a = hits / (SS * SS)
                if a == 0:
                    continue
                r0, g0, b0, a0 = px[j][i]
                out_a = a + a0 * (1 - a)
                mix = lambda c, c0: (c * a + c0 * a0 * (1 - a)) / out_a
                px[j][i] = (mix(rgb[0], r0), mix(rgb[1], g0), mix(rgb[2], b0), out_a)
    return px


def write_png(path, px):
    h, w = len(px), len(px[0])
    raw = bytearray()
    for row in px:
        raw.append(0)
        for r, g, b, a in row:
            raw += bytes((round(r), round(g), round(b), round(a * 255)))

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


WHITE = (255, 255, 255)


def fan(cx, cy, r):
    """A fan: ring, hub and four blades."""
    ops = [("+", ring(cx, cy, r - 1.6, r))]
    ops.append(("+", circle(cx, cy, r * 0.28)))
    for k in range(4):
        ang = k * math.pi / 2 + 0.5
        ops.append(("+", seg(cx, cy, cx + math.cos(ang) * (r - 2.2), cy + math.sin(ang) * (r - 2.2), 2.2)))
    return ops


ICONS = {
    # A graphics card: body with two fans, bracket on the left, gold fingers below.
    "gpu": [("+", rect(5, 8, 30, 23, 2.5)), ("-", circle(12, 15.5, 5.2)), ("-", circle(23, 15.5, 5.2))]
    + [("+", circle(12, 15.5, 1.6)), ("+", circle(23, 15.5, 1.6))]
    + [("+", ring(12, 15.5, 3.6, 4.4)), ("+", ring(23, 15.5, 3.6, 4.4))]
    + [("+", rect(2, 6, 4, 27, 0.8)), ("+", rect(9, 24, 22, 27, 0.5))],
    # A processor: package with pins on all four sides and a die.
    "cpu": [("+", outline(8, 8, 24, 24, 2, 2)), ("+", rect(12, 12, 20, 20, 1))]
    + [("+", seg(11 + 5 * k, 3, 11 + 5 * k, 8, 2)) for k in range(3)]
    + [("+", seg(11 + 5 * k, 24, 11 + 5 * k, 29, 2)) for k in range(3)]
    + [("+", seg(3, 11 + 5 * k, 8, 11 + 5 * k, 2)) for k in range(3)]
    + [("+", seg(24, 11 + 5 * k, 29, 11 + 5 * k, 2)) for k in range(3)],
    # A mainboard: outline, CPU socket, DIMM slots, PCIe slots.
    "motherboard": [("+", outline(3, 3, 29, 29, 2, 2)), ("+", outline(7, 7, 15, 15, 1, 1.6))]
    + [("+", rect(18 + 3 * k, 6, 19.6 + 3 * k, 16, 0.5)) for k in range(3)]
    + [("+", rect(7, 19 + 4 * k, 25, 20.8 + 4 * k, 0.6)) for k in range(2)],
    # A DIMM: long module with chips and a key notch.
    "memory": [("+", rect(2, 9, 30, 22, 1.5)), ("-", rect(15, 19, 17, 23))]
    + [("-", rect(4.5 + 6.5 * k, 11.5, 8.5 + 6.5 * k, 16.5, 0.5)) for k in range(4)]
    + [("+", rect(3 + 2 * k, 23, 4 + 2 * k, 26)) for k in range(13) if k != 6],
    # A drive: enclosure with a platter and an activity light.
    "storage": [("+", outline(5, 3, 27, 29, 2.5, 2)), ("+", ring(16, 14, 5.5, 7.3)), ("+", circle(16, 14, 1.8))]
    + [("+", seg(16, 14, 22, 22, 1.8)), ("+", circle(10, 24.5, 1.4))],
    # A power supply: box, fan, inlet.
    "psu": [("+", outline(2, 6, 30, 26, 2, 2))] + fan(13, 16, 7.5) + [("+", outline(22, 10, 27, 15, 0.5, 1.4))]
    + [("+", rect(22, 19, 27, 21, 0.5))],
    # A cooler: a fan in a square frame.
    "cooler": [("+", outline(3, 3, 29, 29, 4, 2))] + fan(16, 16, 10.5),
    # A tower chassis: case, drive bays, power button, vent.
    "chassis": [("+", outline(8, 2, 24, 30, 2, 2))]
    + [("+", rect(11, 6 + 3.2 * k, 21, 7.6 + 3.2 * k, 0.4)) for k in range(2)]
    + [("+", circle(16, 16, 2))] + [("+", seg(12, 21 + 2.6 * k, 20, 21 + 2.6 * k, 1.1)) for k in range(3)],
    # A network card: small card, bracket with two ports, fingers.
    "nic": [("+", rect(8, 9, 30, 21, 2)), ("+", rect(3, 5, 6, 27, 0.8)), ("+", rect(12, 22, 24, 25, 0.5))]
    + [("-", rect(11 + 8 * k, 12, 16 + 8 * k, 18, 0.8)) for k in range(2)],
    # A switch: 1U box with two rows of ports.
    "switch": [("+", rect(1, 9, 31, 23, 2))]
    + [("-", rect(3.5 + 3.5 * k, 11.5, 5.5 + 3.5 * k, 14.5, 0.3)) for k in range(8)]
    + [("-", rect(3.5 + 3.5 * k, 17.5, 5.5 + 3.5 * k, 20.5, 0.3)) for k in range(8)],
    # A complete system: three stacked rack units with status lights.
    "system": [s for k in range(3) for s in (("+", rect(3, 4 + 8.5 * k, 29, 10.5 + 8.5 * k, 1.5)),
                                             ("-", circle(7, 7.25 + 8.5 * k, 1.4)),
                                             ("-", rect(12, 6.5 + 8.5 * k, 25, 8 + 8.5 * k, 0.5)))],
}


def app_icon():
    """256x256: a blue rounded tile, a white GPU card and a green rising curve."""
    s = 256 / 32
    bg = (24, 58, 110)
    tile = [("+", rect(1, 1, 31, 31, 6.5))]
    card = [("+", rect(5, 9, 27, 20, 2)), ("-", circle(11.5, 14.5, 3.8)), ("-", circle(20.5, 14.5, 3.8))]
    card += [("+", circle(11.5, 14.5, 1.2)), ("+", circle(20.5, 14.5, 1.2))]
    card += [("+", rect(9, 20.5, 19, 22.5, 0.4))]
    curve = [("+", seg(5, 28, 12, 25.5, 1.8)), ("+", seg(12, 25.5, 18, 26.5, 1.8)), ("+", seg(18, 26.5, 27, 23, 1.8))]
    curve += [("+", circle(27, 23, 1.6))]
    return render(256, [(bg, tile), (WHITE, card), ((120, 220, 130), curve)], scale=s)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, ops in ICONS.items():
        write_png(os.path.join(here, "icons", f"{name}.png"), render(32, [(WHITE, ops)]))
    write_png(os.path.join(here, "rigplan.png"), app_icon())


if __name__ == "__main__":
    main()
