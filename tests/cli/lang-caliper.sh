# Caliper-annotated code gated unchanged: a C program written for Caliper's annotation API (and a
# C++ one) built with 'pkg-config scalegate-caliper' against an installed prefix, run by 'scalegate
# run', analyzed, given a baseline and checked; what is not supported does not compile.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/lang.bash"

cat >"$T/solver.c" <<'C'
#include <caliper/cali.h>
#include <stdio.h>
#include <stdlib.h>

static double relax(double *u, int n)
{
	double change = 0;

	CALI_MARK_FUNCTION_BEGIN;
#pragma omp parallel for reduction(max : change)
	for (int i = 1; i < n - 1; i++) {
		double v = 0.5 * (u[i - 1] + u[i + 1]);
		change = v - u[i] > change ? v - u[i] : change;
		u[i] = v;
	}
	CALI_MARK_FUNCTION_END;
	return change;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000, steps = 6;
	double *u = calloc((size_t)n, sizeof(*u)), change = 0;

	if (!u)
		return 1;
	u[n - 1] = 1;
	CALI_MARK_BEGIN("setup");
	cali_begin_region("read input");
	cali_end_region("read input");
	CALI_MARK_END("setup");

	CALI_MARK_LOOP_BEGIN(mainloop, "main loop");
	for (int it = 0; it < steps; it++) {
		CALI_MARK_ITERATION_BEGIN(mainloop, it % 3);
		for (int k = 0; k < 20; k++)
			change = relax(u, n);
		CALI_MARK_ITERATION_END(mainloop);
	}
	CALI_MARK_LOOP_END(mainloop);
	printf("change %g\n", change);
	free(u);
	return 0;
}
C
clang -std=c11 -Wall -Wextra -Werror -fsyntax-only "$T/solver.c" $(pkg-config --cflags \
	scalegate-caliper) && pass ||
	fail "the Caliper stand-in is not warning-free under clang"
cc -std=c11 -Wall -Wextra -Werror -fopenmp $SAN "$T/solver.c" $(pkg-config --cflags --libs \
	scalegate-caliper) -o "$T/solver" && pass ||
	fail "the Caliper-annotated program did not build with scalegate-caliper"

cat >"$T/scalegate.yml" <<YML
# results against their own baseline decide nothing: the capture is the subject here
undecided: pass
benchmarks:
  - name: solver
    command: $T/solver 20000
    threads: [1, 2]
    repeat: 3
    warmup: 0
YML
expect_exit 0 "$P/bin/scalegate" run -c "$T/scalegate.yml" -o "$T/results"
expect_exit 0 "$P/bin/scalegate" analyze "$T/results"
for re in 'program/setup/read input ' 'program/main loop ' \
	'program/main loop/iteration#main loop\[2\] ' \
	'program/main loop/iteration#main loop\[0\]/relax '; do
	expect_match "$out" "^== solver +$re" "the Caliper regions as intervals"
done
expect_exit 0 "$P/bin/scalegate" baseline update -c "$T/scalegate.yml" -r "$T/results" --baselines \
	"$T/baselines"
[ -s "$T/baselines/solver.sgbase" ] && pass || fail "no baseline for the Caliper-annotated program"
expect_exit 0 "$P/bin/scalegate" check -c "$T/scalegate.yml" -r "$T/results" --baselines \
	"$T/baselines"

# C++: the scope macros close on every exit; the loop iteration is a scope.
cat >"$T/app.cpp" <<'CPP'
#include <caliper/cali.h>
#include <stdexcept>

static int step(int i)
{
	CALI_CXX_MARK_FUNCTION;
	if (i == 2)
		throw std::runtime_error("retry");
	return i;
}

int main()
{
	int sum = 0;
	CALI_CXX_MARK_LOOP_BEGIN(outer, "outer");
	for (int i = 0; i < 4; i++) {
		CALI_CXX_MARK_LOOP_ITERATION(outer, i);
		CALI_CXX_MARK_SCOPE("body");
		try {
			sum += step(i);
		} catch (const std::exception &) {
			sum -= 1;
		}
	}
	CALI_CXX_MARK_LOOP_END(outer);
	return sum == 3 ? 0 : 1;
}
CPP
for cxx in g++ clang++; do
	$cxx -std=c++11 -Wall -Wextra -Werror $SAN "$T/app.cpp" $(pkg-config --cflags --libs \
		scalegate-caliper) -o "$T/app" && pass ||
		fail "the Caliper-annotated C++ program did not build with $cxx"
done
SCALEGATE_OUT="$T/cxx" "$T/app" && pass || fail "the C++ program failed"
analyzed "$T/cxx" "the Caliper C++ scopes" 'program/outer ' \
	'program/outer/iteration#outer\[2\]/body/step ' 'program/outer/iteration#outer\[3\] '
expect_exit 0 "$P/bin/scalegate" profile "$T/cxx"/*.sgprof
expect_no_match "$out" 'warning' "an annotation error"

# Caliper's attribute API has no scalegate meaning: using it must not compile, and the error says
# what to write.
printf '#include <caliper/cali.h>\nint main(void) { cali_set_int_byname("n", 3); return 0; }\n' \
	>"$T/attr.c"
expect_exit 1 cc -c "$T/attr.c" $(pkg-config --cflags scalegate-caliper) -o "$T/attr.o"
pat="cali_set_int_byname.* is unavailable: scalegate: Caliper attributes are not "
pat+="supported; mark a region with CALI_MARK_BEGIN\\(name\\)"
expect_match "$out" "$pat" \
	"the unsupported call's error says what to use"
expect_exit 1 clang -fsyntax-only "$T/attr.c" $(pkg-config --cflags scalegate-caliper)
expect_match "$out" "'cali_set_int_byname' is unavailable: scalegate: .*CALI_MARK_BEGIN" \
	"clang says it too"
expect_no_match "$out" 'void value|incompatible type' "one error per unsupported call"
# ... in C++ too, for an attribute created and a communication region (a macro)
pat='#include <caliper/cali.h>\nint main() { cali_id_t a = cali_create_attribute("a", 0, '
pat+='0); (void)a;\n CALI_MARK_COMM_REGION_BEGIN("halo"); return 0; }\n'
printf "$pat" >"$T/attr.cpp"
expect_exit 1 c++ -fsyntax-only "$T/attr.cpp" $(pkg-config --cflags scalegate-caliper)
expect_match "$out" \
	"cali_create_attribute.* is unavailable: scalegate: Caliper attributes are not supported" \
	"C++: the attribute's error"
pat="is unavailable: scalegate: communication regions are not supported: MPI calls are captured"
expect_match "$out" "$pat" \
	"C++: the communication region's error"
expect_no_match "$out" 'poisoned|no matching function|too many arguments' "no cryptic error beside"
# the declarations that make the errors cost a program that does not use them nothing, even with
# strict prototypes
clang -std=c11 -Wall -Wextra -Wstrict-prototypes -Werror -fsyntax-only "$T/solver.c" $(pkg-config \
	--cflags scalegate-caliper) && pass ||
	fail "the stand-in warns under -Wstrict-prototypes"
