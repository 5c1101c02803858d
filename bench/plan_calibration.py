#!/usr/bin/env python3
"""gpulint plan calibration bench: estimates every row of its measured tables (calibration, then validation) and prints predicted vs measured.

CALIBRATION: bench/plan/nemo-h100-fp8.tsv (NeMo 24.09 DGX-H100 FP8 pre-training; sources in its header), the only data
the catalog's fitted efficiencies were set against. VALIDATION: bench/plan/fsdp.tsv (published torchtitan FSDP2 runs,
validation only); bench/plan/torchtitan.tsv (torchtitan's published H100 runs: FSDP, CP, TP with and without async TP, eager and
compiled, bf16 and Float8; validation only). HELD-OUT: bench/plan/heldout.tsv (published A100 and H100 bf16 runs:
llm-foundry FSDP, Korthikanti et al. 2022 Megatron; sources in its header), never fitted: its errors find model mistakes.
MoE: bench/plan/moe.tsv (the two MoE figures of plan-model.md, which set the catalog's expert_gemm_s (Hopper's row), and one validation row; each
row's `role` says which); bench/plan/moe-validation.tsv (Megatron-Bridge's published MoE runs, validation only).
For each row it writes a native manifest (a cluster of 8-GPU nodes with the row's NICs, and the job as published) under
bench/generated/plan/, runs `bin/gpulint plan -f json` on it and compares tokens/s/GPU (or model TFLOP/s/GPU, as the
row's metric says) with the measurement. Prints the error per row, the mean and max absolute error per table, the memory
of the fullest stage, and what the estimate costs: the wall time of `plan` and `check` on one manifest, and the estimate
alone per manifest (bench/EstimateBench.java run on every generated manifest: milliseconds per JobEstimate, warm).

PASS/FAIL per row (issue 35 item 4; every row is a run that ran): a FALSE OOM is a row whose fullest pipeline stage
(plan's current layout) is over the GPU's capacity; a REJECTION is a row on whose manifest `check` raises an
error-severity finding, or whose current layout the plan itself ranks invalid (its rule ids are printed). Each manifest
names its own cluster and job (the file's stem), so one `check -f json` run reads a table's manifests. Each table ends
with "false OOM: n rows; rejected: n rows (ids)", and the run with the same line over every table.
bench/test_plan_calibration.py tests these verdicts (python3 -m unittest bench/test_plan_calibration.py).

BLACKWELL: bench/plan/blackwell.tsv (published GB200 NVL72 runs, fp8 and NVFP4; sources in its header), validation
only like HELD-OUT: no constant was set on it. A row may state that its recipe turns tensor-parallel overlap off (column tp_overlap:
false), written as the manifest's parallelism.tp_comm_overlap, as a user would. A torchtitan row may state torch.compile (column
compile: true / false), written as the manifest's kernels: fused / eager (derive/estimate/EagerKernels), and its Float8 recipe (column
fp8_recipe: tensorwise / rowwise), written as the manifest's fp8_scaling (derive/estimate/Float8Scaling), and its tp activation layout
(column tp_layout: bsh, torchtitan before its PR #4121), written as the manifest's parallelism.tp_activation_layout
(derive/estimate/TpLayoutCopy). B200: bench/plan/b200.tsv
(published DGX B200 runs, fp8 and MXFP8; sources in its header), validation only. 2026: bench/plan/validation-2026.tsv
(published Megatron-Bridge, NeMo 2 and torchtitan runs on H100, H100 96 GB, B200, GB200 and GB300, dense and MoE, bf16 to
NVFP4, 8 to 1,024 GPUs; sources in its header), validation only. 2025: bench/plan/validation-2025.tsv (published runs of
software versions and layouts no other table held: NeMo 2 25.02 on DGX B200 and H100, Megatron-Bridge 25.09 and 26.02.01 dense
and MoE rows, torchtitan on H200, Llama 3's context-parallel run on 16,384 H100, NVIDIA's DGX Cloud benchmark recipes for
Llama 3.1 70B / 405B and Grok-1 on 64 to 2,304 H100; sources in its header), validation only. 2026b:
bench/plan/validation-2026b.tsv (published Megatron-Bridge 26.04.01 and 26.08 runs of models and layouts no other table held:
Nemotron 3 Nano, a hybrid Mamba-2/MoE model, on H100 to GB300; Kimi-K2 and DeepSeek-V3 at pp x vp 16 with the recipes' own
pipeline layout, column pipeline_layout; Qwen3 and GPT-OSS layouts and dtypes not run before; sources in its header), validation only.

Usage: python3 bench/plan_calibration.py [--table FILE ...] [--no-timing] | --fit [--fit-moe] | --fit-moe
(--table runs only the named validation tables; the default runs the calibration table and every table of VALIDATION.)
--fit refits the constants the NeMo 24.09 table sets (DENSE_FIT, Hopper's catalog row) on that table alone, --fit-moe
expert_gemm_s on moe.tsv's two rows that set it: least squares on the rows' relative errors, the unrounded optimum and the
best point of the rounding lattice near it, evaluated in-process by bench/PlanFit.java; they print, and change no file.
"""
import argparse, glob, json, os, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "bench", "generated", "plan")
LAUNCHER = os.path.join(ROOT, "bin", "gpulint")


# validation tables (published end-to-end runs: never fitted, they only show a term missing), in bench/plan/
VALIDATION = ["heldout.tsv", "pipes.tsv"]

# what a validation table's rows do not state, by its file name (--table runs it with the same defaults as the full run):
# the NVIDIA performance-summary tables (NeMo, Megatron-Bridge) reduce gradients in bf16, 16 bytes per parameter
TABLE_DEFAULTS = {"blackwell.tsv": {"bytes": "16"}, "b200.tsv": {"bytes": "16"}, "moe-validation.tsv": {"bytes": "16"}}

# what the calibration table (NeMo's performance recipes) does not spell out per row
NEMO_DEFAULTS = {"gpu": "H100-SXM5-80GB", "dtype": "fp8", "nic_gbps": "400", "nics": "8", "protocol": "infiniband",
                 "zero": "0", "distributed": "true", "recompute": "none", "metric": "tokens_per_s_per_gpu",
                 # NeMo's performance recipes reduce gradients in bf16 (grad_sync_dtype: bf16, grad_reduce_in_fp32=False)
                 "bytes": "16"}


def manifest(r, key="bench"):
    # key: the manifest's own cluster and job name (the generated file's stem), so that one `check` over a table's
    # manifests binds every job to its own cluster (same-named clusters across files are SYN004's finding);
    # per_node: GPUs per node (4 on a GB200/GB300 compute tray); domain: GPUs of one NVLink domain (72 in an NVL72 rack);
    # nic: the NIC model (ConnectX-7 unless the row names another: ConnectX-8 on GB300 trays)
    slots = int(r.get("per_node") or 8)
    nodes = max(1, int(r["gpus"]) // slots)
    per_node = min(slots, int(r["gpus"]))
    nvlink = "{ switch: true" + (f", domain_size: {r['domain']}" if r.get("domain") else "") + " }"
    sp = r.get("sp") or str(int(r["tp"]) > 1).lower()
    opt = f"zero_stage: {r['zero']}, distributed: {r['distributed']}" + (f", bytes_per_parameter: {r['bytes']}" if r.get("bytes") else "")
    # a ZeRO-3 row's gather unit when it states one (heldout.tsv's zero3_gather: DeepSpeed's stage 3 of 2021 gathers per tensor)
    opt += f", zero3_gather: {r['zero3_gather']}" if r.get("zero3_gather") else ""
    # column gather_in_step (true: the recipe sets Megatron's overlap_param_gather_with_optimizer_step, model chunk 0's
    # all-gather in the optimizer step; derive/estimate/OptimizerStepGather) → optimizer.overlap_param_gather_with_step
    opt += f", overlap_param_gather_with_step: {r['gather_in_step']}" if r.get("gather_in_step") in ("true", "false") else ""
    return f"""kind: cluster
name: {key}
fabric: {fabric(r)}
node_groups:
  - name: nodes
    count: {nodes}
    gpu: {{ model: {r['gpu']}, count: {slots}{power(r)} }}
    nvlink: {nvlink}
    nics:
      - {{ model: {r.get('nic') or 'ConnectX-7'}, count: {r['nics']}, speed: {r['nic_gbps']} Gb/s, protocol: {r['protocol']}, gpudirect_rdma: true }}
---
kind: training_job
name: {key.lower()}
cluster: {key}
node_group: nodes
nodes: {nodes}
gpus_per_node: {per_node}
model:
  dtype: {r['dtype']}
  layers: {r['layers']}
  hidden_size: {r['hidden']}
  attention_heads: {r['heads']}
  kv_heads: {r['kv_heads']}
  ffn_hidden_size: {r['ffn']}
  vocab_size: {r['vocab']}
  gated_mlp: {r['gated']}
  tied_embeddings: {r['tied']}
  seq_length: {r['seq']}{head_dim(r)}{moe_model(r)}{attention(r)}{mtp(r)}{hybrid(r)}
parallelism: {{ tp: {r['tp']}, pp: {r['pp']}, cp: {r['cp']}, virtual_pp: {r['vp']}, sequence_parallel: {sp}{moe_parallel(r)}{split(r)}{tp_overlap(r)}{tp_layout(r)} }}
batch: {{ micro_batch_size: {r['mbs']}, global_batch_size: {r['gbs']} }}
optimizer: {{ {opt} }}
{recompute(r['recompute'])}{recompute_modules(r)}{kernels(r)}{fp8_scaling(r)}{fp8_param_gather(r)}
"""


def power(r):
    """gpu.power_limit_w when the row states the board power the GPUs ran at (column `power_w`: Meta's Grand Teton H100s at
    500 W); it changes no figure, the plan's assumptions say so."""
    return f", power_limit_w: {r['power_w']}" if r.get("power_w") else ""


def fabric(r):
    """The cluster's fabric: RoCE rows state PFC on priority 3, as RoCE training fabrics run lossless (the rows' clusters
    ran; a RoCE cluster that states no PFC is NET001's finding, which would reject the manifest, not the layout)."""
    if r["protocol"] == "roce":
        return "{ type: roce, topology: rail-optimized, roce: { pfc: { enabled: true, priority: 3 } } }"
    return "{ type: infiniband, topology: rail-optimized }"



def split(r):
    """An uneven pipeline (columns `first`, `last`: the first and last stage's layers; empty or absent: even; `emb_split`
    true: the embedding and the loss each count as a layer, Megatron's --account-for-embedding/loss-in-pipeline-split;
    `pipeline_layout`: the stages layer by layer)."""
    out = ""
    for col, key in (("first", "first_stage_layers"), ("last", "last_stage_layers")):
        if r.get(col):
            out += f", {key}: {r[col]}"
    if r.get("emb_split") == "true":
        out += ", embedding_in_split: true, loss_in_split: true"
    # column `pipeline_layout`: the recipe's per-stage layout (Megatron-Core's --pipeline-model-parallel-layout, the
    # Megatron-Bridge recipes' pipeline_model_parallel_layout: DeepSeek-V3 and Kimi-K2 at pp x vp 16) → parallelism.pipeline_layout
    if r.get("pipeline_layout"):
        out += f', pipeline_layout: "{r["pipeline_layout"]}"'
    return out


def tp_overlap(r):
    """Column `tp_overlap`: true (Megatron's --tp-comm-overlap, torchtitan's async TP), false (plain TP); empty or absent:
    not stated, the GPU family's tp_overlap share (derive/estimate/TpOverlap)."""
    return f", tp_comm_overlap: {r['tp_overlap']}" if r.get("tp_overlap") else ""


def tp_layout(r):
    """Column `tp_layout`: bsh (torchtitan's DTensor plan before its PR #4121, 2026-08: [b, s, h] activations sharded on the
    sequence, a copy of b·s·h per tp collective, derive/estimate/TpLayoutCopy) or sbh; empty or absent: not stated, sbh (the
    native manifest's reading). Every torchtitan row of these tables ran before the PR and states bsh, as its configuration
    ([training] seq_len, local_batch_size) dates it."""
    v = (r.get("tp_layout") or "").strip()
    return f", tp_activation_layout: {v}" if v in ("sbh", "bsh") else ""


def kernels(r):
    """Column `compile` (torchtitan's torch.compile): true → `kernels: fused`, false → `kernels: eager` (the unfused
    kernels' bytes priced, derive/estimate/EagerKernels); empty or absent: not stated, fused (the native manifest's reading)."""
    c = (r.get("compile") or "").strip()
    return f"\nkernels: {'fused' if c == 'true' else 'eager'}" if c in ("true", "false") else ""


def fp8_scaling(r):
    """Column `fp8_recipe` (torchtitan's Float8 recipe_name: tensorwise / rowwise / rowwise_with_gw_hp) → `fp8_scaling`, priced by
    derive/estimate/Float8Scaling; empty or absent: not stated, tensorwise (per-tensor scaling, the calibration's)."""
    f = (r.get("fp8_recipe") or "").strip()
    return f"\nfp8_scaling: {f}" if f else ""


def fp8_param_gather(r):
    """Column `fp8_param_gather` (true: the recipe keeps and all-gathers the linear weights in fp8, Megatron's
    --fp8-param-gather, Megatron-Bridge's fp8 recipes) → `fp8_param_gather: true`, priced by derive/estimate/ParamGather;
    empty or absent: not stated, 2 bytes per gathered parameter."""
    f = (r.get("fp8_param_gather") or "").strip()
    return f"\nfp8_param_gather: {f}" if f in ("true", "false") else ""


def mtp(r):
    """model.mtp_layers (column `mtp`: the multi-token prediction layers the row's recipe trains, Megatron's --mtp-num-layers,
    Megatron-Bridge's mtp_num_layers; derive/estimate/MtpLayers); empty or absent: none."""
    return f"\n  mtp_layers: {r['mtp']}" if r.get("mtp") else ""


def hybrid(r):
    """model.hybrid (column `hybrid`: a hybrid Mamba model's layer pattern, Megatron-Core's hybrid_override_pattern, M Mamba-2,
    * attention, - MLP, E MoE; columns `mamba_heads`, `mamba_head_dim`, `mamba_state`, `mamba_groups`: its Mamba-2 mixer's
    sizes, each left to the native manifest's default when empty); "" for a transformer row."""
    if not r.get("hybrid"):
        return ""
    keys = [f'pattern: "{r["hybrid"]}"'] + [f"{k}: {r[c]}" for k, c in (("mamba_num_heads", "mamba_heads"), ("mamba_head_dim", "mamba_head_dim"),
                                                                          ("mamba_state_dim", "mamba_state"), ("mamba_num_groups", "mamba_groups")) if r.get(c)]
    return f"\n  hybrid: {{ {', '.join(keys)} }}"


def head_dim(r):
    """model.head_dim where it is not hidden ÷ heads (column `head_dim`; Qwen3, GPT-OSS)."""
    return f"\n  head_dim: {r['head_dim']}" if r.get("head_dim") else ""


def attention(r):
    """model.attention (columns `window`, `full_every`, `sinks`, multi-latent attention's `q_lora`, `kv_lora`,
    `qk_nope`, `qk_rope`, `v_head`, and `attention_kernel`: the kernel the run used, fused / flash2 / flash3 / unfused, absent = the
    calibration's fused kernel); "" when the row states none."""
    keys = [f"{k}: {r[c]}" for k, c in (("sliding_window", "window"), ("full_attention_every", "full_every"), ("sinks", "sinks"),
                                       ("q_lora_rank", "q_lora"), ("kv_lora_rank", "kv_lora"), ("qk_head_dim", "qk_nope"),
                                       ("qk_rope_head_dim", "qk_rope"), ("v_head_dim", "v_head"),
                                       ("kernel", "attention_kernel")) if r.get(c)]
    return f"\n  attention: {{ {', '.join(keys)} }}" if keys else ""


def recompute(rc):
    """recompute as the native manifest writes it: every:n (one layer in n, torchtitan's integer option) as every + n."""
    if rc.startswith("every:"):
        return f"recompute: every\nrecompute_every: {rc[6:]}"
    return f"recompute: {rc}"


def recompute_modules(r):
    """Column `recompute_modules` (Megatron's --recompute-modules as the recipe sets them, space-separated: "layernorm moe_act")
    → the manifest's `recompute_modules: [layernorm, moe_act]`, beside the row's `recompute: selective` (priced by
    derive/estimate/RecomputeModules); empty or absent: Megatron's default, core_attn."""
    m = (r.get("recompute_modules") or "").split()
    return f"\nrecompute_modules: [{', '.join(m)}]" if m else ""


def moe_model(r):
    """An MoE row's model keys (bench/plan/moe.tsv): experts, top-k and model.moe; "" for a dense row."""
    if not r.get("experts"):
        return ""
    out = f"\n  experts: {r['experts']}\n  top_k: {r['top_k']}"
    moe = [f"{k}: " + (f'"{r[c]}"' if c == "layer_freq" else r[c]) for k, c in (("expert_ffn_hidden_size", "expert_ffn"), ("shared_expert_ffn_hidden_size", "shared_ffn"),
                                      ("layer_freq", "layer_freq"), ("dispatcher", "dispatcher"), ("grouped_gemm", "grouped_gemm"),
                                      ("capacity_factor", "capacity_factor"), ("pad_to_capacity", "pad_to_capacity"), ("overlap_a2a", "overlap_a2a"),
                                      ("activation_clamp", "clamp"), ("expert_bias", "expert_bias"),
                                      ("router_num_groups", "router_groups"), ("router_group_topk", "router_group_topk"),
                                      ("flex_backend", "flex_backend")) if r.get(c)]
    return out + (f"\n  moe: {{ {', '.join(moe)} }}" if moe else "")


def moe_parallel(r):
    """An MoE row's expert-parallel sizes; "" for a dense row."""
    return (f", ep: {r['ep']}" if r.get("ep") else "") + (f", etp: {r['etp']}" if r.get("etp") else "")


def rows(path, defaults):
    head, out = None, []
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    for line in lines:
        if line.startswith("# name"):
            head = line[2:].rstrip("\n").split("\t")
            continue
        if line.startswith("#") or not line.strip():
            continue
        r = dict(defaults)
        r.update(zip(head, line.rstrip("\n").split("\t")))
        out.append(r)
    return out


def run(args):
    t = time.perf_counter()
    p = subprocess.run([LAUNCHER] + args, capture_output=True, text=True)
    return p, time.perf_counter() - t


def check_errors(report):
    """`check -f json`'s report → {file name: sorted rule ids of its error-severity findings}. Every row of these tables is
    a run that ran, so an error on its manifest is a rule rejecting a layout (or a cluster) that worked."""
    out = {}
    for f in report.get("findings", []):
        if f.get("level") == "error":
            name = os.path.basename(f["location"]["file"])
            out.setdefault(name, set()).add(f["ruleId"])
    return {k: sorted(v) for k, v in out.items()}


def verdict(plan, check_ids):
    """The two pass/fail conditions of a run that ran (issue 35 item 4), from `plan -f json`'s current layout and the
    error ids `check` raised on the manifest: (over, rejected). over: the fullest pipeline stage's bytes exceed the
    GPU's capacity (a false out-of-memory). rejected: sorted rule ids, those of `check`'s errors and, when the plan
    itself ranks the current layout invalid (no rank), the findings it names; a plan that made no search
    (`search_problem`) ranks nothing, which is no verdict on the layout: "unsearched", not "invalid"."""
    cur = plan["current"]
    over = max(s["total_bytes"] for s in cur["memory"]["stages"]) > cur["memory"]["capacity_bytes"]
    ids = set(check_ids)
    if cur.get("rank") is None:
        ids.update(cur.get("findings") or ["unsearched" if plan.get("search_problem") else "invalid"])
    return over, sorted(ids)


def summary(label, results):
    """One line: how many rows the estimate calls out of memory and how many a rule rejects (with the ids)."""
    over = sum(1 for o, _ in results if o)
    rej = [ids for _, ids in results if ids]
    ids = sorted({i for r in rej for i in r})
    return f"{label}: false OOM: {over} rows; rejected: {len(rej)} rows" + (f" ({', '.join(ids)})" if ids else "")


def table(label, path, defaults, files, verdicts):
    print(f"\n== {label}: {os.path.relpath(path, ROOT)}")
    print(f"{'model':<15}{'source':<17}{'GPUs':>5}  {'metric':<10}{'predicted':>10}{'measured':>10}{'error':>9}   fullest stage")
    roles = []
    errors, by_source, results = [], {}, []
    stem = os.path.splitext(os.path.basename(path))[0]
    table_rows = rows(path, defaults)
    mine = []
    for i, r in enumerate(table_rows):
        key = f"{stem}-{i:02d}-{r['name']}"
        f = os.path.join(GEN, key + ".yaml")
        with open(f, "w") as fh:
            fh.write(manifest(r, key))
        mine.append(f)
    files.extend(mine)
    # one `check` over the table's manifests (each names its own cluster and job): the rules' verdict on each row
    p, _ = run(["check", "-f", "json"] + mine)
    try:
        errs = check_errors(json.loads(p.stdout))
    except ValueError:
        print(f"check failed ({p.returncode}): {p.stderr.strip()}")
        sys.exit(1)
    for r, f in zip(table_rows, mine):
        p, _ = run(["plan", "-f", "json", f])
        if p.returncode != 0:
            print(f"{r['name']:<15} plan failed ({p.returncode}): {p.stderr.strip()}")
            results.append((False, ["plan-failed"]))
            continue
        plan = json.loads(p.stdout)
        over, rejected = verdict(plan, errs.get(os.path.basename(f), []))
        results.append((over, rejected))
        plan = plan["current"]
        metric = r["metric"]
        # step_s rows compare the step time (error + = predicted slower); the others a throughput (+ = predicted faster)
        pred = plan["time"]["step_s"] if metric == "step_s" else plan["throughput"][metric]
        meas = float(r["measured"] if "measured" in r else r["tokens_per_s_per_gpu"])
        err = (pred - meas) / meas
        errors.append(abs(err))
        by_source.setdefault(r.get("source", "nemo-24.09"), []).append(abs(err))
        cap = plan["memory"]["capacity_bytes"]
        top = max(s["total_bytes"] for s in plan["memory"]["stages"])
        unit = "tok/s" if metric.startswith("tokens") else "s/step" if metric == "step_s" else "MFU" if metric == "mfu" else "TFLOP/s"
        nd = 3 if metric in ("step_s", "mfu") else 1
        if r.get("role"):
            roles.append(f"  {r['name']}: {r['role']}")
        print(f"{r['name']:<15}{r.get('source', 'nemo-24.09'):<17}{r['gpus']:>5}  {unit:<10}{pred:>10.{nd}f}{meas:>10.{nd}f}{100 * err:>+8.1f}%"
              f"   {top / 1e9:.1f} GB of {cap / 1e9:.1f}" + ("" if not over else "  (OVER: false OOM, the run ran)")
              + (f"  REJECTED by {', '.join(rejected)}" if rejected else ""))
    if len(by_source) > 1:
        for src, es in by_source.items():
            print(f"  {src:<17} mean |error| {100 * statistics.mean(es):5.2f} %, max {100 * max(es):5.2f} % over {len(es)} rows")
    if errors:
        print(f"{label}: mean |error| {100 * statistics.mean(errors):.2f} %, max {100 * max(errors):.2f} % over {len(errors)} rows")
    print(summary(label, results))
    for line in roles:
        print(line)
    verdicts.extend(results)
    return errors


# --fit: the constants the NeMo 24.09 table sets (docs/plan.md, "Constants and where they come from"), Hopper's catalog row,
# each with the step it is written to in the catalog (the rounding) and the range the search keeps it in. The fit reads the
# calibration table ONLY (the calibration rule, ../shared/reference/plan-model.md); every other table is validation.
DENSE_FIT = {"gemm_fp8": (0.01, 0.3, 1.0), "attention": (0.01, 0.05, 1.0), "traffic": (1.0, 0.0, 40.0),
             "tp_overlap": (0.1, 0.0, 1.0), "layer_s": (0.0001, 0.0, 0.002)}
# --fit-moe: the one constant the two MoE figures set (moe.tsv's rows whose role is "sets: expert_gemm_s"), in seconds
MOE_FIT = {"expert_gemm_s": (0.000001, 0.0, 0.001)}


def sse(errors):
    """The fit's objective: the sum of the rows' squared relative errors."""
    return sum(e * e for e in errors)


def clamp(v, spec):
    """Each constant held in its range (spec: {name: (step, low, high)})."""
    return {k: min(max(v[k], spec[k][1]), spec[k][2]) for k in spec}


def nelder_mead(objective, start, spec, tol=1e-9, iterations=2000):
    """The unrounded least-squares optimum: Nelder-Mead's simplex (reflection 1, expansion 2, contraction and shrink 1/2)
    over the constants, each measured in its own rounding step (so a simplex edge of 1 is one step of every constant),
    started at `start` with edges of 2 steps and restarted from its result until a restart improves nothing; constants
    are clamped to their ranges. Deterministic. Returns (values, objective)."""
    names = list(spec)
    to_v = lambda x: clamp({k: x[i] * spec[k][0] for i, k in enumerate(names)}, spec)
    f = lambda x: objective(to_v(x))
    x0 = [start[k] / spec[k][0] for k in names]
    best = None
    for _ in range(10):
        simplex = [x0] + [[x0[j] + (2.0 if j == i else 0.0) for j in range(len(names))] for i in range(len(names))]
        vals = [f(x) for x in simplex]
        for _ in range(iterations):
            order = sorted(range(len(simplex)), key=lambda i: vals[i])
            simplex, vals = [simplex[i] for i in order], [vals[i] for i in order]
            if vals[-1] - vals[0] <= tol * max(1e-12, abs(vals[0])):
                break
            c = [sum(x[j] for x in simplex[:-1]) / (len(simplex) - 1) for j in range(len(names))]
            r = [c[j] + (c[j] - simplex[-1][j]) for j in range(len(names))]
            fr = f(r)
            if fr < vals[0]:
                e = [c[j] + 2 * (c[j] - simplex[-1][j]) for j in range(len(names))]
                fe = f(e)
                simplex[-1], vals[-1] = (e, fe) if fe < fr else (r, fr)
            elif fr < vals[-2]:
                simplex[-1], vals[-1] = r, fr
            else:
                k = [c[j] + 0.5 * (simplex[-1][j] - c[j]) for j in range(len(names))]
                fk = f(k)
                if fk < vals[-1]:
                    simplex[-1], vals[-1] = k, fk
                else:
                    simplex = [simplex[0]] + [[simplex[0][j] + 0.5 * (x[j] - simplex[0][j]) for j in range(len(names))] for x in simplex[1:]]
                    vals = [vals[0]] + [f(x) for x in simplex[1:]]
        i = min(range(len(simplex)), key=lambda i: vals[i])
        x0 = [v / spec[k][0] for k, v in to_v(simplex[i]).items()]
        if best is not None and vals[i] >= best[1] - tol * max(1e-12, abs(best[1])):
            break
        best = (to_v(simplex[i]), vals[i])
    return best


def rounded_fit(objective, optimum, spec):
    """The rounding: the best point of the rounding lattice near the unrounded optimum, every combination of each
    constant's two nearest multiples of its step and one more step either side (4^n points, within the ranges).
    Returns (values, objective); ties go to the first in lexicographic order of the constants' values."""
    import itertools, math
    choices = []
    for k, (step, low, high) in spec.items():
        lo = math.floor(optimum[k] / step + 1e-9)
        vals = [round((lo + d) * step, 12) for d in (-1, 0, 1, 2)]
        choices.append([v for v in vals if low - 1e-12 <= v <= high + 1e-12])
    best = None
    for combo in itertools.product(*choices):
        v = dict(zip(spec, combo))
        fv = objective(v)
        if best is None or fv < best[1] - 1e-15:
            best = (v, fv)
    return best


class Evaluator:
    """bench/PlanFit.java over the given manifests: predict(overrides) → [(tokens/s/GPU, model TFLOP/s/GPU, MFU, step s)]
    per manifest, one JVM for the whole fit."""

    def __init__(self, files):
        jars = sorted(glob.glob(os.path.join(ROOT, "src", "target", "gpulint-*-all.jar")))
        if not jars:
            sys.exit("--fit needs the built jar: mvn -B -o -q -pl src package -DskipTests")
        self.p = subprocess.Popen(["java", "-cp", jars[0], os.path.join(ROOT, "bench", "PlanFit.java")] + files,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.cache = {}

    def predict(self, overrides):
        key = " ".join(f"{k}={overrides[k]!r}" for k in sorted(overrides))
        if key not in self.cache:
            self.p.stdin.write(key + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
            if not line:
                sys.exit("bench/PlanFit.java stopped")
            self.cache[key] = [tuple(float(x) for x in col.split()) for col in line.rstrip("\n").split("\t")]
        return self.cache[key]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


METRIC_COLUMN = {"tokens_per_s_per_gpu": 0, "model_tflops_per_gpu": 1, "mfu": 2, "step_s": 3}


def relative_errors(rows_, predicted):
    """(predicted − measured) / measured per row, on the row's own metric (the bench's sign convention)."""
    out = []
    for r, p in zip(rows_, predicted):
        meas = float(r["measured"] if "measured" in r else r["tokens_per_s_per_gpu"])
        out.append((p[METRIC_COLUMN[r["metric"]]] - meas) / meas)
    return out


def moe_fitting_row(r):
    """moe.tsv's rows that set expert_gemm_s (the two MoE figures of plan-model.md); the table's other rows are validation."""
    return r.get("role", "").startswith("sets: expert_gemm_s")


def fit(label, path, defaults, spec, keep=lambda r: True):
    """Fits spec's constants on the rows of `path` that `keep` selects, least squares on their relative errors: the
    unrounded optimum (nelder_mead), then the best point of the rounding lattice near it (rounded_fit).
    Prints the catalog's values, both optima, each row's error at each, and each constant's sensitivity (how much the
    objective grows one rounding step either side of the rounded optimum: a flat one is a constant the table does not set)."""
    os.makedirs(GEN, exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    table_rows = [r for r in rows(path, defaults) if keep(r)]
    files = []
    for i, r in enumerate(table_rows):
        f = os.path.join(GEN, f"fit-{stem}-{i:02d}-{r['name']}.yaml")
        with open(f, "w") as fh:
            fh.write(manifest(r, f"fit-{stem}-{i:02d}-{r['name']}"))
        files.append(f)
    ev = Evaluator(files)
    try:
        # the catalog's values: the estimate with no override is the catalog; read them back from the catalog's Hopper row
        catalog = catalog_values(list(spec))
        base = relative_errors(table_rows, ev.predict({}))
        same = relative_errors(table_rows, ev.predict(catalog))
        if max(abs(a - b) for a, b in zip(base, same)) > 1e-9:
            sys.exit(f"the catalog values read for the fit {catalog} do not reproduce the catalog's estimate")
        objective = lambda v: sse(relative_errors(table_rows, ev.predict(v)))
        fine, f_fine = nelder_mead(objective, catalog, spec)
        rounded, f_round = rounded_fit(objective, fine, spec)
        print(f"\n== FIT {label}: {os.path.relpath(path, ROOT)} ({len(table_rows)} rows), least squares on relative errors")
        print(f"{'constant':<16}{'catalog':>12}{'optimum':>14}{'rounded':>12}   sensitivity (objective one step down / up)")
        for k, (step, low, high) in spec.items():
            sens = []
            for sign in (-1, 1):
                v = round((rounded[k] + sign * step) / step) * step
                sens.append(f"{objective(dict(rounded, **{k: v})) / f_round:.3f}" if low - 1e-12 <= v <= high + 1e-12 else "-")
            print(f"{k:<16}{catalog[k]:>12.6g}{fine[k]:>14.6g}{rounded[k]:>12.6g}   x{' / x'.join(sens)}")
        errs = {n: relative_errors(table_rows, ev.predict(v)) for n, v in (("catalog", catalog), ("optimum", fine), ("rounded", rounded))}
        print(f"{'row':<16}{'catalog':>10}{'optimum':>10}{'rounded':>10}")
        for i, r in enumerate(table_rows):
            print(f"{r['name']:<16}" + "".join(f"{100 * errs[n][i]:>+9.2f}%" for n in errs))
        for n, es in errs.items():
            print(f"{n:<8} sum of squares {sse(es):.6f}, mean |error| {100 * statistics.mean(abs(e) for e in es):.2f} %, "
                  f"max {100 * max(abs(e) for e in es):.2f} %")
        return catalog, fine, rounded
    finally:
        ev.close()


CATALOG = os.path.join(ROOT, "src", "main", "resources", "catalog", "hardware.yaml")


def catalog_values(names, family="H100", path=CATALOG):
    """The catalog's values of `names` in the efficiency row of `family` (src/main/resources/catalog/hardware.yaml)."""
    with open(path) as fh:
        text = fh.read()
    block = text[text.index("  efficiencies:"):]
    for part in block.split("    - families: [")[1:]:
        if family in [f.strip() for f in part[:part.index("]")].split(",")]:
            out = {}
            for n in names:
                for line in part.splitlines():
                    s = line.strip()
                    if s.startswith(n + ":"):
                        out[n] = float(s.split(":", 1)[1].split("#")[0])
                        break
            missing = [n for n in names if n not in out]
            if missing:
                sys.exit(f"catalog row [{family}] states no {missing}")
            return out
    sys.exit(f"no catalog efficiency row for {family}")


def table_run(path):
    """The label and the defaults `--table` runs a file with: the full run's, so that a row prices the same either way
    (the calibration table needs NEMO_DEFAULTS: its rows state no zero stage, GPU or dtype)."""
    name = os.path.basename(path)
    if name == "nemo-h100-fp8.tsv":
        return "CALIBRATION (fitted)", dict(NEMO_DEFAULTS)
    return "VALIDATION (not fitted)", dict(TABLE_DEFAULTS.get(name, {"bytes": ""}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-timing", action="store_true", help="skip the plan/check wall-time measurement")
    ap.add_argument("--table", action="append", default=[],
                    help="run only this validation table (repeatable; never fitted); default: calibration, then every VALIDATION table")
    ap.add_argument("--fit", action="store_true",
                    help="refit the constants the NeMo 24.09 table sets (DENSE_FIT) on that table only, print them and every row's error; changes nothing")
    ap.add_argument("--fit-moe", action="store_true",
                    help="refit expert_gemm_s on moe.tsv's two rows that set it, print it; changes nothing")
    a = ap.parse_args()
    if a.fit or a.fit_moe:
        if a.fit:
            fit("dense (NeMo 24.09)", os.path.join(ROOT, "bench", "plan", "nemo-h100-fp8.tsv"), NEMO_DEFAULTS, DENSE_FIT)
        if a.fit_moe:
            fit("MoE (two figures)", os.path.join(ROOT, "bench", "plan", "moe.tsv"), {"bytes": ""}, MOE_FIT, keep=moe_fitting_row)
        return
    os.makedirs(GEN, exist_ok=True)
    files, verdicts = [], []
    if a.table:
        for t in a.table:
            label, defaults = table_run(t)
            table(label, os.path.abspath(t), defaults, files, verdicts)
    else:
        table("CALIBRATION (fitted)", os.path.join(ROOT, "bench", "plan", "nemo-h100-fp8.tsv"), NEMO_DEFAULTS, files, verdicts)
        for t in VALIDATION:
            table("HELD-OUT (not fitted)", os.path.join(ROOT, "bench", "plan", t), {"bytes": ""}, files, verdicts)
        table("FSDP2 / torchtitan VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "fsdp.tsv"), {"bytes": ""}, files, verdicts)
        table("torchtitan H100 VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "torchtitan.tsv"), {"bytes": ""}, files, verdicts)
        # MoE runs: each row's role says whether it set a constant (docs/plan.md, "MoE")
        table("MoE (see each row's role)", os.path.join(ROOT, "bench", "plan", "moe.tsv"), {"bytes": ""}, files, verdicts)
        table("MoE VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "moe-validation.tsv"), dict(TABLE_DEFAULTS["moe-validation.tsv"]), files, verdicts)
        table("BLACKWELL (validation, not fitted)", os.path.join(ROOT, "bench", "plan", "blackwell.tsv"), dict(TABLE_DEFAULTS["blackwell.tsv"]), files, verdicts)
        table("B200 (validation, not fitted)", os.path.join(ROOT, "bench", "plan", "b200.tsv"), dict(TABLE_DEFAULTS["b200.tsv"]), files, verdicts)
        # published runs of every kind issue 35 item 4 names that no other table held (each row states its own bytes)
        table("2026 VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "validation-2026.tsv"), {"bytes": ""}, files, verdicts)
        # published runs of versions and layouts no other table held (each row states its own bytes)
        table("2025 VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "validation-2025.tsv"), {"bytes": ""}, files, verdicts)
        # published Megatron-Bridge runs of models and layouts no other table held (Nemotron 3 Nano, Kimi-K2, DeepSeek-V3 with the
        # recipes' pipeline layouts, ...; each row states its own bytes)
        table("2026b VALIDATION (not fitted)", os.path.join(ROOT, "bench", "plan", "validation-2026b.tsv"), {"bytes": ""}, files, verdicts)
    print("\n" + summary(f"ALL TABLES ({len(verdicts)} rows)", verdicts))
    if a.no_timing:
        return
    # what the estimate adds to a run: plan vs check on one manifest, medians of 5 warm runs
    one = files[0]
    for cmd in (["check", one], ["plan", one]):
        run(cmd)
        ts = [run(cmd)[1] for _ in range(5)]
        print(f"gpulint {cmd[0]} (one manifest): median {1000 * statistics.median(ts):.0f} ms")
    # the estimate alone, in-process and warm, per manifest
    jars = sorted(glob.glob(os.path.join(ROOT, "src", "target", "gpulint-*-all.jar")))
    if jars:
        p = subprocess.run(["java", "-cp", jars[0], os.path.join(ROOT, "bench", "EstimateBench.java")] + files,
                           capture_output=True, text=True)
        print((p.stdout.strip().splitlines() or [p.stderr.strip()])[-1])


if __name__ == "__main__":
    main()
