# The command line a new user meets: a mistyped command gets "did you mean", -V/--version/version
# print the version, and every command that reads a configuration takes -c and --config.
# tier: fast
. "$(dirname "$0")/lib.bash"

expect_exit 2 "$SCALEGATE" rnu
expect_match "$out" "^scalegate: error: 'rnu' is not a scalegate command$" \
	"a mistyped command is named"
expect_match "$out" "^did you mean 'run'\?$" "a swap of two letters"
expect_exit 2 "$SCALEGATE" chek
expect_match "$out" "^did you mean 'check'\?$" "a missing letter"
expect_exit 2 "$SCALEGATE" baseline-update
expect_match "$out" "^did you mean 'baseline'\?$" "a command that is a word of it"
expect_exit 2 "$SCALEGATE" frobnicate
expect_no_match "$out" "did you mean" "no guess for something far from every command"
expect_match "$out" "^usage: scalegate" "the usage instead"
for v in -V --version version; do
	expect_exit 0 "$SCALEGATE" "$v"
	expect_match "$out" '^scalegate [0-9]+\.[0-9]+\.[0-9]+$' "'$v' prints the version"
done

# -c and --config everywhere (ci refused --config)
printf 'benchmarks:\n  - name: a\n    command: ./a\n    expect_exit: 0,1\n' >"$T/bad.yml"
for cmd in run check ci baseline history; do
	args=("$cmd")
	[ "$cmd" = baseline ] && args+=(update)
	[ "$cmd" = history ] && args+=(detect)
	for opt in -c --config; do
		expect_exit 2 "$SCALEGATE" "${args[@]}" "$opt" "$T/bad.yml"
		pat="bad\.yml:4:18: 'expect_exit' must be an integer or a list "
		pat+="of integers like \[1, 2\], not '0,1'"
		expect_match "$out" "$pat" \
			"'$cmd $opt' reads the configuration (and names the list form)"
	done
done

# Options come from one table per command: a mistyped option gets "did you mean" (a swap of two
# letters is one slip), exit 2, and one line, not the whole help.
expect_exit 2 "$SCALEGATE" ci --no-pots
expect_match "$out" "^scalegate: error: unknown option '--no-pots'; did you mean '--no-post'\?" \
	"a mistyped option gets the nearest one"
expect_no_match "$out" "^usage:" "the help is not dumped for a mistyped option"
expect_exit 2 "$SCALEGATE" check --junti out.xml
expect_match "$out" "did you mean '--junit'\?" "every command's options are known to the hint"
expect_exit 2 "$SCALEGATE" check --junit
expect_match "$out" "^scalegate: error: '--junit' needs a value \(FILE\)$" \
	"a missing value is named"
expect_exit 2 "$SCALEGATE" check --all=yes
expect_match "$out" "'--all' takes no value" "a flag with a value is refused"
expect_exit 2 "$SCALEGATE" post --retries 11 s.json
expect_match "$out" "^scalegate: error: --retries must be an integer from 0 to 10, not '11'$" \
	"a value is checked by its option's row"
for cmd in analyze baseline calibrate check ci post profile report run; do
	expect_exit 0 "$SCALEGATE" "$cmd" --help
	expect_match "$out" "^usage: scalegate $cmd" "'$cmd --help' prints its usage"
	expect_no_match "$out" "%%" "'$cmd --help' prints no printf escapes"
done

# check and ci share their inputs and how they judge: the same rows, word for word, and -r in both
# (ci took only --results).
shared='^  (-c, --config|-r, --results|--baselines|--partial|--allow-no-reference|--all'
shared+='|--testcase-output)'
rows() { "$SCALEGATE" "$1" --help | awk -v re="$shared" '$0 ~ re { on = 1; print; next }
	/^  [^ ]/ { on = 0 } on { print }'; }
[ "$(rows check)" = "$(rows ci)" ] ||
	fail "check and ci word their shared options apart: $(diff <(rows check) <(rows ci))"
[ "$(rows ci | grep -c '^  -')" -eq 7 ] || fail "ci --help lacks a shared row: $(rows ci)"
expect_exit 2 "$SCALEGATE" ci --no-run -c "$T/bad.yml" -r "$T/nowhere"
expect_no_match "$out" "unknown option" "ci takes -r as check does"

# Every error of the gate goes through gate_error() (gate/base/util.c), so a secret filter sees it.
hand=$(cd "$SG_TOP" && grep -rn '"scalegate: error:' gate --include='*.c' | grep -v \
	'^gate/base/util.c:' |
	grep -v 'static const char prefix\[\]' || true)
[ -z "$hand" ] && pass || fail "'scalegate: error:' printed by hand: $hand"
