import numpy as np, os, time
COLS = "sample fold truth location shape cost lexicon lm fit start end length missed keys".split()
def load(path=os.environ.get("DUMP", "/tmp/swipe-rerank/dump.tsv")):
    npy = path + ".npy"
    if os.path.exists(npy) and os.path.getmtime(npy) > os.path.getmtime(path):
        d = np.load(npy)
    else:
        d = np.loadtxt(path, delimiter="\t", skiprows=1)
        np.save(npy, d)
    with open(path) as f:
        header = f.readline().strip().split("\t")
    COLS[:] = header   # dumps since 2026-11-26 add the SwipeDwell terms
    D = {c: d[:, i] for i, c in enumerate(COLS)}
    samp = D["sample"].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, samp[1:] != samp[:-1]])
    gid = np.cumsum(np.r_[False, samp[1:] != samp[:-1]])
    D["starts"] = starts; D["gid"] = gid
    D["truthb"] = D["truth"] > 0.5
    D["sfold"] = D["fold"][starts].astype(int)
    D["hasTruth"] = np.logical_or.reduceat(D["truthb"], starts)
    return D

def ranks(s, D):
    """better[count] per group: number of non-truth rows scoring >= best truth."""
    starts, gid, tr = D["starts"], D["gid"], D["truthb"]
    t = np.maximum.reduceat(np.where(tr, s, -np.inf), starts)
    better = np.add.reduceat((~tr) & (s >= t[gid]), starts)
    better[~D["hasTruth"]] = 10**6
    return better

def acc_by_fold(s, D, denom):
    """denom: dict fold -> number of in-dictionary swipes (tuner's per-fold counts)."""
    b = ranks(s, D); out = []
    for k in sorted(denom):
        m = D["sfold"] == k
        out.append(((b[m] == 0).sum() / denom[k], (b[m] < 4).sum() / denom[k]))
    return np.array(out)
