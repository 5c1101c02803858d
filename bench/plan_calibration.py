#!/usr/bin/env python3
"""gpulint plan calibration bench: estimates every row of a measured table and prints predicted vs measured.

Default table: bench/plan/nemo-h100-fp8.tsv (NeMo 24.09 DGX-H100 FP8 pre-training; sources in its header). For each row
it writes a native manifest (a cluster of DGX-H100 nodes with 8 x 400 Gb/s InfiniBand, and the job as published) under
bench/generated/plan/, runs `bin/gpulint plan -f json` on it and compares tokens/s/GPU with the measurement. Prints the
error per row, the mean and max absolute error, the memory of the fullest stage, and the wall time of `plan` and `check`
on one manifest (what the estimate adds to a run).

Usage: python3 bench/plan_calibration.py [--table FILE] [--gpu H100-SXM5-80GB] [--dtype fp8] [--nic-gbps 400]
"""
import argparse, json, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "bench", "generated", "plan")
LAUNCHER = os.path.join(ROOT, "bin", "gpulint")


def manifest(r, gpu, dtype, nic_gbps):
    nodes = max(1, int(r["gpus"]) // 8)
    per_node = min(8, int(r["gpus"]))
    return f"""kind: cluster
name: bench
fabric: {{ type: infiniband, topology: rail-optimized }}
node_groups:
  - name: nodes
    count: {nodes}
    gpu: {{ model: {gpu}, count: 8 }}
    nvlink: {{ switch: true }}
    nics:
      - {{ model: ConnectX-7, count: 8, speed: {nic_gbps} Gb/s, protocol: infiniband, gpudirect_rdma: true }}
---
kind: training_job
name: {r['name'].lower()}
cluster: bench
node_group: nodes
nodes: {nodes}
gpus_per_node: {per_node}
model:
  dtype: {dtype}
  layers: {r['layers']}
  hidden_size: {r['hidden']}
  attention_heads: {r['heads']}
  kv_heads: {r['kv_heads']}
  ffn_hidden_size: {r['ffn']}
  vocab_size: {r['vocab']}
  gated_mlp: {r['gated']}
  tied_embeddings: {r['tied']}
  seq_length: {r['seq']}
parallelism: {{ tp: {r['tp']}, pp: {r['pp']}, cp: {r['cp']}, virtual_pp: {r['vp']}, sequence_parallel: {str(int(r['tp']) > 1).lower()} }}
batch: {{ micro_batch_size: {r['mbs']}, global_batch_size: {r['gbs']} }}
optimizer: {{ distributed: true, bytes_per_parameter: 16 }}
recompute: none
"""


def rows(path):
    head, out = None, []
    for line in open(path):
        if line.startswith("# name"):
            head = line[2:].rstrip("\n").split("\t")
            continue
        if line.startswith("#") or not line.strip():
            continue
        out.append(dict(zip(head, line.rstrip("\n").split("\t"))))
    return out


def run(args):
    t = time.perf_counter()
    p = subprocess.run([LAUNCHER] + args, capture_output=True, text=True)
    return p, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default=os.path.join(ROOT, "bench", "plan", "nemo-h100-fp8.tsv"))
    ap.add_argument("--gpu", default="H100-SXM5-80GB")
    ap.add_argument("--dtype", default="fp8")
    ap.add_argument("--nic-gbps", default="400")
    a = ap.parse_args()
    os.makedirs(GEN, exist_ok=True)
    errors, files = [], []
    print(f"{'model':<15}{'GPUs':>5}  {'predicted':>10}{'measured':>10}{'error':>9}   fullest stage")
    for i, r in enumerate(rows(a.table)):
        f = os.path.join(GEN, f"row{i:02d}-{r['name']}.yaml")
        with open(f, "w") as fh:
            fh.write(manifest(r, a.gpu, a.dtype, a.nic_gbps))
        files.append(f)
        p, _ = run(["plan", "-f", "json", f])
        if p.returncode != 0:
            print(f"{r['name']:<15} plan failed ({p.returncode}): {p.stderr.strip()}")
            sys.exit(1)
        plan = json.loads(p.stdout)["current"]
        pred = plan["throughput"]["tokens_per_s_per_gpu"]
        meas = float(r["tokens_per_s_per_gpu"])
        err = (pred - meas) / meas
        errors.append(abs(err))
        cap = plan["memory"]["capacity_bytes"]
        top = max(s["total_bytes"] for s in plan["memory"]["stages"])
        print(f"{r['name']:<15}{r['gpus']:>5}  {pred:>10.0f}{meas:>10.0f}{100 * err:>+8.1f}%   {top / 1e9:.1f} GB of {cap / 1e9:.1f}"
              + ("" if top <= cap else "  (over)"))
    print(f"mean |error| {100 * statistics.mean(errors):.2f} %, max {100 * max(errors):.2f} % over {len(errors)} rows")
    # what the estimate adds to a run: plan vs check on one manifest, medians of 5 warm runs
    one = files[0]
    for cmd in (["check", one], ["plan", one]):
        run(cmd)
        ts = [run(cmd)[1] for _ in range(5)]
        print(f"gpulint {cmd[0]} (one manifest): median {1000 * statistics.median(ts):.0f} ms")


if __name__ == "__main__":
    main()
