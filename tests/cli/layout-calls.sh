#!/usr/bin/env bash
# Within a folder of gate/ the calls run one way, along the data flow (docs/design.md, "The stage
# folders and their arrows"): no two files call each other, nor do three or more in a circle. A
# file calls another when one of its undefined symbols is a function the other defines, read from
# the build's objects with nm; data tables (a registry and its rows) are not calls.
# tier: fast
set -u
cd "${SG_TOP:-$(dirname "$0")/../..}" || exit 1
B=${SG_BUILD:-build/default}
[ -d "$B/gate" ] || { echo "no objects in $B/gate: build first"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
complain() { echo "$1"; bad=1; }

# "CALLER CALLEE SYMBOL" for the files of gate/$1/ (objects of files no longer there are ignored).
calls() {
	local src objs=()
	for src in gate/"$1"/*.c; do
		objs+=("$B/gate/$1/$(basename "$src" .c).o")
		[ -e "${objs[-1]}" ] || complain "${objs[-1]}: missing (build first)"
	done
	nm -A "${objs[@]}" 2>/dev/null | awk '
		{ f = $1; sub(/:.*/, "", f); sub(/.*\//, "", f); sub(/\.o$/, "", f) }
		$2 == "T" { def[$3] = f }
		$2 == "U" { n++; und[n] = $3; who[n] = f }
		END {
			for (i = 1; i <= n; i++)
				if ((und[i] in def) && def[und[i]] != who[i])
					print who[i], def[und[i]], und[i]
		}' |
		sort -u
}

files=0
for dir in gate/*/; do
	folder=$(basename "$dir")
	calls "$folder" >"$tmp/calls"
	files=$((files + $(ls gate/"$folder"/*.c | wc -l)))
	# two files that call each other, with what each calls of the other
	awk -v dir="gate/$folder/" '
		{ key = $1 " " $2; what[key] = what[key] " " $3 }
		END {
			for (k in what) {
				split(k, p, " ")
				back = p[2] " " p[1]
				if ((back in what) && p[1] < p[2])
					printf "%s: %s.c and %s.c call each other " \
						"(%s.c:%s; %s.c:%s)\n", dir, p[1], p[2], p[1],
						what[k], p[2], what[back]
			}
		}' "$tmp/calls" >"$tmp/pairs"
	if [ -s "$tmp/pairs" ]; then
		complain "$(cat "$tmp/pairs")"
		continue
	fi
	# a longer circle: tsort names its files on stderr
	cut -d' ' -f1,2 "$tmp/calls" | tsort >/dev/null 2>"$tmp/loop"
	if grep -q "loop" "$tmp/loop"; then
		circle=$(grep -v "input contains a loop" "$tmp/loop" | sed 's/^tsort: //; s/$/.c/' |
			sort -u | tr '\n' ' ')
		complain "gate/$folder/: files call each other in a circle: $circle"
	fi
done
[ $bad -eq 0 ] && echo "gate/: the calls between the $files files of each folder run one way"
exit $bad
