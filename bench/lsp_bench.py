#!/usr/bin/env python3
"""The `lsp` scenario of bench/bench.py: `gpulint lsp` driven by a small scripted client over its standard streams.

  first    from starting `bin/gpulint lsp` to the first diagnostics of an opened job  [issue 29: <= 3 s]
  relint   from a didChange of the job to its new diagnostics (the server's debounce included)  [median <= 150 ms]
  cross    from a didChange of the cluster (renamed, unsaved) to the job's new diagnostics  [same target]

The project is generated under bench/generated/lsp: the job and its cluster, and 200 other manifests on the disk,
so the project is a realistic one to look the cluster up in. Each start is a fresh process; its changes alternate
between a job that fits its NVLink domain and one that does not, so each has diagnostics to change.
"""
import json, os, statistics, subprocess, sys, threading, time, queue

from bench import CLUSTER   # the same 4-node DGX H100 cluster as the check scenarios
JOB = "kind: training_job\nname: job\ncluster: {cluster}\nnodes: 4\nparallelism: {{ tp: {tp}, pp: 4 }}\n"


def generate(root):
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    os.makedirs(os.path.join(root, "other"), exist_ok=True)
    for i in range(200):
        with open(os.path.join(root, "other", f"c{i:03d}.yaml"), "w") as f:
            f.write(CLUSTER.format(name=f"c{i:03d}"))
    with open(os.path.join(root, "cluster.yaml"), "w") as f:
        f.write(CLUSTER.format(name="pod"))
    with open(os.path.join(root, "job.yaml"), "w") as f:
        f.write(JOB.format(cluster="pod", tp=8))


class Client:
    def __init__(self, cmd, root):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.q = queue.Queue()
        self.ids = 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        out = self.p.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                b = out.read(1)
                if not b:
                    return
                header += b
            n = int(header.split(b":")[1].split(b"\r\n")[0])
            self.q.put(json.loads(out.read(n)))

    def send(self, method, params, request=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.ids += 1
            msg["id"] = self.ids
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def diagnostics(self, uri, timeout=60):
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            try:
                m = self.q.get(timeout=max(0.01, end - time.perf_counter()))
            except queue.Empty:
                break
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return [d.get("code") for d in m["params"]["diagnostics"]]
        raise SystemExit(f"no diagnostics for {uri} within {timeout} s")

    def close(self):
        self.send("shutdown", None, request=True)
        self.send("exit", None)
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()


def run(launcher, root, changes):
    uri = lambda name: "file://" + os.path.join(root, name)
    job, cluster = uri("job.yaml"), uri("cluster.yaml")
    t0 = time.perf_counter()
    c = Client([launcher, "lsp"], root)
    c.send("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {}}, request=True)
    c.send("initialized", {})
    version = 1
    c.send("textDocument/didOpen", {"textDocument": {"uri": job, "languageId": "yaml", "version": version,
                                                     "text": JOB.format(cluster="pod", tp=8)}})
    c.diagnostics(job)
    first = time.perf_counter() - t0
    relint = []
    for i in range(changes):
        version += 1
        tp = 16 if i % 2 == 0 else 8
        t = time.perf_counter()
        c.send("textDocument/didChange", {"textDocument": {"uri": job, "version": version},
                                          "contentChanges": [{"text": JOB.format(cluster="pod", tp=tp)}]})
        codes = c.diagnostics(job)
        relint.append(time.perf_counter() - t)
        if ("PAR002" in codes) != (tp == 16):
            raise SystemExit(f"tp={tp}: unexpected diagnostics {codes}")
    version += 1
    text = CLUSTER.format(name="pod")
    c.send("textDocument/didOpen", {"textDocument": {"uri": cluster, "languageId": "yaml", "version": version, "text": text}})
    c.diagnostics(cluster)
    cross = []
    for i in range(changes):
        version += 1
        name = "pod2" if i % 2 == 0 else "pod"
        t = time.perf_counter()
        c.send("textDocument/didChange", {"textDocument": {"uri": cluster, "version": version},
                                          "contentChanges": [{"text": CLUSTER.format(name=name)}]})
        codes = c.diagnostics(job)
        cross.append(time.perf_counter() - t)
        if ("SYN003" in codes) != (name == "pod2"):
            raise SystemExit(f"cluster {name}: unexpected diagnostics of the job {codes}")
    c.close()
    return first, relint, cross


def main(launcher, gen, rounds=3, changes=30):
    root = os.path.join(gen, "lsp")
    generate(root)
    firsts, relints, crosses = [], [], []
    for _ in range(rounds + 1):
        first, relint, cross = run(launcher, root, changes)
        firsts.append(first)
        relints += relint[5:]      # the first changes of a process warm its JIT up
        crosses += cross[5:]
    firsts = firsts[1:]            # round 0: the class archive and page cache warm up
    ms = lambda xs: f"median {statistics.median(xs) * 1000:6.1f} ms  min {min(xs) * 1000:6.1f}  max {max(xs) * 1000:6.1f}"
    print(f"lsp first diagnostics   {ms(firsts)}   target <= 3000 ms   ({rounds} starts)")
    print(f"lsp re-lint (job)       {ms(relints)}   target median <= 150 ms   ({len(relints)} changes, debounce included)")
    print(f"lsp re-lint (cluster→job) {ms(crosses)}   target median <= 150 ms   ({len(crosses)} changes)")


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    main(os.path.join(here, "bin", "gpulint"), os.path.join(here, "bench", "generated"),
         rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 3)
