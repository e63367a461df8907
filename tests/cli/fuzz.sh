# libFuzzer over the config, rules, profile and baseline readers for a short fixed time each
# (SG_FUZZ_SECONDS, default 10); 'make fuzz' runs longer. Needs clang (ci/install-deps.sh installs
# it): 'make all-tests' builds the harnesses.
# tier: fast
. "$(dirname "$0")/lib.bash"

command -v "${CLANG:-clang}" >/dev/null && pass ||
	fail "clang is not installed: the fuzzers cannot be built"
"$SG_TOP/tests/fuzz/run.sh" "$SG_TOP/build/fuzz" "${SG_FUZZ_SECONDS:-10}" "$T"
