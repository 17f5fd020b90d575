import sys, time, numpy as np
from common import *
from models import *
import feats
D0 = load()
kind, K, lam = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
sel = sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[4] != "all" else None
denom = {0: 4205, 1: 3918, 2: 3652, 3: 3848, 4: 3059}
ctx = "ctx" in kind
w0 = dict(DEF)
if ctx: w0.update(frequency=0.541, context=1.26, gate=-4, contextLow=0.377)
s0 = score_ca(D0, w0, ctx)
r0 = feats.grank(-s0, D0)
keep = r0 < K
def rowsub(D, keep):
    E = {c: D[c][keep] for c in COLS + ["truthb"]}
    samp = E["sample"].astype(np.int64)
    E["starts"] = np.flatnonzero(np.r_[True, samp[1:] != samp[:-1]])
    E["gid"] = np.cumsum(np.r_[False, samp[1:] != samp[:-1]])
    E["sfold"] = E["fold"][E["starts"]].astype(int)
    E["hasTruth"] = np.logical_or.reduceat(E["truthb"], E["starts"])
    return E
D = rowsub(D0, keep)
assert len(D["starts"]) == len(D0["starts"])
X, names = feats.build(D, kind)
if sel:
    idx = [names.index(n) for n in sel]; X = X[:, idx]; names = [names[i] for i in idx]
t0 = time.time(); res = []
for k in range(5):
    tr = D["sfold"] != k
    Dtr = subset(D, tr); Dte = subset(D, ~tr)
    w, b = fit_softmax(X[Dtr["rows"]], Dtr, lam=lam)
    a = acc_by_fold(X[Dte["rows"]] @ w, Dte, {k: denom[k]})[0]
    res.append(a)
r = np.array(res).mean(0) * 100
print("RESULT topK", kind, K, lam, len(names), "top1 %.2f top4 %.2f" % tuple(r), "%.0fs" % (time.time() - t0), flush=True)
if len(sys.argv) > 5:
    w, b = fit_softmax(X, D, lam=lam)
    for n, wi, si in zip(names, w, X.std(0)): print("  %-26s % .6g   (w*sd % .3f)" % (n, wi, wi * si))
