# No binary or library of the build exports a name that is not its public API: a name in a dynamic
# symbol table replaces a library's own for every library of the process (libpq's GSS negotiation
# called MIT Kerberos, whose profile_init was then the gate's: a crash over any TCP connection). The
# CLI exports nothing; the tracer libraries, and the programs linked with them, only sg_/SG_ entry
# points, the Fortran module's, and the OpenMP/MPI calls they interpose; the archives define no
# other global name either (a user's program links them). Also: no name of the gate's objects is one
# that a library of the CLI's process defines.
# tier: fast
. "$(dirname "$0")/lib.bash"
command -v nm >/dev/null || { echo "skip: nm (binutils) is not installed"; exit 77; }

# the interposed calls and the public API
api='^(sg_|SG_|__scalegate_MOD_sg_|GOMP_|omp_|ompt_start_tool$|MPI_|mpi_|ompi_[a-z_]+_f$)'
# what the toolchain defines in every program: the linker's marks, the sanitizers' and libFuzzer's
# runtimes (a SANITIZE= build), a library's data copied into the program (it carries the version)
toolchain='@|^(_init|_fini|_edata|_end|__bss_start|_IO_stdin_used|'
toolchain+='__(a|l|ub|t|hwa)san_|__odr_asan[._]|__sanitizer_|__sancov_|LLVMFuzzer|__start_|__stop_)'

# exports FILE: its defined dynamic symbols that neither the toolchain nor a library put there (a
# library's variable the program uses is copied into it: a COPY relocation, e.g.
# ompi_mpi_comm_world)
exports() {
	nm -D --defined-only "$1" 2>/dev/null | awk 'NF >= 3 { print $3 }' | grep -Ev -- \
		"$toolchain" |
		grep -vxF -f <(readelf -rW "$1" 2>/dev/null | awk '$3 ~ /_COPY$/ { print $5 }'; \
			echo '@') || true
}

[ -x "$SCALEGATE" ] && pass || fail "no $SCALEGATE"
ours=$(exports "$SCALEGATE")
[ -z "$ours" ] && pass || fail "the CLI exports $(echo $ours)"

checked=0
for lib in "$SG_BUILD"/lib/*.so; do
	[ -e "$lib" ] || continue
	bad=$(exports "$lib" | grep -Ev -- "$api" || true)
	[ -z "$bad" ] && pass ||
		fail "$(basename "$lib") exports names outside its API: $(echo $bad)"
	api_names=$(exports "$lib" | grep -Ec -- '^sg_')
	[ "$api_names" -gt 0 ] && pass || fail "$(basename "$lib") exports no sg_ entry point"
	checked=$((checked + 1))
done
for lib in "$SG_BUILD"/lib/*.a; do
	[ -e "$lib" ] || continue
	bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | grep -Ev -- \
		"$toolchain" |
		grep -Ev -- "$api" || true)
	[ -z "$bad" ] && pass ||
		fail "$(basename "$lib") defines global names outside its API: $(echo $bad)"
	checked=$((checked + 1))
done
[ "$checked" -ge 2 ] && pass || fail "found only $checked tracer libraries in $SG_BUILD/lib"

# every name our objects define that is not the API: no program of the build (examples, test
# programs, unit tests, fuzzers; a sanitizer's runtime exports libc's names there, so those are not
# judged) exports one
nm -g --defined-only "$SG_BUILD"/libgate.a "$SG_BUILD"/gate/cmd/*.o "$SG_BUILD"/lib/*.a \
	2>/dev/null |
	awk 'NF == 3 { print $3 }' | sort -u >"$T/ours"
grep -Ev -- "$api" "$T/ours" >"$T/private" || true
[ -s "$T/private" ] && pass || fail "no symbols read from the gate's objects"
top_build=$(dirname "$SG_BUILD")
programs=0
while IFS= read -r prog; do
	readelf -h "$prog" >/dev/null 2>&1 || continue
	bad=$(exports "$prog" | sort -u | comm -12 - "$T/private")
	[ -z "$bad" ] && pass || fail "${prog#"$top_build"/} exports $(echo $bad)"
	programs=$((programs + 1))
done < <(find "$SG_BUILD" "$top_build/fuzz" -type f -perm -u+x ! -name '*.so' ! -name '*.sh' \
	2>/dev/null)
[ "$programs" -gt 10 ] && pass || fail "found only $programs programs in $SG_BUILD"

# the gate's own global names against every library of the CLI's process (hidden now, but a name
# shared with a library is one visibility flag away from this crash again)
libs=$(ldd "$SCALEGATE" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
nm -D --defined-only $libs 2>/dev/null | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u \
	>"$T/system"
[ -s "$T/system" ] && pass || fail "no symbols read from the CLI's libraries"
shared=$(comm -12 "$T/private" "$T/system")
[ -z "$shared" ] && pass || fail "the gate defines names its libraries define too: $(echo $shared)"
echo "ok: exported symbols"
