# 'history import' is one transaction: a directory that fails, or a kill at any of its writes,
# records nothing of the import; what lands is what records one by one would write. Each run keeps
# its commit's subject (--subject, git's, CI_COMMIT_TITLE) and its machine speed reference (the
# median of the manifest's reference_s).
. "$(dirname "$0")/lib.bash"
command -v sqlite3 >/dev/null && pass || fail "the sqlite3 shell is not installed (Debian: sqlite3)"
gen="$SG_TOP/tests/data/history/generate.py"
python3 "$gen" "$T/runs" 1 4 sweep:3:0.15
runs() { sqlite3 "$1" "SELECT count(*) FROM runs"; }
content() {
	sqlite3 "$1" \
		"SELECT r.commit_id, s.benchmark, s.interval, s.configuration, s.metric,
		p.median, p.lo, p.hi, p.n
		FROM points p JOIN runs r ON r.id = p.run JOIN series s ON s.id = p.series
		ORDER BY 1, 2, 3, 4, 5;
		SELECT r.commit_id, s.interval, s.configuration, s.metric, x.repeat, x.value
		FROM samples x JOIN runs r ON r.id = x.run JOIN series s ON s.id = x.series
		ORDER BY 1, 2, 3, 4, 5"
}

# what an import writes is what records one by one write
expect_exit 0 "$SCALEGATE" history import --history "$T/import.db" "$T"/runs/c0[1-3]
for c in c01 c02 c03; do
	expect_exit 0 "$SCALEGATE" history record --history "$T/record.db" --commit $c \
		--date 2026-01-01T00:00:00Z \
		--branch x "$T/runs/$c"
done
[ "$(content "$T/import.db")" = "$(content "$T/record.db")" ] && pass ||
	fail "an import writes other figures than records"

# a directory that fails: nothing of the import is recorded, into a new history or an old one
mkdir "$T/runs/broken"
expect_exit 2 "$SCALEGATE" history import --history "$T/new.db" "$T/runs/c01" "$T/runs/c02" \
	"$T/runs/broken" "$T/runs/c04"
expect_match "$out" "the import recorded nothing" "the message of a failed import"
[ "$(runs "$T/new.db")" = 0 ] && pass ||
	fail "a failed import left $(runs "$T/new.db") runs in a new history"
expect_exit 2 "$SCALEGATE" history import --history "$T/import.db" "$T/runs/c04" "$T/runs/broken"
[ "$(runs "$T/import.db")" = 3 ] && pass || fail "a failed import added runs to a history"

# killed at a write of its own (strace injects SIGKILL): the history holds all of the import or
# nothing of it, and nothing when the kill comes before its commit
command -v strace >/dev/null && pass ||
	fail "strace is not installed (ci/install-deps.sh installs it)"
cp "$T/import.db" "$T/counted.db"
strace -f -c -e trace=pwrite64 -o "$T/count.txt" \
	"$SCALEGATE" history import --history "$T/counted.db" "$T"/runs/c0[1-4] >/dev/null && pass \
		||
		fail "strace"
calls=$(awk '$NF == "pwrite64" { print $4 }' "$T/count.txt")
[ "${calls:-0}" -gt 8 ] && pass || fail "could not count the writes of an import"
for n in 2 $((calls / 4)) $((calls / 2)) $((calls - 1)); do
	cp "$T/import.db" "$T/kill.db"
	strace -f -o /dev/null -e trace=pwrite64 -e inject=pwrite64:signal=KILL:when=$n \
		"$SCALEGATE" history import --history "$T/kill.db" "$T"/runs/c0[1-4] >/dev/null \
			2>&1 &&
		fail "the import was not killed at write $n"
	[ "$(sqlite3 "$T/kill.db" 'PRAGMA integrity_check')" = ok ] && pass ||
		fail "integrity_check after a kill at write $n"
	left=$(runs "$T/kill.db")
	[ "$left" = 3 ] || [ "$left" = 7 ] && pass ||
		fail "an import of 4 runs killed at write $n left $left runs, not 3 or 7"
	[ "$n" -gt 2 ] || [ "$left" = 3 ] && pass ||
		fail "an import killed at its second write recorded runs"
done

# the machine speed reference: the median of the manifest's reference_s
prog='BEGIN { FS = OFS = "\t" } NR == 1 { print $0, "reference_s"; '
prog+='next } { print $0, 0.007 + NR / 1000 }'
awk "$prog" \
	"$T/runs/c04/manifest.tsv" >"$T/manifest" && mv "$T/manifest" "$T/runs/c04/manifest.tsv"
expected=$(awk 'NR > 1 { print 0.007 + NR / 1000 }' "$T/runs/c04/manifest.tsv" | sort -n |
	awk '{ v[NR] = $1 }
		END { printf "%.6f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
expect_exit 0 "$SCALEGATE" history import --history "$T/import.db" --subject 'Slow the sweep down' \
	"$T/runs/c04"
[ "$(sqlite3 "$T/import.db" "SELECT printf('%.6f', reference) || ' ' || subject
	FROM runs WHERE commit_id = 'c04'")" = \
	"$expected Slow the sweep down" ] && pass || fail "the reference and subject of c04"
[ "$(sqlite3 "$T/import.db" "SELECT count(*) FROM runs WHERE reference IS NULL")" = 3 ] && pass ||
	fail "runs without reference_s have no reference"

# subjects: git's, for directories named by the commit; CI_COMMIT_TITLE for a record
command -v git >/dev/null && pass || fail "git is not installed"
git init -q "$T/repo"
for s in "Add the solver" "Unroll the sweep"; do
	git -C "$T/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$s"
	cp -r "$T/runs/c01" "$T/$(git -C "$T/repo" rev-parse HEAD)"
done
(cd "$T/repo" && "$SCALEGATE" history import --history "$T/git.db" \
	"$T"/[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) >/dev/null && pass ||
	fail "import of directories named by commits"
[ "$(sqlite3 "$T/git.db" "SELECT group_concat(subject, '|')
	FROM (SELECT subject FROM runs ORDER BY subject)")" = \
	"Add the solver|Unroll the sweep" ] && pass || fail "git's subjects of imported commits"
CI_COMMIT_TITLE="Fix the halo" expect_exit 0 "$SCALEGATE" history record --history "$T/git.db" \
	--commit c09 "$T/runs/c01"
[ "$(sqlite3 "$T/git.db" "SELECT subject FROM runs WHERE commit_id = 'c09'")" = "Fix the halo" ] \
	&& pass ||
	fail "CI_COMMIT_TITLE as the subject"
expect_exit 2 "$SCALEGATE" history import --history "$T/git.db" --subject x "$T/runs/c01" \
	"$T/runs/c02"
expect_match "$out" "name the commit of one directory" "--subject with two directories"
echo "ok: history import is one transaction; subjects and references recorded"
