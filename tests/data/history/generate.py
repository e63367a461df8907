#!/usr/bin/env python3
"""Writes synthetic results directories for the history tests: one per commit, the Jacobi model of
tests/data/check/generate.py with a per-run noise, and steps where asked.

usage: generate.py OUTDIR FIRST LAST [KERNEL:AT:STEP ...] [--seed N] [--cv CV]

Writes OUTDIR/cNN for NN = FIRST..LAST; from run AT on, KERNEL ('sweep' or 'residual') takes
(1 + STEP) times as long. Every interval's time moves with a shared noise of coefficient of
variation CV per run (default 0.01); the repeats of a run vary as CLEAN does.
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "check"))
import generate as g  # noqa: E402

BASE = {"sweep": g.SWEEP, "residual": g.RESIDUAL}


def main(argv):
    seed, cv, args = 1, 0.01, []
    i = 0
    while i < len(argv):
        if argv[i] == "--seed":
            seed, i = int(argv[i + 1]), i + 2
        elif argv[i] == "--cv":
            cv, i = float(argv[i + 1]), i + 2
        else:
            args.append(argv[i])
            i += 1
    out, first, last = args[0], int(args[1]), int(args[2])
    steps = [(k, int(at), float(s)) for k, at, s in (x.split(":") for x in args[3:])]
    rng = random.Random(seed)
    for n in range(first, last + 1):
        noise = 1 + cv * rng.gauss(0, 1)
        for kernel, base in BASE.items():
            f = 1.0
            for k, at, s in steps:
                if k == kernel and n >= at:
                    f *= 1 + s
            setattr(g, kernel.upper(), base * f)
        g.write_results(os.path.join(out, "c%02d" % n), [noise * c for c in g.CLEAN], "parallel")


if __name__ == "__main__":
    main(sys.argv[1:])
