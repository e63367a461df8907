#!/usr/bin/env bash
# The layout of gate/ is a rule (docs/design.md, "The stage folders and their arrows"): every
# include spelled by folder goes down the table of stages, nothing includes cmd/, a private header
# stays in its folder, tracer/ and gate/ never include each other, and the folders' include graph
# has no cycle. format/ (what the two share: the profile's columns, the per-rank formulas) may be
# included by both, spelled "format/...", and includes nothing of either.
# tier: fast
set -u
cd "${SG_TOP:-$(dirname "$0")/../..}" || exit 1
declare -A may=(
	[cmd]="post report judge history rules interop analyze run stats results config base"
	[post]="base"
	[report]="judge history rules analyze stats results config base"
	[judge]="history rules analyze stats results config base"
	[history]="analyze stats results config base"
	[rules]="config base"
	[interop]="analyze stats results config base"
	[analyze]="stats results config base"
	[run]="results config base"
	[stats]="base"
	[results]="base"
	[config]="base"
	[base]=""
)
bad=0
# complain WHAT: a broken rule, on its own line (TAP-like, as lib.bash's checks).
n=0
complain() { n=$((n + 1)); echo "not ok $n - $1"; bad=1; }

for f in gate/*.c gate/*.h; do
	[ -e "$f" ] && complain "$f: a source file beside the stage folders"
done
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in gate/*/*.[ch]; do
	from=$(basename "$(dirname "$f")")
	[ -n "${may[$from]+set}" ] || { complain "$f: '$from' is not a stage folder"; continue; }
	while IFS=: read -r line inc; do
		where="$f:$line"
		case $inc in
		*/*) ;;
		*) complain "$where: '#include \"$inc\"' is not spelled by folder"; continue ;;
		esac
		to=${inc%%/*}
		if [ "$to" = format ]; then
			[ -e "$inc" ] || complain "$where: '$inc' does not exist"
			continue
		fi
		[ -e "gate/$inc" ] || { complain "$where: 'gate/$inc' does not exist"; continue; }
		[ "$to" = "$from" ] && continue
		echo "$from $to" >>"$edges"
		case $inc in *-priv.h) complain "$where: '$inc' is private to gate/$to/" ;; esac
		[[ " ${may[$from]} " == *" $to "* ]] || complain \
			"$where: gate/$from/ may not include gate/$to/ ('$inc')"
	done < <(grep -n '^#include "' "$f" | sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1:\2/')
done
# tsort reports a cycle on stderr.
if ! sort -u "$edges" | tsort >/dev/null 2>"$edges.err" || [ -s "$edges.err" ]; then
	complain "the folders of gate/ include each other in a cycle: $(grep -v \
		"input contains a loop" "$edges.err" | sed "s/^tsort: //" | sort -u | tr "\n" " ")"
fi
rm -f "$edges.err"
re='#include "\(\.\./\)*gate/\|#include "\(cmd\|post\|report\|judge\|rules'
re+='\|analyze\|run\|stats\|results\|config\|base\)/'
if grep -n "$re" tracer/*.[ch]; then
	complain "tracer/ includes the gate"
fi
if grep -rn '#include "\(\.\./\)*tracer/\|#include "scalegate.h"\|#include <scalegate.h>' gate; then
	complain "gate/ includes the tracer"
fi
# format/: its own headers and the system's, nothing of tracer/ or gate/; tracer/ reaches it only
# as "format/..."
formats=0
for f in format/*.[ch]; do
	[ -e "$f" ] || continue
	formats=$((formats + 1))
	while IFS=: read -r line inc; do
		case $inc in
		format/*) [ -e "$inc" ] || complain "$f:$line: '$inc' does not exist" ;;
		*) complain "$f:$line: format/ includes only format/ ('#include \"$inc\"')" ;;
		esac
	done < <(grep -n '^#include "' "$f" | sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1:\2/')
done
[ "$formats" -gt 0 ] || complain "no format/ headers"
while IFS=: read -r f line inc; do
	[ -e "$inc" ] || complain "$f:$line: '$inc' does not exist"
done < <(grep -n '^#include "format/' tracer/*.[ch] |
	sed 's/^\([^:]*\):\([0-9]*\):#include "\([^"]*\)".*/\1:\2:\3/')
[ $bad -eq 0 ] &&
	echo "ok 1 - format/: $formats files, shared by tracer/ and gate/, include neither"
[ $bad -eq 0 ] && echo "ok 2 - gate/: $(ls gate/*/*.[ch] | wc -l) files in $(ls -d gate/*/ | wc \
	-l) stage folders, every include down the table"
exit $bad
