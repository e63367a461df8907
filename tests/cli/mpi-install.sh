# make install PREFIX=… installs libscalegate-mpi and scalegate-mpi.pc; an MPI program built with
# them is captured.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi.bash"

make -s -C "$SG_TOP" --no-print-directory install PREFIX="$T/p" >/dev/null
for f in include/scalegate.h lib/libscalegate-mpi.a lib/libscalegate-mpi.so \
	lib/pkgconfig/scalegate-mpi.pc; do
	[ -e "$T/p/$f" ] && pass || fail "make install did not install $f"
done

cat >"$T/prog.c" <<'C'
#include <mpi.h>
#include <scalegate.h>
int main(int argc, char **argv)
{
	double x = 1, y = 0;
	MPI_Init(&argc, &argv);
	SG_BEGIN("sum");
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	SG_END("sum");
	MPI_Finalize();
	return y > 0 ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH="$T/p/lib/pkgconfig" pkg-config --cflags --libs scalegate-mpi)
mpicc ${SG_SAN_FLAGS:-} "$T/prog.c" $flags -o "$T/prog"
[[ $(ldd "$T/prog") == *"$T/p/lib/libscalegate-mpi.so"* ]] && pass ||
	fail "the program does not use the installed library"
ranks 2 "$T/out" "$T/prog"
expect_profiles "$T/out" 2
for r in 0 1; do
	p=$(rank_profile "$T/out" $r)
	expect_eq "rank $r: the user's interval" "$(stat_value "$p" program/sum count)" 1
	expect_eq "rank $r: its allreduce" "$(mpi_value "$p" program/sum allreduce count)" 1
done
