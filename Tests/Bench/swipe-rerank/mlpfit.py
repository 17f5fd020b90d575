import sys, time, numpy as np
from common import *
from models import *
import feats
D0 = load()
kind, K, H, lam, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
sel = open(sys.argv[6]).read().strip().split(",")
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
X, names = feats.build(D, kind)
idx = [names.index(n) for n in sel]; X = X[:, idx]; names = [names[i] for i in idx]

def fit_mlp(X, D, H, lam, iters, seed=1):
    keep = D["hasTruth"][D["gid"]]
    X = X[keep]; gid = D["gid"][keep]; tr = D["truthb"][keep]
    _, gid = np.unique(gid, return_inverse=True)
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    n = len(starts)
    mu = X.mean(0); sd = X.std(0); sd[sd == 0] = 1
    Z = (X - mu) / sd
    ntr = np.add.reduceat(tr.astype(float), starts)
    y = tr / ntr[gid]
    F = Z.shape[1]
    # linear part initialised by the conditional logit

    rng = np.random.default_rng(seed)
    P = {"wl": np.zeros(F), "W1": rng.normal(0, 0.3 / np.sqrt(F), (F, H)), "b1": np.zeros(H), "w2": rng.normal(0, 0.1, H)}
    m = {k: np.zeros_like(v) for k, v in P.items()}; v2 = {k: np.zeros_like(v) for k, v in P.items()}
    lr = 0.03
    for it in range(1, iters + 1):
        A = np.tanh(Z @ P["W1"] + P["b1"])
        s = Z @ P["wl"] + A @ P["w2"]
        mx = np.maximum.reduceat(s, starts)
        e = np.exp(s - mx[gid]); Zs = np.add.reduceat(e, starts); p = e / Zs[gid]
        g_s = (p - y) / n
        G = {"wl": Z.T @ g_s + lam * P["wl"], "w2": A.T @ g_s + lam * P["w2"]}
        gA = np.outer(g_s, P["w2"]) * (1 - A * A)
        G["W1"] = Z.T @ gA + lam * P["W1"]; G["b1"] = gA.sum(0)
        for k in P:
            m[k] = 0.9 * m[k] + 0.1 * G[k]; v2[k] = 0.999 * v2[k] + 0.001 * G[k] ** 2
            P[k] -= lr * (m[k] / (1 - 0.9 ** it)) / (np.sqrt(v2[k] / (1 - 0.999 ** it)) + 1e-8)
    global PARAMS
    PARAMS = (P, mu, sd)
    def score(Xn):
        Zn = (Xn - mu) / sd
        return Zn @ P["wl"] + np.tanh(Zn @ P["W1"] + P["b1"]) @ P["w2"]
    return score


sc = fit_mlp(X, D, H, lam, iters)
P, mu, sd = PARAMS
lin = P["wl"] / sd
W1 = P["W1"] / sd[:, None]            # F x H, on raw features
b1 = P["b1"] - (mu / sd) @ P["W1"]
def fmt(a): return ", ".join("%.9g" % x for x in a)
print("FEATURES", names)
print("LINEAR [" + fmt(lin) + "]")
print("HIDDEN_W (H rows of F)")
for h in range(W1.shape[1]): print("[" + fmt(W1[:, h]) + "],")
print("HIDDEN_B [" + fmt(b1) + "]")
print("OUTPUT [" + fmt(P["w2"]) + "]")
# check: raw-space score equals the standardized one
Zs = sc(X[:1000]); Rs = X[:1000] @ lin + np.tanh(X[:1000] @ W1 + b1) @ P["w2"]
print("CHECK", np.ptp(Zs - Rs))
