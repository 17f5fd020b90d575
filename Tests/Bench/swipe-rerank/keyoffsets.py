"""Where real swipes start and end around their first and last keys, key by key:
python3 keyoffsets.py DUMP OUT.npz [swift]

Per key of the layout (the dump's `fkey` and `lkey`, the layout's key order), the mean and the
variance of the swipe's first point minus the word's first key's centre (dx, dy, key widths) over
the swipes whose true word starts there, and the same of the last point against the last key,
each shrunk toward the mean over all keys as n / (n + 30) for a key with n swipes. OUT holds one
table per fold fitted on the other folds' swipes (for `forest.py cv`: feats.py reads it from
KEYOFF) and, as row 5, the table of every swipe; `swift` prints that one as
`SwipeEndKeyOffsets.fittedStart`, `fittedEnd` and their `Other`s, as they stand in
Sources/LexiforgeReader/Swipe/SwipeEndKeyOffsets.swift.
"""
import sys, numpy as np
from common import load

SHRINK = 30.0

def table(D, rows, key_column, side):
    xy = np.column_stack([D[side + "dx"][rows], D[side + "dy"][rows]])
    keys = D[key_column][rows].astype(int)
    g, gv = xy.mean(0), xy.var(0)
    mean = np.tile(g, (NK, 1)); var = np.tile(gv, (NK, 1))
    for key in range(NK):
        sel = xy[keys == key]; n = len(sel)
        if n < 2: continue
        w = n / (n + SHRINK)
        mean[key] = w * sel.mean(0) + (1 - w) * g
        var[key] = w * sel.var(0) + (1 - w) * gv
    return mean, var, g, gv

if __name__ == "__main__":
    D = load(sys.argv[1])
    # one true row per swipe (several entries may match: its, it's)
    idx = np.flatnonzero(D["truthb"])
    _, u = np.unique(D["sample"][idx], return_index=True)
    truth = np.zeros(len(D["truthb"]), bool); truth[idx[u]] = True
    NK = int(max(D["fkey"].max(), D["lkey"].max())) + 1
    out = {}
    for side, column in (("s", "fkey"), ("e", "lkey")):
        tables = [table(D, truth & (D["fold"] != k) & (D[column] >= 0), column, side) for k in range(5)]
        tables.append(table(D, truth & (D[column] >= 0), column, side))
        out[side + "mean"] = np.array([t[0] for t in tables]); out[side + "var"] = np.array([t[1] for t in tables])
        out[side + "global"] = np.array([np.r_[t[2], t[3]] for t in tables])
        # The table of every swipe rounded as the Swift table holds it, so that a forest fitted
        # on it (`fit`, KEYOFF_ALL=1) reads what the decoder computes.
        for name in ("mean", "var", "global"):
            out[side + name][5] = np.round(out[side + name][5], 4)
    np.savez(sys.argv[2], **out)
    if len(sys.argv) > 3 and sys.argv[3] == "swift":
        letters = "qwertyuiopasdfghjklzxcvbnm"   # the qwerty layout's key order (SwipeLayout.qwerty)
        assert NK == len(letters), NK
        for side, name in (("s", "fittedStart"), ("e", "fittedEnd")):
            m, v, g = out[side + "mean"][5], out[side + "var"][5], out[side + "global"][5]
            print("    public static let %s: [Character: Offset] = [" % name)
            for i, c in enumerate(letters):
                print('        "%s": Offset(%.4f, %.4f, %.4f, %.4f),' % (c, m[i, 0], m[i, 1], v[i, 0], v[i, 1]))
            print("    ]")
            print("    public static let %sOther = Offset(%.4f, %.4f, %.4f, %.4f)" % (name, g[0], g[1], g[2], g[3]))
