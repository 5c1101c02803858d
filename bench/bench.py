#!/usr/bin/env python3
"""gpulint benchmark: generated inputs, whole-process wall times, medians over interleaved rounds.

Scenarios (issue 2's targets in brackets):
  hello     a JVM hello-world on the same machine: the floor
  single    one manifest (cluster + job), cold start          [<= 3x hello]
  many      1,000 manifests: 500 clusters and 500 jobs       [<= 2 s]
  huge      a 100,000-GPU cluster: 12,500 nodes of 8 H100 in 125 node groups, and a job on all of it [<= 3 s]
  formats   1,000 files of other formats: 250 each of NeMo configs, MPIJobs with launch scripts, SkyPilot
            tasks with run scripts and DeepSpeed JSON, plus a 2,000-rule Prometheus file [as many: <= 2 s]
  daemon    one manifest file (the single scenario's) three ways, side by side: a cold bin/gpulint (GPULINT_NO_DAEMON=1),
            bin/gpulint answered by a warm `gpulint daemon` (started for the benchmark, in its own state folder, and
            stopped after), and yamllint on the same file (Debian's package `yamllint`; skipped with a note when absent)
            [warm: faster than yamllint]
  plan      `gpulint plan` end to end on a 1,024-GPU job (GPT-3 175B on 128 DGX H100, tp 8 × pp 16): read and lint
            the manifest, estimate the job, check every candidate layout (about 9,300) with the built-in rules and
            their memory with MEM002/MEM003, rank the valid ones by the estimate, print the text plan [issue 27: <= 2 s]
  plan-moe  the same for a 1,024-GPU MoE job (Mixtral 8x22B on 128 DGX H100, tp 4 × pp 8 × ep 2, vpp 7): 28,849 layouts
            checked, 4,110 valid and priced [issue 35: <= 2 s]
  plan-hybrid the same for a Megatron test config (ENV_VARS + MODEL_ARGS, the shape of Megatron-LM's release recipes) of a
            hybrid Mamba/attention/MoE model (64 layers by --hybrid-layer-pattern, 256 experts, sequence 8,192) with 16
            environment variables, most of them no NCCL name, on 128 DGX H100 by job_clusters: 189,012 layouts
            evaluated, 78,221 valid and priced, each derived with the job's environment [<= 2 s; not met: see README]

  fleet     (only with --fleet N, run once) a cluster listed one node group per node: N node groups
            [1,000,000 within 20 s and 2 GiB]; reports wall time and peak RSS (wait4's ru_maxrss)
  distinct  (only with --distinct N, run once) the fleet scenario with N node groups that all differ (each its own
            count, so nothing folds): wall time, CPU time, peak RSS [1,000,000: issue 25's target 20 s and 2 GiB]
  lsp       (only with --lsp) `gpulint lsp` with a scripted client (bench/lsp_bench.py): first diagnostics after
            start [<= 3 s], re-lint after a change of the job and of its cluster [median <= 150 ms]
  million   (only with --million, run once per format) the fleet scenario at 1,000,000 node groups (a
            1M-GPU fleet ÷ 8 GPUs per node), in the .topo DSL and in YAML: wall time, CPU time, peak RSS

Usage: python3 bench/bench.py [--rounds N] [--compare OTHER/bin/gpulint] [--daemon | --plan] | --lsp | --fleet N [--fleet-format yaml|topo] | --distinct N | --million     (builds gpulint first through bin/gpulint if needed)
Each round runs every scenario once, in a shuffled order; round 0 is a discarded warm-up.
"""
import argparse, glob, os, random, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "bench", "generated")
LAUNCHER = os.path.join(ROOT, "bin", "gpulint")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


CLUSTER = """kind: cluster
name: {name}
fabric: {{ type: infiniband, topology: rail-optimized }}
node_groups:
  - name: dgx
    count: 4
    gpu: {{ model: H100-SXM5-80GB, count: 8 }}
    nvlink: {{ switch: true, bandwidth: 900 GB/s, direction: bidirectional }}
    nics:
      - {{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }}
"""

JOB = """kind: training_job
name: {name}
cluster: {cluster}
nodes: 4
model: {{ parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8 }}
parallelism: {{ tp: {tp}, pp: 4 }}
batch: {{ micro_batch_size: 1, global_batch_size: 512 }}
network: {{ assumed_inter_node: 400 Gb/s }}
"""


NEMO = """trainer: {{ num_nodes: {nodes}, devices: 8 }}
model:
  micro_batch_size: 1
  global_batch_size: {gbs}
  tensor_model_parallel_size: ${{.tp}}
  tp: 4
  pipeline_model_parallel_size: 2
  num_layers: 32
env_vars: {{ NCCL_NVLS_ENABLE: 0 }}
"""

MPIJOB = """apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {{ name: {name} }}
spec:
  slotsPerWorker: 8
  mpiReplicaSpecs:
    Launcher:
      template:
        spec:
          containers:
            - command:
                - bash
                - -c
                - |
                  export NCCL_DEBUG=WARN
                  mpirun -np {np} -N 8 -x NCCL_IB_HCA=mlx5 \\
                    python pretrain_gpt.py --tensor-model-parallel-size 8 --num-layers 32
    Worker:
      replicas: 2
      template:
        spec:
          containers:
            - resources: {{ limits: {{ nvidia.com/gpu: 8, rdma/ib: 1 }} }}
"""

SKY = """resources: {{ accelerators: H100:8 }}
num_nodes: 2
run: |
  TP={tp}
  NP=$(($SKYPILOT_NUM_GPUS_PER_NODE * $SKYPILOT_NUM_NODES))
  vllm serve llama --tensor-parallel-size $TP
"""

DS = '{{ "train_batch_size": {tbs}, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8, "zero_optimization": {{ "stage": 2 }} }}\n'


def generate():
    shutil.rmtree(GEN, ignore_errors=True)
    write(os.path.join(GEN, "single", "pod.yaml"),
          CLUSTER.format(name="pod") + "---\n" + JOB.format(name="job", cluster="pod", tp=8))
    for i in range(500):
        write(os.path.join(GEN, "many", "clusters", f"c{i:03d}.yaml"), CLUSTER.format(name=f"c{i:03d}"))
        # every 10th job puts tp=16 across nodes, so the rules have work to do
        write(os.path.join(GEN, "many", "jobs", f"j{i:03d}.yaml"),
              JOB.format(name=f"j{i:03d}", cluster=f"c{i:03d}", tp=16 if i % 10 == 0 else 8))
    groups = []
    for g in range(125):
        groups.append(f"""  - name: su{g:03d}
    count: 100
    gpu: {{ model: H100-SXM5-80GB, count: 8 }}
    nvlink: {{ switch: true, bandwidth: 900 GB/s }}
    nics:
      - {{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }}
""")
    write(os.path.join(GEN, "huge", "cluster.yaml"),
          "kind: cluster\nname: big\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n" + "".join(groups))
    write(os.path.join(GEN, "huge", "job.yaml"), """kind: training_job
name: frontier-run
cluster: big
node_group: su000
nodes: 12500
parallelism: { tp: 8, pp: 16, cp: 2 }
""")
    for i in range(250):
        d = os.path.join(GEN, "formats")
        write(os.path.join(d, "nemo", f"n{i:03d}.yaml"), NEMO.format(nodes=2 + i % 4, gbs=256 if i % 10 else 3))
        write(os.path.join(d, "k8s", f"m{i:03d}.yaml"), MPIJOB.format(name=f"m{i:03d}", np=16 if i % 10 else 8))
        write(os.path.join(d, "sky", f"s{i:03d}.yaml"), SKY.format(tp=8 if i % 10 else 16))
        write(os.path.join(d, "ds", f"d{i:03d}.json"), DS.format(tbs=512 if i % 10 else 500))
    rules = "".join(f"      - record: gpu:r{i}\n        expr: avg_over_time(DCGM_FI_PROF_PCIE_TX_BYTES[1m]) / 1e9\n" for i in range(2000))
    write(os.path.join(GEN, "formats", "rules.yaml"), "groups:\n  - name: g\n    rules:\n" + rules)
    write(os.path.join(GEN, "plan", "gpt3-1024.yaml"), CLUSTER.format(name="pod").replace("count: 4", "count: 128") + """---
kind: training_job
name: gpt3-175b
cluster: pod
nodes: 128
model: { parameters: 175B, dtype: bf16, layers: 96, hidden_size: 12288, attention_heads: 96, seq_length: 2048, vocab_size: 51200 }
parallelism: { tp: 8, pp: 16 }
batch: { micro_batch_size: 1, global_batch_size: 1536 }
""")
    # the MoE search (issue 35): Mixtral 8x22B on 128 DGX H100 as bench/plan/moe.tsv's folding-8x22b row lays it out
    write(os.path.join(GEN, "plan", "mixtral-1024.yaml"), """kind: cluster
name: bench
fabric: { type: infiniband, topology: rail-optimized }
node_groups:
  - name: nodes
    count: 128
    gpu: { model: H100-SXM5-80GB, count: 8 }
    nvlink: { switch: true }
    nics:
      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
---
kind: training_job
name: mixtral-8x22b
cluster: bench
node_group: nodes
nodes: 128
gpus_per_node: 8
model:
  dtype: bf16
  layers: 56
  hidden_size: 6144
  attention_heads: 48
  kv_heads: 8
  ffn_hidden_size: 16384
  vocab_size: 32768
  gated_mlp: true
  tied_embeddings: false
  seq_length: 4096
  experts: 8
  top_k: 2
  moe: { dispatcher: alltoall, grouped_gemm: true }
parallelism: { tp: 4, pp: 8, cp: 1, virtual_pp: 7, sequence_parallel: true, ep: 2, etp: 4 }
batch: { micro_batch_size: 1, global_batch_size: 256 }
optimizer: { zero_stage: 1, distributed: true }
recompute: none
""")
    # the hybrid search: a Megatron release-recipe shape (ENV_VARS, MODEL_ARGS) of a Mamba/attention/MoE model, its
    # cluster given by job_clusters; every candidate job keeps the environment, whose unknown names NCCL's list is searched for
    hyb = os.path.join(GEN, "plan-hybrid")
    write(os.path.join(hyb, "cluster.yaml"), """kind: cluster
name: pod
fabric: { type: infiniband, topology: rail-optimized }
node_groups:
  - name: dgx
    count: 128
    gpu: { model: H100-SXM5-80GB, count: 8 }
    nvlink: { switch: true }
    nics:
      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
""")
    write(os.path.join(hyb, ".gpulint.yaml"), 'job_clusters:\n  - { files: "model_config.yaml", cluster: pod }\n')
    env = {"CUDA_DEVICE_MAX_CONNECTIONS": 1, "NCCL_NVLS_ENABLE": 0, "NCCL_GRAPH_REGISTER": 0, "TORCH_NCCL_AVOID_RECORD_STREAMS": 1,
           "TORCH_NCCL_HIGH_PRIORITY": 1, "PYTORCH_CUDA_ALLOC_CONF": '"expandable_segments:True"', "NVTE_FWD_LAYERNORM_SM_MARGIN": 16,
           "NVTE_BWD_LAYERNORM_SM_MARGIN": 16, "NVTE_FUSED_ATTN": 1, "HYBRID_EP_RANKS_PER_DOMAIN": 8, "TOKENS_PER_COMBINE_CHUNK": 256,
           "DOMAIN_GPUS": 8, "MNNVL_ENABLED": 0, "INDUCTOR_WORKER_START": "fork", "DEBUG_QUANTIZATION": 0, "RESULTS_NON_DETERMINISTIC": 1}
    pattern = "".join("M*" if i % 8 == 7 else "ME" for i in range(32))
    write(os.path.join(hyb, "model_config.yaml"), "ENV_VARS:\n" + "".join(f"  {k}: {v}\n" for k, v in env.items()) + f"""TEST_TYPE: "release"
MODEL_ARGS:
  --tensor-model-parallel-size: 2
  --pipeline-model-parallel-size: 1
  --expert-model-parallel-size: 32
  --expert-tensor-parallel-size: 1
  --use-distributed-optimizer: true
  --sequence-parallel: true
  --micro-batch-size: 1
  --global-batch-size: 1024
  --is-hybrid-model: true
  --mamba-num-heads: 96
  --num-layers: 64
  --hidden-size: 3072
  --ffn-hidden-size: 2048
  --num-attention-heads: 24
  --group-query-attention: true
  --num-query-groups: 4
  --kv-channels: 128
  --hybrid-layer-pattern: "{pattern}"
  --position-embedding-type: none
  --normalization: RMSNorm
  --untie-embeddings-and-output-weights: true
  --disable-bias-linear: true
  --seq-length: 8192
  --max-position-embeddings: 8192
  --num-experts: 256
  --moe-router-topk: 8
  --moe-grouped-gemm: true
  --moe-token-dispatcher-type: alltoall
  --moe-shared-expert-intermediate-size: 4096
  --bf16: true
""")
    write(os.path.join(GEN, "Hello.java"), 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n')
    subprocess.run(["javac", "-d", GEN, os.path.join(GEN, "Hello.java")], check=True)


COLD = dict(os.environ, GPULINT_NO_DAEMON="1")        # a daemon the user runs must not answer the cold scenarios
DAEMON_DIR = os.path.join(GEN, "daemon-state")
WARM = dict(os.environ, GPULINT_DAEMON_DIR=DAEMON_DIR)
WARM.pop("GPULINT_NO_DAEMON", None)


def timed(cmd):
    env = WARM if cmd[0] == "warm" else COLD
    cmd = cmd[1:] if cmd[0] == "warm" else cmd
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr.decode()[-2000:]}")
    return dt


def fleet(groups, fmt="yaml"):
    """One cluster file with one node group per node; one run, its wall time and peak memory."""
    path = os.path.join(GEN, "fleet", "fleet." + fmt)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        if fmt == "topo":
            f.write('cluster "fleet" {\n  fabric { type = infiniband  topology = rail-optimized }\n')
            for g in range(groups):
                f.write(f'  node_group "n{g}" {{ count = 1  gpu {{ model = "H100-SXM5-80GB"  count = 8 }}  '
                        'nvlink { switch = true  bandwidth = 900 GB/s }  '
                        'nic { model = "ConnectX-7"  count = 8  speed = 400 Gb/s  protocol = infiniband } }\n')
            f.write("}\n")
        else:
            write_fleet_yaml(f, groups)
    fleet_run(groups, path)


def distinct(groups):
    """A fleet whose node groups all differ (count 1, 2, 3, ...): nothing folds, every node group is bound and matched."""
    path = os.path.join(GEN, "distinct", "distinct.yaml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("kind: cluster\nname: distinct\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n")
        for g in range(groups):
            f.write(f"  - {{ name: n{g}, count: {g + 1}, gpu: {{ model: H100-SXM5-80GB, count: 8 }}, "
                    "nvlink: { switch: true, bandwidth: 900 GB/s }, "
                    "nics: [{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }] }\n")
    fleet_run(groups, path)


def write_fleet_yaml(f, groups):
    f.write("kind: cluster\nname: fleet\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n")
    for g in range(groups):
        f.write(f"  - {{ name: n{g}, count: 1, gpu: {{ model: H100-SXM5-80GB, count: 8 }}, "
                "nvlink: { switch: true, bandwidth: 900 GB/s }, "
                "nics: [{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }] }\n")


def fleet_run(groups, path):
    subprocess.run([LAUNCHER, "--version"], check=True, stdout=subprocess.DEVNULL)
    t0 = time.perf_counter()
    p = subprocess.Popen([LAUNCHER, "--max-file-size", "1 GiB", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode()[-2000:]
    if code not in (0, 1):
        sys.exit(f"fleet: exit {code}: {err}")
    size = os.path.getsize(path) / 2**20
    cpu = usage.ru_utime + usage.ru_stime
    print(f"fleet    {groups} node groups ({size:.0f} MiB): {dt:.2f} s (CPU {cpu:.2f} s), peak RSS {usage.ru_maxrss / 2**20:.2f} GiB"
          f"   target: 1,000,000 within 20 s and 2 GiB (cpus={os.cpu_count()}, load={os.getloadavg()[0]:.2f})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--fleet", type=int, help="run only the fleet scenario, with this many node groups")
    ap.add_argument("--compare", metavar="LAUNCHER", help="also run every scenario with another build's bin/gpulint "
                    "(e.g. a checkout of an older commit), interleaved in the same rounds, to compare before and after")
    ap.add_argument("--fleet-format", choices=["yaml", "topo"], default="yaml",
                    help="the fleet file's syntax: YAML (default) or the .topo DSL")
    ap.add_argument("--distinct", type=int, help="run only the distinct-node-groups scenario, with this many node groups")
    ap.add_argument("--daemon", action="store_true", help="run only the daemon scenario (one file: cold, warm, yamllint)")
    ap.add_argument("--million", action="store_true",
                    help="run only the 1,000,000-node-group fleet scenario, once in the .topo DSL and once in YAML")
    ap.add_argument("--lsp", action="store_true", help="run only the language server scenario (bench/lsp_bench.py)")
    ap.add_argument("--plan", action="store_true", help="run only hello and the plan scenarios (plan, plan-moe, "
                    "plan-hybrid); with --compare, the other build's too, interleaved")
    args = ap.parse_args()
    if args.lsp:
        import lsp_bench
        subprocess.run([LAUNCHER, "--version"], check=True, stdout=subprocess.DEVNULL)   # build + CDS archive
        lsp_bench.main(LAUNCHER, GEN)
        return
    if args.million:
        for fmt in ("topo", "yaml"):
            fleet(1_000_000, fmt)
        return
    if args.fleet:
        fleet(args.fleet, args.fleet_format)
        return
    if args.distinct:
        distinct(args.distinct)
        return
    generate()
    subprocess.run([LAUNCHER, "--version"], check=True, stdout=subprocess.DEVNULL)   # build + CDS archive
    scenarios = {"hello": ["java", "-cp", GEN, "Hello"]}
    one = os.path.join(GEN, "single", "pod.yaml")
    scenarios["file-cold"] = [LAUNCHER, one]
    scenarios["file-warm"] = ["warm", LAUNCHER, one]
    yamllint = shutil.which("yamllint")
    if yamllint:
        scenarios["yamllint"] = [yamllint, one]
    else:
        print("note: yamllint is not installed (Debian: apt-get install yamllint): the daemon scenario runs without it")
    if args.daemon:
        scenarios = {k: v for k, v in scenarios.items() if k in ("hello", "file-cold", "file-warm", "yamllint")}
    launchers = [("", LAUNCHER)] if not args.daemon else []
    if args.compare:
        subprocess.run([args.compare, "--version"], check=True, stdout=subprocess.DEVNULL)
        launchers.append(("@other", args.compare))
    if args.plan:
        scenarios = {"hello": scenarios["hello"]}
    for suffix, launcher in launchers:
        if not args.plan:
            for k in ("single", "many", "huge", "formats"):
                scenarios[k + suffix] = [launcher, os.path.join(GEN, k)]
        # the plan scenarios run with the other build too only under --plan (the full run's figures stay comparable)
        if not args.daemon and (suffix == "" or args.plan):
            scenarios["plan" + suffix] = [launcher, "plan", os.path.join(GEN, "plan", "gpt3-1024.yaml")]
            scenarios["plan-moe" + suffix] = [launcher, "plan", os.path.join(GEN, "plan", "mixtral-1024.yaml")]
            hyb = os.path.join(GEN, "plan-hybrid")
            scenarios["plan-hybrid" + suffix] = [launcher, "plan", "--config", os.path.join(hyb, ".gpulint.yaml"),
                                                 os.path.join(hyb, "model_config.yaml"), os.path.join(hyb, "cluster.yaml")]
    times = {k: [] for k in scenarios}
    subprocess.run([LAUNCHER, "daemon", "stop"], env=WARM, stdout=subprocess.DEVNULL)
    subprocess.run([LAUNCHER, "daemon", "start"], env=WARM, check=True, stdout=subprocess.DEVNULL)
    try:
        rounds(args, scenarios, times)
    finally:
        subprocess.run([LAUNCHER, "daemon", "stop"], env=WARM, stdout=subprocess.DEVNULL)
    report(args, times)


def rounds(args, scenarios, times):
    for r in range(args.rounds + 1):
        order = list(scenarios)
        random.shuffle(order)
        for k in order:
            dt = timed(scenarios[k])
            if r > 0:
                times[k].append(dt)


def report(args, times):
    hello = statistics.median(times["hello"])
    print(f"{'scenario':14} {'median s':>9} {'min':>7} {'max':>7}  vs hello   target")
    targets = {"single": "<= 3x hello", "many": "<= 2 s", "huge": "<= 3 s", "formats": "<= 2 s", "plan": "<= 2 s", "plan-moe": "<= 2 s", "plan-hybrid": "<= 2 s", "hello": "",
               "file-warm": "< yamllint" if "yamllint" in times else "(no yamllint)", "file-cold": "", "yamllint": ""}
    for k, ts in times.items():
        m = statistics.median(ts)
        print(f"{k:14} {m:9.3f} {min(ts):7.3f} {max(ts):7.3f}  {m / hello:6.2f}x   {targets.get(k.split('@')[0], '')}")
    if "file-warm" in times and "yamllint" in times:
        w, y = statistics.median(times["file-warm"]), statistics.median(times["yamllint"])
        print(f"daemon: one file warm {w * 1000:.0f} ms, cold {statistics.median(times['file-cold']) * 1000:.0f} ms, "
              f"yamllint {y * 1000:.0f} ms: warm is {y / w:.1f}x yamllint's speed ({'met' if w < y else 'NOT met'})")
    print(f"({args.rounds} rounds, cpus={os.cpu_count()}, load={os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
