# The profile's columns are one table (format/columns.h): tracer/PROFILE.md's tables name exactly
# its columns (and the reduced ones combine over ranks as its rows say), the tracer writes them in
# its order, and a column a profile lacks (an older tracer's) reads as not captured: the figure
# that needs it is null in analyze --json, never 0.
# tier: fast
. "$(dirname "$0")/lib.bash"

cd "$SG_TOP"
docs='tracer/PROFILE.md disagrees with format/columns.h'
python3 - format/columns.h tracer/PROFILE.md <<'PY' || fail "$docs"
import re, sys

header, doc = open(sys.argv[1]).read(), open(sys.argv[2]).read()

def table(macro):
    """The rows of an X-macro table: their fields, name unquoted."""
    body = re.search(r"#define %s\(X\) \\\n((?:.*\\\n)*.*\n)" % macro, header).group(1)
    return [[f.strip().strip('"') for f in row.split(",")]
            for row in re.findall(r"X\(([^)]*)\)", body)]

def doc_table(heading):
    """The first cells of the table after 'heading' in the docs: the names in backquotes."""
    at = doc.index(heading)
    rows = re.search(r"\n(\|.*\|\n)+", doc[at - 1:]).group(0).strip().split("\n")[2:]
    return [(re.findall(r"`([^`]+)`", r.split("|")[1]), [c.strip() for c in r.split("|")[1:-1]])
            for r in rows]

bad = []
def same(what, table_names, doc_names):
    for n in table_names:
        if n not in doc_names:
            bad.append("%s column '%s' (format/columns.h) is not in PROFILE.md's table" % (what, n))
    for n in doc_names:
        if n not in table_names:
            bad.append("%s column '%s' of PROFILE.md's table is not in format/columns.h"
                       % (what, n))

for macro, heading in (("SG_STAT_COLUMNS", "### `stat` columns"),
                       ("SG_MPI_COLUMNS", "### `mpi` columns")):
    same(heading[5:8], [r[1] for r in table(macro)],
         [n for names, _ in doc_table(heading) for n in names])
reduced = {r[1]: r[2].lower() for r in table("SG_REDUCED_COLUMNS")}
rows = doc_table("| column | over ranks | what |")
same("reduced", list(reduced), [n for names, _ in rows for n in names])
for names, cells in rows:
    for n in names:
        if n in reduced and cells[1] != reduced[n]:
            bad.append("reduced column '%s': PROFILE.md says '%s' over ranks, the table %s"
                       % (n, cells[1], reduced[n].upper()))
quantities = re.search(r"`reduced_cmp`: per node and per-processor quantity \(([^)]*)\)",
                       doc.replace("\n  ", " ")).group(1)
same("reduced_cmp quantity", [r[1] for r in table("SG_REDUCED_QUANTITIES")],
     re.findall(r"`([^`]+)`", quantities.split(":")[0]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
pass "PROFILE.md's tables name the columns of format/columns.h, and no other"

# The tracer writes the table's columns, in its order.
traced "$T/written" iterations 10
names=$(sed -n '/^#define SG_STAT_COLUMNS/,/[^\\]$/p' format/columns.h |
	sed -n 's/.*X([A-Z_]*, "\([a-z_]*\)".*/\1/p' | tr '\n' '\t')
written=$(one_profile "$T/written")
grep -qx $'columns\tstat\tnode\tthread\t'"${names%$'\t'}" "$written" && pass ||
	fail "the tracer's stat columns are not the table's: $(grep $'^columns\tstat' "$written")"

# drop_columns DIR COLUMN...: the stat columns COLUMN... taken out of every profile of DIR, as a
# tracer before them wrote it (meta unchanged), sealed again.
drop_columns() {
	local dir=$1
	shift
	find "$dir" -name '*.sgprof' -print0 | xargs -0 python3 -c '
import sys
drop = sys.argv[1].split()
for path in sys.argv[2:]:
    out, keep = [], None
    for line in open(path).read().split("\n"):
        f = line.split("\t")
        if f[0] == "end" or not line:
            continue
        if f[:2] == ["columns", "stat"]:
            keep = [i for i, n in enumerate(f) if i < 2 or n not in drop]
        if f[:2] == ["columns", "stat"]:
            f = [f[i] for i in keep]
        elif f[0] == "stat":  # its fields: those of the columns record less the first
            f = [f[i - 1] for i in keep[1:]]
        out.append("\t".join(f) + "\n")
    text = "".join(out).encode()
    h = 14695981039346656037
    for b in text:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    open(path, "wb").write(text + b"end\t%016x\n" % h)
' "$*"
}

# figure JSON NAME: the figure's median in every configuration of more than one thread (where
# OpenMP waiting applies) of every interval, one per line.
figure() {
	python3 -c '
import json, sys
for i in json.load(open(sys.argv[1]))["intervals"]:
    for c in i["configurations"]:
        if c["threads"] < 2:
            continue
        f = c["characteristics"].get(sys.argv[2])
        print("null" if f is None or f.get("median") is None else f["median"])
' "$1" "$2"
}

data=tests/data/check/busy-interference/results
"$SCALEGATE" analyze --json "$data" >"$T/full.json" && pass || fail "analyze $data"
[ "$(figure "$T/full.json" Interference | sort -u)" != null ] && pass ||
	fail "Interference not measured in $data"
[ "$(figure "$T/full.json" Synchronization_omp | sort -u)" != null ] && pass ||
	fail "Synchronization_omp not measured in $data"
cp -r "$data" "$T/old"
drop_columns "$T/old" rq_wait omp_barrier omp_idle omp_lock
"$SCALEGATE" analyze --json "$T/old" >"$T/old.json" && pass ||
	fail "analyze profiles without rq_wait and the OpenMP columns"
[ "$(figure "$T/old.json" Interference | sort -u)" = null ] && pass ||
	fail "without rq_wait, Interference is $(figure "$T/old.json" Interference | sort -u |
		tr '\n' ' ')(not null)"
[ "$(figure "$T/old.json" Synchronization_omp | sort -u)" = null ] && pass ||
	fail "without the OpenMP columns, Synchronization_omp is $(figure "$T/old.json" \
		Synchronization_omp | sort -u | tr '\n' ' ')(not null)"
[ "$(figure "$T/old.json" Execution_time | sort -u)" != null ] && pass ||
	fail "the time is read without the dropped columns"
