#!/usr/bin/env python3
"""What the estimate leaves out of a measured MoE run, per MoE layer and micro-batch (docs/plan.md, "What the MoE validation
rows still miss"). For each row of a table (default bench/plan/moe-validation.tsv) it writes the manifest as
plan_calibration.py does, runs `bin/gpulint plan -f json`, and prints the measured step (global batch × seq ÷ (GPUs ×
tokens/s/GPU)), the predicted step and its parts, and the difference spread over the slowest stage's MoE layers and the
micro-batches it runs (m + the bubble's (pp − 1)/vpp): the time one MoE layer would need to take per micro-batch beyond the
estimate's for the row to be right. It also prints the measured and the predicted step spread the same way (ms per MoE layer
and micro-batch): a time that stays put while the micro-batch's tokens grow is a floor (host time) rather than work on the GPU.
It fits nothing: it shows what a missing term has to scale with (tokens per micro-batch, local experts, the GPU), never a
constant's value.

The last two columns bound what the host's time around the experts could explain (docs/plan.md, "The MoE host floor, second
attempt"): the host time of the expert block per local expert that Transformer Engine's maintainer measured for its grouped
MLP (NVIDIA/TransformerEngine#2897, GB200, MXFP8, 64 experts of hidden 128, so host-bound: forward ~1.2 ms, backward ~2.1 ms,
i.e. 18.75 + 32.8 us per expert, the block's fixed part included) times the row's local experts, as if it serialised whole
with the GPU's work (it does not: the estimate takes the longer of the two), and that time as a share of the missing time.

The last column, `rest x`, reads the row the other way round: if the exposed communication were priced right, by how much
would everything else the estimate prices (compute, bubble, optimizer: the predicted step less its exposed communication)
have to grow for the row to be right, i.e. (measured - exposed) / (predicted - exposed). A factor that follows the GPU
family and not the network (GPT-OSS-120B's EP 64 rows: DGX-B200 and DGX-B300, whose all-to-all leaves the 8-GPU node, against
GB200 and GB300, whose stays in the NVL72 rack) says the miss is on the GPU, not the network (docs/plan.md, "GPT-OSS and Qwen3
on Blackwell: what differs between systems").

The column `beyond s` is the measured step less the estimate's compute (its per-micro-batch work times the micro-batches and
the bubble): the time a missing term would take per step. Two rows of one model, system and micro-batch size that differ in
micro-batches per step read it two ways (`per_mb_and_per_step`): a missing time per micro-batch grows with them, a missing
time per step does not. GPT-OSS-120B on DGX-B200 at EP 8 (25.11, 2 micro-batches; 26.02.01, 5) leaves 2.66 s beyond compute
in both (docs/plan.md, "GPT-OSS on Blackwell: per micro-batch or per step").

Usage: python3 bench/moe_gap.py [--table FILE]
"""
import argparse, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plan_calibration as pc  # noqa: E402

# Host time of one MoE layer's expert block per local expert and micro-batch, forward + backward (NVIDIA/TransformerEngine#2897:
# GB200, forward ~1.2 ms and backward ~2.1 ms for 64 experts of hidden 128, all of it counted per expert). A bound, not a fit.
HOST_PER_EXPERT_S = (1.2e-3 + 2.1e-3) / 64


def rest_factor(measured_s, step_s, exposed_s):
    """By how much the predicted step less its exposed communication would have to grow for the row to be right, were the
    exposed communication priced right: (measured - exposed) / (predicted - exposed)."""
    rest = step_s - exposed_s
    if rest <= 0:
        raise ValueError(f"the predicted step {step_s} s holds no time beside its exposed communication {exposed_s} s")
    return (measured_s - exposed_s) / rest


def per_mb_and_per_step(steps, micro_batches):
    """Two measured steps of one layout at two micro-batch counts, read as step = n·x + F: the time per micro-batch x and the
    time per step F (seconds). Refuses equal counts (nothing separates x from F) and a reading with a negative part."""
    (s1, s2), (n1, n2) = steps, micro_batches
    if n1 == n2:
        raise ValueError(f"both rows run {n1} micro-batches: the time per micro-batch and per step are not separable")
    x = (s2 - s1) / (n2 - n1)
    f = s1 - n1 * x
    if x <= 0 or f < 0:
        raise ValueError(f"no reading with both parts non-negative: {x} s per micro-batch, {f} s per step")
    return x, f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default=os.path.join(pc.ROOT, "bench", "plan", "moe-validation.tsv"))
    a = ap.parse_args()
    os.makedirs(pc.GEN, exist_ok=True)
    stem = os.path.splitext(os.path.basename(a.table))[0]
    print(f"{'model':<16}{'source':<16}{'ep':>4}{'local':>6}{'tokens/mb':>10}{'measured s':>11}{'predicted s':>12}"
          f"{'compute':>9}{'exposed':>9}{'measured ms/layer/mb':>21}{'predicted':>10}{'missing':>9}{'host<=':>8}{'share':>7}"
          f"{'rest x':>8}{'beyond s':>9}")
    # the table's defaults as plan_calibration.py runs it (moe-validation.tsv: bf16 gradient reduction, 16 bytes per parameter)
    for i, r in enumerate(pc.rows(a.table, dict(pc.TABLE_DEFAULTS.get(os.path.basename(a.table), {})))):
        f = os.path.join(pc.GEN, f"{stem}-gap-{i:02d}-{r['name']}.yaml")
        with open(f, "w") as fh:
            fh.write(pc.manifest(r))
        p, _ = pc.run(["plan", "-f", "json", f])
        if p.returncode != 0:
            print(f"{r['name']}: plan failed: {p.stderr.strip()}")
            continue
        plan = json.loads(p.stdout)["current"]
        lay, t = plan["layout"], plan["time"]
        gpus, seq = int(r["gpus"]), int(r["seq"])
        if r["metric"] != "tokens_per_s_per_gpu":
            continue
        measured = int(r["gbs"]) * seq / (gpus * float(r["measured"]))
        mb = int(r["gbs"]) // (lay["micro_batch_size"] * lay["dp"])
        units = mb + (lay["pp"] - 1) / max(1, lay["virtual_pp"])
        layers = int(r["layers"]) / lay["pp"]
        exposed = sum(v for v in t["exposed_comm_s"].values())
        per = units * layers  # MoE layer-micro-batches of the slowest stage
        gap = (measured - t["step_s"]) / per
        local = int(r["experts"]) // max(1, lay["ep"])
        host = local * HOST_PER_EXPERT_S
        share = f"{100 * host / gap:.0f}%" if gap > 0 else "-"
        rest = rest_factor(measured, t["step_s"], exposed)
        print(f"{r['name']:<16}{r['source']:<16}{lay['ep']:>4}{local:>6}{lay['micro_batch_size'] * seq // lay['cp']:>10}"
              f"{measured:>11.2f}{t['step_s']:>12.2f}{t['compute_s']:>9.2f}{exposed:>9.2f}{1e3 * measured / per:>21.1f}"
              f"{1e3 * t['step_s'] / per:>10.1f}{1e3 * gap:>9.1f}{1e3 * host:>8.2f}{share:>7}{rest:>8.2f}"
              f"{measured - t['compute_s'] - t['bubble_s']:>9.2f}")


if __name__ == "__main__":
    main()
