import numpy as np, os, time
EXTRA_COLUMNS = {"KMO": ["kmo", "kmoworst", "kmz", "kmzworst"], "SHAPE": ["ctc", "ctcn", "ctcrel"]}
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
    # Trial columns, one .npy of each row's values beside the dump, read when their variable names
    # it: KMO=.kmo.npy, keypassing.py's (forty-ninth session); SHAPE=.shape.npy, shapenet.py's (fiftieth).
    for var, names in EXTRA_COLUMNS.items():
        if os.environ.get(var) and os.path.exists(path + os.environ[var]):
            K = np.load(path + os.environ[var])
            for i, c in enumerate(names):
                D[c] = K[:, i].astype(np.float64)
                COLS.append(c)
    D["sfold"] = D["fold"][starts].astype(int)
    D["hasTruth"] = np.logical_or.reduceat(D["truthb"], starts)
    return D

def dump_traces(traces_path, store, D, dump_path):
    """The traces of DUMP's swipes, one per swipe in its `sample` order: the traces whose word's
    letters are a word of the store's swipe features (the tuner's in-dictionary swipes), each
    checked against the dump's truth rows, a trace the decoder skipped (whose word the next truth
    row does not match) dropped. Lines as read (JSON text) and the number dropped."""
    import gzip, json, sqlite3
    def letters(w): return "".join(c for c in w.lower() if c not in "'\u2019")
    words = set(letters(w) for (w,) in sqlite3.connect(store).execute(
        "SELECT text FROM word WHERE id IN (SELECT word_id FROM swipe_feature)"))
    lines = [l for l in gzip.open(traces_path, "rt")]
    parsed = [json.loads(l) for l in lines]
    candidates = [i for i, t in enumerate(parsed) if t.get("word") and letters(t["word"]) in words]
    spelled = open(dump_path + ".words").read().split("\n")
    ends = np.r_[D["starts"][1:], len(D["sample"])]
    kept, c = [], 0
    for a, e in zip(D["starts"], ends):
        truth = [spelled[i] for i in range(a, e) if D["truthb"][i]]
        while truth and letters(truth[0]) != letters(parsed[candidates[c]]["word"]):
            c += 1
        kept.append(candidates[c]); c += 1
    return [lines[i] for i in kept], len(candidates) - len(kept)

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
