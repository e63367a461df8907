# The command line a new user meets: a mistyped command gets "did you mean", -V/--version/version print the
# version, and every command that reads a configuration takes -c and --config.
. "$(dirname "$0")/lib.bash"

expect_exit 2 "$SCALEGATE" rnu
expect_match "$out" "^scalegate: error: 'rnu' is not a scalegate command$" "a mistyped command is named"
expect_match "$out" "^did you mean 'run'\?$" "a swap of two letters"
expect_exit 2 "$SCALEGATE" chek
expect_match "$out" "^did you mean 'check'\?$" "a missing letter"
expect_exit 2 "$SCALEGATE" baseline-update
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
		expect_match "$out" "bad\.yml:4:18: 'expect_exit' must be an integer or a list of integers like \[1, 2\], not '0,1'" \
			"'$cmd $opt' reads the configuration (and names the list form)"
	done
done
