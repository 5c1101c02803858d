#!/usr/bin/env python3
"""Whether two builds of gpulint print the same bytes for plan, diagnose and check on samples/.

A refactoring that must not change output (issue 34 item 5: the estimate carried beside the facts, not among them)
is checked with it: every folder and file under samples/ is planned and diagnosed in JSON (samples/'s three folders also
checked in JSON, which holds the layout fixes), for each job it holds (a run that names several jobs is repeated with --job for each), with both builds, from the
repository's root; the exit code, standard output and standard error must be the same bytes.

Usage: python3 bench/same_outputs.py BEFORE.jar AFTER.jar   (the -all.jar of `mvn -pl src package -DskipTests`)
Prints one line per difference and the count of runs compared; exit 1 when any differs.
"""
import os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(jar, args):
    p = subprocess.run(["java", "-jar", jar] + args, cwd=ROOT, capture_output=True, timeout=900)
    return p.returncode, p.stdout, p.stderr


def targets():
    out = []
    for top in sorted(os.listdir(os.path.join(ROOT, "samples"))):
        base = os.path.join("samples", top)
        out.append(base)
        for name in sorted(os.listdir(os.path.join(ROOT, base))):
            out.append(os.path.join(base, name))
    return out


def main():
    before, after = sys.argv[1], sys.argv[2]
    compared, differ = 0, 0
    for t in targets():
        for cmd in (["plan", "-f", "json"], ["diagnose", "-f", "json"]) + ((["check", "-f", "json"],) if t.count(os.sep) == 1 else ()):
            runs = [cmd + [t]]
            rc, out, err = run(before, runs[0])
            m = re.search(rb"more than one job: choose one with --job \(([^)]*)\)", err)
            if m and cmd[0] != "check":
                runs += [cmd + ["--job", j.decode(), t] for j in m.group(1).split(b", ")]
            for i, args in enumerate(runs):
                a = (rc, out, err) if i == 0 else run(before, args)
                b = run(after, args)
                compared += 1
                if a != b:
                    differ += 1
                    print("DIFFERS:", " ".join(args), "exit", a[0], b[0], "stdout same" if a[1] == b[1] else "stdout differs",
                          "stderr same" if a[2] == b[2] else "stderr differs")
    print(f"{compared} runs compared, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
