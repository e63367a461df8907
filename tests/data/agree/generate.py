#!/usr/bin/env python3
"""Writes the inputs of tests/cli/report-agree.sh: one A/B gate and one stored gate of the same
program.

usage: tests/data/agree/generate.py SCALEGATE OUT

The model is tests/data/check/generate.py's Jacobi (program > solve > {sweep,
residual}, threads 1 and 2, OpenMP captured). Both sides ran beside other
processes, so their profiles carry the run-queue delay (Interference): the base
lost 1.5 times its work to the machine, more than its program's Total_time,
the head 0.6 times. The head runs its residual on one thread (a regression) and
is noisy (some checks cannot decide).

- OUT/ab: results/ with results/base/ and ab.tsv, as 'scalegate ci --against'
  leaves them; scalegate.yml.
- OUT/stored: the same head against a baseline recorded from the base's
  results on a machine 10 % faster by scalegate's reference loop, the head's
  work 10 % longer for it: the check scales the head's times by about 0.909.

Nothing in OUT is committed: the test writes it afresh each time.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check"))
import generate as check  # noqa: E402

NOISY = [1.00, 1.16, 0.90, 1.12, 0.95]
SLOWER = 1.1
RULES = """rules:
  - name: solver
    benchmark: jacobi
    interval: "program/solve*"
    tolerance:
      time: 10%
      insufficient_parallelism: 0.05
      synchronization: 0.05
    significance: 0.05
"""


def config(path, baselines):
    with open(path, "w") as f:
        f.write("results: results\n" + ("baselines: baselines\n" if baselines else "") +
                "benchmarks:\n  - name: jacobi\n    command: ./jacobi {threads} 300\n"
                "    threads: [1, 2]\n    repeat: 5\n    max_contention: off\n" + RULES)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    scalegate, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    head = dict(factors=NOISY, mode="serial", busy=0.6)
    base = dict(factors=check.CLEAN, mode="parallel", busy=1.5)

    ab = os.path.join(out, "ab")
    os.makedirs(ab, exist_ok=True)
    config(os.path.join(ab, "scalegate.yml"), False)
    check.write_results(os.path.join(ab, "results"), **head)
    check.write_results(os.path.join(ab, "results", "base"), **base)
    with open(os.path.join(ab, "results", "ab.tsv"), "w") as f:
        f.write("seed\t1\nbase_root\t/base\nhead_root\t/head\nbenchmark\tconfiguration\trepeat"
                "\torder\n")
        for repeat in range(1, len(NOISY) + 1):
            for t in (1, 2):
                f.write("jacobi\ts--r1-t%d\t%d\t%s\n"
                        % (t, repeat, "base,head" if repeat % 2 else "head,base"))

    stored = os.path.join(out, "stored")
    os.makedirs(stored, exist_ok=True)
    config(os.path.join(stored, "scalegate.yml"), True)
    check.write_results(os.path.join(stored, "results"), reference=0.011,
                        **dict(head, factors=[SLOWER * f for f in NOISY]))
    check.write_results(os.path.join(stored, "results-base"), reference=0.010, **base)
    subprocess.run([scalegate, "baseline", "update", "--force", "-c",
                    os.path.join(stored, "scalegate.yml"),
                    "-r", os.path.join(stored, "results-base")], check=True,
                    stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
