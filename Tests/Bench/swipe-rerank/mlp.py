"""The reranker with a hidden layer: python3 mlp.py cv|fit KIND K UNITS L2 STEPS FEATURE_FILE.

cv: nested by-user figures (fit on 4 folds, measure the 5th). fit: fit on every fold and print
the weights in raw feature units for SwipeReranker.swift (linear, hidden rows, biases, output)."""
import os, sys, time, numpy as np
from common import *
from models import *
mode, kind, K, H, lam, iters = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
D, X, names = top_k(load(), kind, K, open(sys.argv[7]).read().strip().split(","))

def fit_mlp(X, D, H, lam, iters, seed=1):
    """Softmax over each swipe's rows of s = z·wl + tanh(z W1 + b1)·w2 (z standardised), L2 lam, full-batch Adam."""
    Z, y, gid, starts, n, mu, sd = groups(X, D)
    F = Z.shape[1]
    rng = np.random.default_rng(seed)
    P = {"wl": np.zeros(F), "W1": rng.normal(0, 0.3 / np.sqrt(F), (F, H)), "b1": np.zeros(H), "w2": rng.normal(0, 0.1, H)}
    m = {k: np.zeros_like(v) for k, v in P.items()}; v2 = {k: np.zeros_like(v) for k, v in P.items()}
    lr = 0.03
    for it in range(1, iters + 1):
        A = np.tanh(Z @ P["W1"] + P["b1"])
        s = Z @ P["wl"] + A @ P["w2"]
        mx = np.maximum.reduceat(s, starts)
        e = np.exp(s - mx[gid]); p = e / np.add.reduceat(e, starts)[gid]
        g_s = (p - y) / n
        G = {"wl": Z.T @ g_s + lam * P["wl"], "w2": A.T @ g_s + lam * P["w2"]}
        gA = np.outer(g_s, P["w2"]) * (1 - A * A)
        G["W1"] = Z.T @ gA + lam * P["W1"]; G["b1"] = gA.sum(0)
        for k in P:
            m[k] = 0.9 * m[k] + 0.1 * G[k]; v2[k] = 0.999 * v2[k] + 0.001 * G[k] ** 2
            P[k] -= lr * (m[k] / (1 - 0.9 ** it)) / (np.sqrt(v2[k] / (1 - 0.999 ** it)) + 1e-8)
    # Raw units: the standardisation folded into the weights (the softmax ignores a constant).
    lin = P["wl"] / sd
    W1 = P["W1"] / sd[:, None]
    b1 = P["b1"] - (mu / sd) @ P["W1"]
    return lin, W1, b1, P["w2"]

def score(params, Xn):
    lin, W1, b1, w2 = params
    return Xn @ lin + np.tanh(Xn @ W1 + b1) @ w2

t0 = time.time()
if mode == "cv":
    res = []
    seeds = [int(x) for x in os.environ.get("SEEDS", "1").split(",")]
    for k in range(5):
        tr = D["sfold"] != k
        Dtr = subset(D, tr); Dte = subset(D, ~tr)
        total = 0
        for j, seed in enumerate(seeds):
            params = fit_mlp(X[Dtr["rows"]], Dtr, H, lam, iters, seed)
            total = total + score(params, X[Dte["rows"]])
            print("  fold", k, "seeds", seeds[:j + 1], acc_by_fold(total / (j + 1), Dte, {k: DENOM[k]})[0], flush=True)
        res.append(acc_by_fold(total / len(seeds), Dte, {k: DENOM[k]})[0])
        print("fold", k, res[-1], "%.0fs" % (time.time() - t0), flush=True)
    r = np.array(res).mean(0) * 100
    print("RESULT mlp", kind, K, H, lam, iters, "top1 %.2f top4 %.2f" % tuple(r), "%.0fs" % (time.time() - t0), flush=True)
else:
    lin, W1, b1, w2 = fit_mlp(X, D, H, lam, iters)
    fmt = lambda a: ", ".join("%.9g" % x for x in a)
    print("FEATURES", names)
    print("LINEAR [" + fmt(lin) + "]")
    print("HIDDEN_W (H rows of F)")
    for h in range(W1.shape[1]): print("[" + fmt(W1[:, h]) + "],")
    print("HIDDEN_B [" + fmt(b1) + "]")
    print("OUTPUT [" + fmt(w2) + "]")
