# CMake against an installed prefix: find_package(scalegate CONFIG) with a version gives
# scalegate::scalegate, ::caliper, ::fortran and ::mpi; a project using all four configures, builds
# and runs, even under --as-needed; a version the prefix cannot satisfy, or a missing component,
# fails the configure.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"
. "$(dirname "$0")/lang.bash"

command -v cmake >/dev/null && pass || fail "cmake is not installed (ci/install-deps.sh)"
mkdir -p "$T/src"
cat >"$T/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(gated C CXX Fortran)
find_package(OpenMP REQUIRED COMPONENTS C Fortran)
find_package(MPI REQUIRED COMPONENTS C)
find_package(scalegate 0.1 CONFIG REQUIRED COMPONENTS fortran mpi)
message(STATUS "scalegate ${scalegate_VERSION}")

add_executable(solve_c solve.c)
target_link_libraries(solve_c PRIVATE scalegate::scalegate OpenMP::OpenMP_C)
add_executable(solve_cxx solve.cpp)
target_link_libraries(solve_cxx PRIVATE scalegate::scalegate)
add_executable(solve_f solve.F90)
target_link_libraries(solve_f PRIVATE scalegate::fortran OpenMP::OpenMP_Fortran)
add_executable(solve_cali solve_cali.c)
target_link_libraries(solve_cali PRIVATE scalegate::caliper)
# OpenMP by pragmas only: the link must keep libgomp (issue 12)
add_executable(pragma pragma.c)
target_link_libraries(pragma PRIVATE scalegate::scalegate OpenMP::OpenMP_C)
# calls no scalegate function: the PMPI wrappers must stay linked
add_executable(solve_mpi solve_mpi.c)
target_link_libraries(solve_mpi PRIVATE scalegate::mpi MPI::MPI_C)
CMAKE
cat >"$T/src/solve.c" <<'C'
#include <scalegate.h>
int main(void)
{
	volatile double x = 0;
	SG_BEGIN("solve");
#pragma omp parallel for reduction(+ : x)
	for (int i = 0; i < 100000; i++)
		x += i;
	SG_END("solve");
	return x > 0 ? 0 : 1;
}
C
cat >"$T/src/solve.cpp" <<'CPP'
#include <scalegate.hpp>
int main() { SG_SCOPE("solve_cxx"); return 0; }
CPP
cat >"$T/src/solve.F90" <<'F90'
program solve
  use scalegate
  call sg_begin('solve_f', __FILE__, __LINE__)
  call sg_end('solve_f')
end program solve
F90
cat >"$T/src/solve_cali.c" <<'C'
#include <caliper/cali.h>
int main(void) { CALI_MARK_BEGIN("solve_cali"); CALI_MARK_END("solve_cali"); return 0; }
C
cat >"$T/src/solve_mpi.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
	double x = 1, y = 0;
	MPI_Init(&argc, &argv);
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return y > 0 ? 0 : 1;
}
C
cp "$SG_TOP/tests/link/pragma.c" "$T/src/pragma.c"
expect_exit 0 cmake -S "$T/src" -B "$T/build" -DCMAKE_PREFIX_PATH="$P" \
	-DCMAKE_EXE_LINKER_FLAGS="-Wl,--as-needed $SAN" \
	-DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_Fortran_FLAGS="$SAN"
expect_match "$out" 'scalegate 0\.1\.' "the package's version"
expect_exit 0 cmake --build "$T/build"

for prog in solve_c solve_cxx solve_f solve_cali; do
	SCALEGATE_OUT="$T/out-$prog" "$T/build/$prog" && pass || fail "$prog failed"
done
[[ $(ldd "$T/build/pragma") == *libgomp* ]] && pass ||
	fail "scalegate::scalegate under --as-needed dropped libgomp"
OMP_NUM_THREADS=2 SCALEGATE_OUT="$T/out-pragma" timeout 60 "$T/build/pragma" >/dev/null && pass ||
	fail "the pragma-only program"
analyzed "$T/out-pragma" "the pragma-only program's intervals" 'program/work '
analyzed "$T/out-solve_c" "the C program's intervals" 'program/solve '
analyzed "$T/out-solve_cxx" "the C++ program's intervals" 'program/solve_cxx '
analyzed "$T/out-solve_f" "the Fortran program's intervals" 'program/solve_f '
analyzed "$T/out-solve_cali" "the Caliper program's intervals" 'program/solve_cali '
ranks 2 "$T/out-mpi" "$T/build/solve_mpi" && pass || fail "solve_mpi failed"
expect_exit 0 "$P/bin/scalegate" profile --tsv "$T/out-mpi"/rank00001.*.sgprof
expect_match "$out" 'allreduce' \
	"the MPI calls of a program linked with scalegate::mpi under --as-needed"

# Version checks (0.x: the same minor, at least the patch asked for) and components.
version_case() {
	local want=$1 args=$2
	mkdir -p "$T/v"
	fmt='cmake_minimum_required(VERSION 3.16)\nproject(v '
	fmt+='NONE)\nfind_package(scalegate %s CONFIG REQUIRED)\n'
	printf "$fmt" "$args" >"$T/v/CMakeLists.txt"
	rm -rf "$T/vbuild"
	expect_exit "$want" cmake -S "$T/v" -B "$T/vbuild" -DCMAKE_PREFIX_PATH="$P"
}
version_case 0 '0.1 EXACT'
version_case 0 '0.1.0'
version_case 1 '0.1.1'
version_case 1 '0.2'
version_case 1 '0.0'
version_case 1 '1.0'
expect_match "$out" 'scalegate' "a version mismatch names the package"
version_case 1 'COMPONENTS nosuch'
