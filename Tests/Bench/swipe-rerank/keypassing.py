"""The key match against where real swipes pass each key (a trial, 2026-12-07, forty-ninth session):

    python3 keypassing.py fit TRACES.jsonl.gz STORE.sqlite DUMP TABLES.npz
    python3 keypassing.py rows TRACES.jsonl.gz STORE.sqlite DUMP TABLES.npz [all]

`SwipeKeyMatch.terms(keys:)` matches a word's keys to the swipe's points in order (each key to one
point, the summed squared distances least) and measures each against its key's centre. `fit`
matches every in-dictionary swipe of DUMP to its true word that way and keeps, per key of the
QWERTY layout and per place in the word (first key, a key inside, last key), the mean offset of
the matched point from the key's centre and its variance on each axis (shrunk toward the place's
mean over all keys as n / (n + 30)): one table per fold fitted on the other folds' swipes, and
as row 5 the table of every swipe. `rows` matches each of DUMP's rows again with the keys moved
by their fold's mean offsets (`all`: row 5's) and writes DUMP.kmo.npy (DUMP.kmoall.npy), four
columns per row: the mean and the largest squared distance (key widths², the largest capped at
9, as the Swift terms), and the same with each axis divided by its variance (the largest capped
at 9 too).
common.load reads them as `kmo`, `kmoworst`, `kmz`, `kmzworst` when KMO=.kmo.npy, and feats.py
adds them as features.

The traces' pixels are mapped to layout units as SwipeTrace.parse maps them (a least-squares fit
of the key centres, rows scaled to the device's row height, points more than a key width outside
the keyboard dropped, then SwipeDecoderOptions.verticalOffset, 0.1, higher); `rows` first checks
that the centres' match reproduces the dump's `keymatch` column on its first 300 swipes. The
traces of an augmented dump (augment.py's, two copies a swipe) are matched the same way.
"""
import json, sys, unicodedata, numpy as np
from common import load, dump_traces

ROWS = [("qwertyuiop", 0.0), ("asdfghjkl", 0.5), ("zxcvbnm", 1.5)]   # SwipeLayout.qwerty
LETTERS = "".join(r for r, _ in ROWS)
INDEX = {c: i for i, c in enumerate(LETTERS)}
X = np.array([off + i + 0.5 for line, off in ROWS for i in range(len(line))])
ROW = np.array([r + 0.5 for r, (line, _) in enumerate(ROWS) for _ in line])
BASE = {"ß": "s", "æ": "a", "œ": "o", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "t", "ı": "i"}   # SwipeLayout's base letters
BASE_RATIO, VERTICAL_OFFSET, OUTSIDE, SHRINK = 1.5, 0.1, 1.0, 30.0

def line_fit(pairs):
    p = np.array(pairs); x, y = p[:, 0], p[:, 1]
    a = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    return a, y.mean() - a * x.mean()

def points(line, times=False):
    """The trace's points in layout units (read as the decoder reads them) and its row height,
    rounded to hundredths as SwipeEval's decoders are; `times`: also the kept points' times."""
    t = json.loads(line)
    px, py = [], []
    for c, r in sorted(t["keys"].items()):
        if c.lower() in INDEX:
            k = INDEX[c.lower()]
            px.append((r[0] + r[2] / 2, X[k])); py.append((r[1] + r[3] / 2, ROW[k] * BASE_RATIO))
    (ax, bx), (ay, by) = line_fit(px), line_fit(py)
    ratio = BASE_RATIO * ax / ay
    p = np.array([q[:2] for q in t["points"]], float)
    x, y = ax * p[:, 0] + bx, (ay * p[:, 1] + by) * ratio / BASE_RATIO
    ok = np.isfinite(x) & np.isfinite(y) & (x >= -OUTSIDE) & (x <= 10 + OUTSIDE) & (y >= -OUTSIDE) & (y <= 3 * ratio + OUTSIDE)
    P, r = np.column_stack([x[ok], y[ok] - VERTICAL_OFFSET]), round(ratio * 100) / 100
    if times:
        return P, r, np.array([q[2] if len(q) > 2 else i for i, q in enumerate(t["points"])], float)[ok]
    return P, r

def path(word):
    """The word's keys, a repeated letter once and accents dropped ("piñon" on p, i, n, o, n) and
    the letters SwipeLayout gives a base letter replaced by it, as the store's key paths."""
    keys = []
    for c in unicodedata.normalize("NFD", "".join(BASE.get(c, c) for c in word.lower())):
        if c in INDEX and (not keys or keys[-1] != INDEX[c]): keys.append(INDEX[c])
    return keys

def places(n):
    """0 for the first key, 1 inside, 2 for the last."""
    p = np.ones(n, int); p[0] = 0
    if n > 1: p[-1] = 2
    return p

def match(P, K, V, nkeys):
    """SwipeKeyMatch.terms(keys:) for C words at once: P the points [q, 2], K the words' keys
    [C, kmax, 2] (rows past a word's nkeys are padding), V each key's variances or None. Returns
    the mean and the largest squared distance over each word's keys and the matched points."""
    C, kmax, _ = K.shape; q = len(P)
    cost = (P[None, None] - K[:, :, None]) ** 2
    cost = (cost / V[:, :, None] if V is not None else cost).sum(-1)
    pad = np.arange(kmax)[None] >= nkeys[:, None]
    cost[pad] = 0   # a padding key costs nothing and keeps the match where the word's last key left it
    best, came = cost[:, 0].copy(), np.zeros((C, kmax, q), np.int64)
    at = np.arange(q)[None]
    for k in range(1, kmax):
        low = np.minimum.accumulate(best, axis=1)
        new = np.ones_like(best, bool); new[:, 1:] = best[:, 1:] < low[:, :-1]
        came[:, k] = np.maximum.accumulate(np.where(new, at, 0), axis=1)   # the first point of the least so far
        best = low + cost[:, k]
    rows = np.arange(C); p = np.argmin(best, axis=1)
    total, worst, matched = best[rows, p], np.zeros(C), np.zeros((C, kmax), np.int64)
    for k in range(kmax - 1, -1, -1):
        worst = np.maximum(worst, np.where(pad[:, k], 0, cost[rows, k, p]))
        matched[:, k] = p; p = came[rows, k, p]
    return total / nkeys, worst, matched

def swipes(D, lines):
    ends = np.r_[D["starts"][1:], len(D["sample"])]
    for g, (a, b) in enumerate(zip(D["starts"], ends)):
        if g % 2000 == 0: print("swipe %d of %d" % (g, len(ends)), file=sys.stderr, flush=True)
        yield a, b, lines[g]

def fit(D, lines, words, out):
    recs = []   # fold, key, place, dx, dy
    for a, b, line in swipes(D, lines):
        truth = [i for i in range(a, b) if D["truthb"][i]]
        keys = path(words[truth[0]]) if truth else []
        P, ratio = points(line)
        if not keys or not len(P): continue
        K = np.column_stack([X[keys], ROW[keys] * ratio])
        _, _, matched = match(P, K[None], None, np.array([len(keys)]))
        for (k, place, c, m) in zip(keys, places(len(keys)), K, matched[0]):
            recs.append((D["fold"][a], k, place, *(P[m] - c)))
    R = np.array(recs)
    mean, var = np.zeros((6, 3, len(LETTERS), 2)), np.zeros((6, 3, len(LETTERS), 2))
    for t in range(6):
        for place in range(3):
            S = R[((R[:, 0] != t) if t < 5 else True) & (R[:, 2] == place)]
            g, gv = S[:, 3:].mean(0), S[:, 3:].var(0)
            for k in range(len(LETTERS)):
                x = S[S[:, 1] == k, 3:]; w = len(x) / (len(x) + SHRINK) if len(x) >= 2 else 0.0
                mean[t, place, k] = w * (x.mean(0) if len(x) else 0) + (1 - w) * g
                var[t, place, k] = w * (x.var(0) if len(x) else 0) + (1 - w) * gv
    e, m = R[:, 3:], mean[5, R[:, 2].astype(int), R[:, 1].astype(int)]
    print("matched points of the true words: %d; mean squared distance %.4f from the centres, %.4f from the means"
          % (len(R), (e ** 2).sum(1).mean(), ((e - m) ** 2).sum(1).mean()))
    np.savez(out, mean=mean, var=var)

def rows(D, lines, words, tables, out, every):
    T = np.load(tables)
    result = np.zeros((len(D["sample"]), 4), np.float32)
    for a, b, line in swipes(D, lines):
        P, ratio = points(line)
        if not len(P): continue
        t = 5 if every else int(D["fold"][a])
        paths = [path(words[i]) for i in range(a, b)]
        nkeys = np.array([max(len(p), 1) for p in paths])
        K, V = np.full((b - a, nkeys.max(), 2), 1e3), np.ones((b - a, nkeys.max(), 2))
        C = np.zeros_like(K)
        for c, p in enumerate(paths):
            if not p: continue
            centre = np.column_stack([X[p], ROW[p] * ratio]); pl = places(len(p))
            C[c, :len(p)] = centre
            K[c, :len(p)] = centre + T["mean"][t, pl, p]
            V[c, :len(p)] = T["var"][t, pl, p]
        if a < D["starts"][min(300, len(D["starts"]) - 1)]:
            ok = np.array([bool(p) for p in paths])
            m0, _, _ = match(P, C, None, nkeys)
            assert np.allclose(m0[ok], D["keymatch"][a:b][ok], atol=1e-6), "the centres' match differs from the dump's keymatch: sample %d" % D["sample"][a]
        m1, w1, _ = match(P, K, None, nkeys)
        m2, w2, _ = match(P, K, V, nkeys)
        result[a:b] = np.column_stack([m1, np.minimum(w1, 9), m2, np.minimum(w2, 9)])
    np.save(out, result)

if __name__ == "__main__":
    mode, traces, store, dump, tables = sys.argv[1:6]
    D = load(dump)
    lines, skipped = dump_traces(traces, store, D, dump)
    words = open(dump + ".words").read().split("\n")
    if mode == "fit":
        fit(D, lines, words, tables)
    else:
        every = len(sys.argv) > 6 and sys.argv[6] == "all"
        rows(D, lines, words, tables, dump + (".kmoall.npy" if every else ".kmo.npy"), every)
