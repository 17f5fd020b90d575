import sys, time, numpy as np
from common import *
from models import *
kind, K, lam = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
sel = sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[4] != "all" else None
D, X, names = top_k(load(), kind, K, sel)
t0 = time.time(); res = []
for k in range(5):
    tr = D["sfold"] != k
    Dtr = subset(D, tr); Dte = subset(D, ~tr)
    w, b = fit_softmax(X[Dtr["rows"]], Dtr, lam=lam)
    a = acc_by_fold(X[Dte["rows"]] @ w, Dte, {k: DENOM[k]})[0]
    res.append(a)
r = np.array(res).mean(0) * 100
print("RESULT topK", kind, K, lam, len(names), "top1 %.2f top4 %.2f" % tuple(r), "%.0fs" % (time.time() - t0), flush=True)
if len(sys.argv) > 5:
    w, b = fit_softmax(X, D, lam=lam)
    for n, wi, si in zip(names, w, X.std(0)): print("  %-26s % .6g   (w*sd % .3f)" % (n, wi, wi * si))
