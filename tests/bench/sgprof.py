# Writes synthetic profiles for the bench scripts (analyze_bench.sh, reduce_bench.sh): the lines of
# a profile sealed with its end record (tracer/PROFILE.md).
import os


def fnv(b):
    h = 14695981039346656037  # FNV-1a 64 offset basis (tracer/PROFILE.md)
    for c in b:
        h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h


def write(path, lines):
    body = ("\n".join(lines) + "\n").encode()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(body + b"end\t%016x\n" % fnv(body))
