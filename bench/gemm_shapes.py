#!/usr/bin/env python3
"""GEMM-by-shape kernel table against a tensor-parallel layer's GEMMs (docs/plan.md, "Llama 3.1 8B at tp 8").

Reads bench/plan/gemm-shapes.tsv (measured H100 bf16 GEMM throughput by shape, 16,384 rows; source in its header) and prints,
for a dense gated layer split over tp ranks as torchtitan splits Llama (wq, wk, wv, w1, w3 column-parallel, wo and w2
row-parallel, each its own GEMM), what pricing each GEMM at its shape would do to the layer's linear time. Per linear of
n outputs and k inputs on one rank (forward: n × k; input gradient: k × n, contracting over n; weight gradient: contracting
over the tokens, taken at the large-square rate):

    share(n, k) = rate(n, k) / rate(4096, 4096), at most 1        (n, k ≥ 256: the table, log-interpolated, capped at 4,096)
    share(n, k) = min(1, (F / gemm_rate) / (B / hbm_rate))        (n or k < 256: the HBM roofline; F = 2·M·n·k,
                                                                   B = 2·(M·k + M·n + n·k) bytes at 2 bytes an element)
    factor = Σ n·k·(1/share(n, k) + 1/share(k, n) + 1) / Σ 3·n·k

(every linear's three GEMMs have the same FLOPs, so n·k weighs them). `factor` multiplies the layer's linear time. It fits
nothing and changes no file: it prints the figures docs/plan.md quotes.

Usage: python3 bench/gemm_shapes.py [--table FILE] [--gemm-rate TFLOPS] [--hbm-rate TBPS]
"""
import argparse, math, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF = (4096, 4096)

# the three layers docs/plan.md quotes: name, hidden, query width (a·d), key/value width (kv·d), ffn, tp, gathered tokens
CASES = [("Llama 3.1 8B, tp 8, 12 x 8,192 tokens", 4096, 4096, 1024, 14336, 8, 98304),
         ("Llama 3.1 70B, tp 8, 16 x 8,192 tokens", 8192, 8192, 1024, 28672, 8, 131072),
         ("Llama 3.1 8B, tp 1, 2 x 8,192 tokens", 4096, 4096, 1024, 14336, 1, 16384)]


def load(path):
    grid = {}
    with open(path) as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            b, m, n, k, tflops = line.split("\t")
            grid[(int(n), int(k))] = float(tflops)
    return grid


def _interp(x, lo, hi, vlo, vhi):
    if lo == hi:
        return vlo
    f = (math.log(x) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return vlo + f * (vhi - vlo)


def rate(grid, n, k):
    """TFLOP/s at (n, k), 256 ≤ n, k: the table's entry, else log-interpolated along k, then along n (capped at 4,096)."""
    n, k = min(n, 4096), min(k, 4096)
    if (n, k) in grid:
        return grid[(n, k)]
    ns = sorted({a for a, _ in grid})
    nlo, nhi = max(a for a in ns if a <= n), min(a for a in ns if a >= n)

    def along_k(nn):
        ks = sorted(b for a, b in grid if a == nn)
        lo, hi = max(b for b in ks if b <= k), min(b for b in ks if b >= k)
        return _interp(k, lo, hi, grid[(nn, lo)], grid[(nn, hi)])
    return _interp(n, nlo, nhi, along_k(nlo), along_k(nhi))


def share(grid, n, k, rows, gemm_rate, hbm_rate):
    if min(n, k) < 256:
        flops, nbytes = 2.0 * rows * n * k, 2.0 * (rows * k + rows * n + n * k)
        return min(1.0, (flops / gemm_rate) / (nbytes / hbm_rate))
    return min(1.0, rate(grid, n, k) / grid[REF])


def layer(grid, hidden, q, kv, ffn, tp, rows, gemm_rate, hbm_rate):
    """[(name, n, k, forward share, input-gradient share)], factor."""
    linears = [("wq", q // tp, hidden), ("wk", kv // tp, hidden), ("wv", kv // tp, hidden), ("wo", hidden, q // tp),
               ("w1", ffn // tp, hidden), ("w3", ffn // tp, hidden), ("w2", hidden, ffn // tp)]
    out, weighted, base = [], 0.0, 0.0
    for name, n, k in linears:
        f, d = share(grid, n, k, rows, gemm_rate, hbm_rate), share(grid, k, n, rows, gemm_rate, hbm_rate)
        out.append((name, n, k, f, d))
        weighted += n * k * (1 / f + 1 / d + 1)
        base += 3 * n * k
    return out, weighted / base


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", default=os.path.join(ROOT, "bench", "plan", "gemm-shapes.tsv"))
    # the estimate's rates for H100-SXM5-96GB in bf16: 990 × gemm 0.69, 2.4 TB/s × hbm 0.8 (plan's text output)
    ap.add_argument("--gemm-rate", type=float, default=683.1, help="achieved GEMM rate, TFLOP/s")
    ap.add_argument("--hbm-rate", type=float, default=1.92, help="achieved HBM rate, TB/s")
    a = ap.parse_args()
    grid = load(a.table)
    for title, hidden, q, kv, ffn, tp, rows in CASES:
        gemms, factor = layer(grid, hidden, q, kv, ffn, tp, rows, a.gemm_rate * 1e12, a.hbm_rate * 1e12)
        print(title)
        for name, n, k, f, d in gemms:
            print(f"  {name:3s} n {n:6d} k {k:6d}: forward {f:.3f}, input gradient {d:.3f}")
        print(f"  linear time x {factor:.3f}")


if __name__ == "__main__":
    main()
