# Shared by the lang-*.sh tests (sourced after lib.bash): scalegate installed into $P, pkg-config
# pointed at it.
P=$T/p
make -s -C "$SG_TOP" --no-print-directory install PREFIX="$P" >/dev/null
export PKG_CONFIG_PATH=$P/lib/pkgconfig
# The user programs get the sanitizer of the run, but ThreadSanitizer: libgomp's fork and join are
# invisible to it without the tracer's own TSan build, and the installed tracer is the default one.
SAN=${SG_SAN_FLAGS:-}
[[ $SAN == *thread* ]] && SAN=

# analyzed DIR WHAT REGEX...: 'scalegate analyze' of the installed prefix on the profiles in DIR
# shows an interval line matching each REGEX (after '== <program>  ').
analyzed() {
	local dir=$1 what=$2
	shift 2
	expect_exit 0 "$P/bin/scalegate" analyze "$dir"
	for re in "$@"; do
		expect_match "$out" "^== [^ ]+ +$re" "$what"
	done
}
