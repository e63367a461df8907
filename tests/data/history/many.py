#!/usr/bin/env python3
"""Writes many synthetic results directories for the history's size tests and bench: one per run,
each with benchmarks of many intervals (a tree, three children per interval), so that
'history import' of them makes a history of thousands of series.

usage: many.py OUTDIR RUNS [--benchmarks B] [--intervals I] [--threads 1,2] [--repeats R]
               [--step BENCH:INTERVAL:AT:FACTOR ...] [--cv CV] [--seed N] [--first N]

Writes OUTDIR/cNNNN for NN = FIRST..FIRST+RUNS-1 (FIRST default 1), each with manifest.tsv,
fingerprint.tsv (its date a day after the previous run's) and one profile per benchmark,
configuration and repeat. Series: benchmarks x intervals x configurations x the history's metrics
(10 each at 1 and 2 threads). Interval k's time is 0.3^depth seconds at one thread, times a
per-run noise of coefficient of variation CV (default 0.01); from run AT on, interval INTERVAL
(its index, 0 = program) of BENCH takes FACTOR times as long, and so do its ancestors by the same
seconds.
"""
import argparse
import datetime
import os
import random

FINGERPRINT = [("scalegate_version", "0.1.0"), ("hostname", "synthetic"), ("kernel", "6.1.0"),
               ("cpu_model", "Synthetic CPU"), ("cores", "2"), ("compiler", "cc 12.2.0")]


def fnv1a(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def depth(i):
    d = 0
    while i:
        i, d = (i - 1) // 3, d + 1
    return d


def times(nr, noise, step):
    """Each interval's time at one thread: its own work plus its children's."""
    t = [0.3 ** depth(i) * noise[i] for i in range(nr)]
    for i, extra in step.items():
        add = t[i] * (extra - 1)
        while True:
            t[i] += add
            if i == 0:
                break
            i = (i - 1) // 3
    return t


def profile(name, nr, threads, t):
    lines = ["scalegate-profile\t1", "meta\trank\t-", "meta\tranks\t-", "meta\tomp\tgomp",
             "meta\tmpi\tnone",
             "columns\tregion\tid\tname\tfile\tline", "region\t0\tprogram\t%s\t0" % name]
    lines += ["region\t%d\tr%d\t%s.c\t%d" % (i, i, name, i) for i in range(1, nr)]
    lines += ["columns\tnode\tid\tparent\tregion\ttag", "node\t0\t-\t0\t-"]
    lines += ["node\t%d\t%d\t%d\t-" % (i, (i - 1) // 3, i) for i in range(1, nr)]
    lines += ["columns\tthread\tid\tomp_thread\tkind"]
    lines += ["thread\t%d\t%d\t%s" % (w, w, "main" if w == 0 else "worker") for w in range(threads)]
    lines += ["columns\tstat\tnode\tthread\tcount\ttime\tmin\tmax\tsumsq\tpar\tomp_barrier"
              "\tomp_idle\tomp_lock"
              "\tomp_regions"]
    for i in range(nr):
        wall = t[i] * (0.1 + 0.9 / threads) * (1 + 0.02 * (threads - 1))
        par = wall - 0.1 * t[i]
        barrier = 0.02 * (threads - 1) * par
        lines.append("stat\t%d\t0\t1\t%.9g\t-\t-\t-\t%.9g\t%.9g\t0\t0\t%d"
                     % (i, wall, par, barrier, threads > 1))
        lines += ["stat\t%d\t%d\t0\t%.9g\t-\t-\t-\t%.9g\t%.9g\t0\t0\t0" % (i, w, par, par, barrier)
                  for w in range(1, threads)]
    body = "".join(line + "\n" for line in lines)
    return body + "end\t" + fnv1a(body.encode()) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("runs", type=int)
    ap.add_argument("--benchmarks", type=int, default=1)
    ap.add_argument("--intervals", type=int, default=40)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--step", action="append", default=[])
    ap.add_argument("--cv", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    threads = [int(x) for x in a.threads.split(",")]
    steps = [s.split(":") for s in a.step]
    start = datetime.datetime(2026, 1, 1)
    for n in range(a.first, a.first + a.runs):
        root = os.path.join(a.out, "c%04d" % n)
        os.makedirs(root)
        date = (start + datetime.timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(os.path.join(root, "fingerprint.tsv"), "w") as f:
            f.writelines("%s\t%s\n" % kv for kv in FINGERPRINT + [("date", date)])
        rows = ["benchmark\tsize\tranks\tthreads\tp\trepeat\tstatus\texit\twall_s\tdir\treason"
                "\treference_s"]
        for b in range(a.benchmarks):
            name = "bench%02d" % b
            noise = [1 + a.cv * rng.gauss(0, 1) for _ in range(a.intervals)]
            step = {int(i): float(f) for s, i, at, f in steps if s == name and n >= int(at)}
            t = times(a.intervals, noise, step)
            for th in threads:
                for rep in range(1, a.repeats + 1):
                    rel = "%s/s-r1-t%d/%d" % (name, th, rep)
                    os.makedirs(os.path.join(root, rel))
                    with open(os.path.join(root, rel, "p.sgprof"), "w") as f:
                        f.write(profile(name, a.intervals, th, [x * (1 + 0.002 * rep) for x in t]))
                    rows.append("%s\t-\t1\t%d\t%d\t%d\tok\t0\t1\t%s\t-\t%.6f"
                                % (name, th, th, rep, rel, 0.008 * (1 + 0.01 * rng.gauss(0, 1))))
        with open(os.path.join(root, "manifest.tsv"), "w") as f:
            f.writelines(r + "\n" for r in rows)


if __name__ == "__main__":
    main()
