"""Augmented copies of real swipes, for fitting the context forests (forest.py, AUG=DUMP2).

    python3 augment.py SOURCE.jsonl.gz OUT.jsonl.gz COPIES SEED [SHIFT,SCALE,TURN,TIME]

Each copy of a trace is the whole swipe moved, scaled about its centroid, turned and re-timed,
the way another person's swipe of the same word differs from it: moved by SHIFT key widths in x
and in y (normal, standard deviation 0.15: users' own mean offsets spread 0.10-0.16 key widths,
docs/swipe.md), scaled by exp(N(0, SCALE = 0.08)), turned by N(0, TURN = 2) degrees, its times
multiplied by exp(N(0, TIME = 0.2)). The word, the user (so the copies stay in their user's fold)
and the sentence are kept; the keys are the trace's own. The same SEED gives the same file.
"""
import gzip, json, math, random, sys

src, dst, copies, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
SHIFT, SCALE, TURN, TIME = [float(x) for x in (sys.argv[5] if len(sys.argv) > 5 else "0.15,0.08,2,0.2").split(",")]
rng = random.Random(seed)
opener = gzip.open if src.endswith(".gz") else open
with opener(src, "rt") as f, gzip.open(dst, "wt") as g:
    for line in f:
        t = json.loads(line)
        kw = t["keys"]["q"][2]   # a key's width, in the trace's units
        pts = t["points"]
        cx = sum(p[0] for p in pts) / len(pts); cy = sum(p[1] for p in pts) / len(pts)
        for c in range(copies):
            dx, dy = rng.gauss(0, SHIFT) * kw, rng.gauss(0, SHIFT) * kw
            s = math.exp(rng.gauss(0, SCALE)); a = math.radians(rng.gauss(0, TURN)); ts = math.exp(rng.gauss(0, TIME))
            ca, sa = math.cos(a), math.sin(a)
            out = []
            for p in pts:
                x, y = (p[0] - cx) * s, (p[1] - cy) * s
                out.append([round(cx + ca * x - sa * y + dx, 2), round(cy + sa * x + ca * y + dy, 2), round(p[2] * ts, 1)] + p[3:])
            u = dict(t); u["points"] = out
            g.write(json.dumps(u) + "\n")
