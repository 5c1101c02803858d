#!/usr/bin/env python3
"""Grouped-GEMM kernel tables against the estimate's price of an expert GEMM (docs/plan.md, "Grouped-GEMM kernel tables").

Reads bench/plan/moe-kernels.tsv (published kernel-level grouped-GEMM measurements; sources in its header) and the catalog
(src/main/resources/catalog/hardware.yaml). For every row, one grouped-GEMM call of g GEMMs of m × n × k (F = 2·g·m·n·k
FLOPs, W = g·n·k·bytes of weights), it prints the measured time beside the estimate's price of that call, MoeCost's
routed-expert formula for one of a layer's six grouped GEMMs:

    t_est = max(F / (peak · gemm efficiency · fill), W / (HBM bandwidth · hbm)) + gemm_kernel_s + g · expert_gemm_s

(fill = m / (128 · ⌈m/128⌉); a row whose `passes` is p (3: forward + backward) is p such calls, p·g GEMMs; the efficiencies of the GPU's family and the row's dtype: gemm, gemm_fp8, gemm_nvfp4;
expert_gemm_s or expert_gemm_fp8_s). Per `set` (one implementation at one GPU and dtype) it fits, by least squares:

  1. free:    t_i = F_i / R + g_i · c            (R and c both fitted: the normal equations of the two unknowns x = 1/R, c;
                                                  a set with one distinct g has no fit)
  2. catalog: t_i − (t_est,i − g_i · expert_gemm_s) = g_i · c
                                                  (the catalog's rates kept, c alone: c = Σ g_i r_i / Σ g_i²)

c is what a kernel-level table says one expert's GEMM costs beyond its FLOPs; expert_gemm_s is what the estimate charges.
It fits nothing into the catalog: it prints the numbers docs/plan.md quotes.

Usage: python3 bench/moe_kernels.py [--table FILE]
"""
import argparse, csv, math, os, re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE_M = 128  # MoeCost.TILE_M
BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "mxfp8": 1.0, "nvfp4": 0.5}


def catalog():
    import yaml
    with open(os.path.join(ROOT, "src", "main", "resources", "catalog", "hardware.yaml")) as fh:
        return yaml.safe_load(fh)


def rate(text):
    """'3.35 TB/s' -> bytes per second."""
    v, u = re.match(r"([\d.]+)\s*(TB|GB)/s", text).groups()
    return float(v) * (1e12 if u == "TB" else 1e9)


def hardware(cat, gpu, dtype):
    g = next(x for x in cat["gpus"] if x["name"] == gpu)
    peak = next(p for p in cat["compute"]["peaks"] if p["gpu"] == gpu)
    eff = next(e for e in cat["compute"]["efficiencies"] if g["family"] in e["families"])
    key = {"bf16": "gemm", "fp16": "gemm", "fp8": "gemm_fp8"}.get(dtype, "gemm_" + dtype)
    gemm = eff.get(key, eff["gemm_fp8"])
    expert = eff["expert_gemm_s"] if dtype in ("bf16", "fp16") else eff["expert_gemm_fp8_s"]
    return dict(peak=peak[dtype] * 1e12, pg=peak[dtype] * 1e12 * gemm, hbm=rate(g["hbm_bandwidth"]) * eff["hbm"],
                kernel=eff["gemm_kernel_s"], expert=expert, gemm=gemm)


def rows(path):
    with open(path) as fh:
        lines = [l for l in fh if not l.startswith("#") or l.startswith("# name")]
    lines[0] = lines[0][2:]
    return list(csv.DictReader(lines, delimiter="\t"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default=os.path.join(ROOT, "bench", "plan", "moe-kernels.tsv"))
    a = ap.parse_args()
    cat = catalog()
    sets = {}
    print(f"{'row':<24}{'g':>4}{'m':>7}{'n':>6}{'k':>6}{'measured µs':>13}{'TFLOP/s':>9}{'estimate µs':>13}"
          f"{'est/meas':>9}{'est w/o expert_gemm':>21}")
    for r in rows(a.table):
        g, m, n, k = (int(r[c]) for c in ("groups", "m", "n", "k"))
        hw = hardware(cat, r["gpu"], r["dtype"])
        flops, gemms, base = call(hw, r["dtype"], g, m, n, k, passes(r))
        t = flops / (float(r["measured"]) * 1e12) if r["unit"] == "tflops" else float(r["measured"]) * 1e-3
        est = base + gemms * hw["expert"]
        sets.setdefault(r["set"], []).append((gemms, flops, t, base, hw))
        print(f"{r['name']:<24}{g:>4}{m:>7}{n:>6}{k:>6}{t * 1e6:>13.1f}{flops / t / 1e12:>9.0f}{est * 1e6:>13.1f}"
              f"{est / t:>9.2f}{base * 1e6:>21.1f}")
    print()
    print(f"{'set':<44}{'free fit: R TFLOP/s':>20}{'% peak':>8}{'c µs':>7}{'catalog rate: c µs':>20}{'expert_gemm_s µs':>18}")
    for name, rs in sets.items():
        hw = rs[0][4]
        points = [(g, f, t) for g, f, t, _, _ in rs]
        c_cat = fit_fixed(points, [b for *_, b, _ in rs])
        free = fit_free(points)
        if free is None:
            free = f"{'(one g: no fit)':>20}{'':>8}{'':>7}"
        else:
            r, c = free
            free = f"{r / 1e12:>20.0f}{100 * r / hw['peak']:>7.0f}%{c * 1e6:>7.2f}"
        print(f"{name:<44}{free}{c_cat * 1e6:>20.2f}{hw['expert'] * 1e6:>18.1f}")


def passes(r):
    """The row's `passes` column: how many grouped-GEMM calls of g GEMMs its time covers (3 for a forward + backward); 1
    when the column is empty."""
    return int(r.get("passes") or 1)


def call(hw, dtype, g, m, n, k, p=1):
    """FLOPs, expert GEMMs and the estimate's price without its per-expert term for p calls of g GEMMs of m × n × k:
    each call max(F / (pg · fill), W / hbm) + gemm_kernel_s with F = 2·g·m·n·k, W = g·n·k·bytes."""
    f1 = 2.0 * g * m * n * k
    fill = m / (TILE_M * math.ceil(m / TILE_M))
    one = max(f1 / (hw["pg"] * fill), g * n * k * BYTES[dtype] / hw["hbm"]) + hw["kernel"]
    return p * f1, p * g, p * one


def fit_free(points):
    """Least squares of t_i = F_i·x + g_i·c over (g, F, t) points, by the normal equations
    [ΣF² ΣFg; ΣFg Σg²]·[x c] = [ΣFt; Σgt]: (R = 1/x, c). None when every point has the same g: c is then a time per
    call, which no per-GEMM reading can be given."""
    if len({g for g, _, _ in points}) < 2:
        return None
    sff = sum(f * f for _, f, _ in points); sfg = sum(f * g for g, f, _ in points); sgg = sum(g * g for g, _, _ in points)
    sft = sum(f * t for _, f, t in points); sgt = sum(g * t for g, _, t in points)
    det = sff * sgg - sfg * sfg
    x, c = (sft * sgg - sfg * sgt) / det, (sff * sgt - sfg * sft) / det
    return 1 / x, c


def fit_fixed(points, base):
    """c alone, the rest of each time priced as `base` (the estimate without its per-expert term): minimises
    Σ (t_i − base_i − g_i·c)², so c = Σ g_i (t_i − base_i) / Σ g_i²."""
    return sum(g * (t - b) for (g, _, t), b in zip(points, base)) / sum(g * g for g, _, _ in points)

if __name__ == "__main__":
    main()
