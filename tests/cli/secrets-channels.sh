# Secrets by default-deny: a benchmark that searches every channel it has (its environment, the
# environment blocks of its parent and every ancestor in /proc, a leaked file) finds no CI
# credential: GITHUB_TOKEN, CI_JOB_TOKEN, ACTIONS_*TOKEN*, *_TOKEN, *_SECRET, *_PASSWORD, *_KEY are
# kept from the runs and builds unless 'pass_env' lists them, and the gate overwrote its own copy.
# What it writes into a file under $SCALEGATE_OUT and into an interval name is masked before results
# and reports. Controls: a variable 'pass_env' lists and a plain one are found through the same
# channels, so the search works.
. "$(dirname "$0")/lib.bash"

s=sgsecret$RANDOM$$
cat >"$T/spy.c" <<'C'
#include <string.h>
#include "scalegate.h"
/* an interval named after argv[1] */
int main(int argc, char **argv)
{
	const char *name = argc > 1 && *argv[1] ? argv[1] : "nothing";
	sg_region_t r = sg_region_named(name, strlen(name), __FILE__, __LINE__);
	sg_begin(r);
	sg_end(r);
	return 0;
}
C
cc ${SG_SAN_FLAGS:-} -I"$SG_TOP/tracer" "$T/spy.c" -L"$SG_BUILD/lib" -Wl,-rpath,"$SG_BUILD/lib" \
	-lscalegate -o "$T/spy" && pass ||
	fail "cannot build the spy program"
echo "S=$s" >"$T/spy.sh"
cat >>"$T/spy.sh" <<'SH'
# every value of the form $S-<what>-v that this process can reach
search() { grep -aoE "$S-[a-z_]+-v" | sort -u | tr '\n' ' '; }
echo "env: $(env | search)"
pid=$$
while [ "$pid" -gt 1 ]; do
	echo "proc $pid $(tr -d '\n' </proc/$pid/comm):" \
		"$(tr '\0' '\n' </proc/$pid/environ 2>/dev/null | search)"
	pid=$(awk '/^PPid:/ { print $2 }' /proc/$pid/status)
done
[ "${1:-}" = build ] && exit 0
leak=$(cat "$LEAK_FILE")
echo "file: $leak"
echo "$leak" >"$SCALEGATE_OUT/found.txt"
exec "$SPY" "$leak"
SH
printf '%s-leaked_token-v\n' "$s" >"$T/leak.file"
cat >"$T/scalegate.yml" <<YML
secret_env: [SG_LEAKED]
pass_env: [MY_PASSED_TOKEN]
post:
  url: http://127.0.0.1:9/hook
  token_env: SG_POST_TOKEN
defaults:
  warmup: 0
  repeat: 1
  workdir: $T
  env: {S: $s, LEAK_FILE: $T/leak.file, SPY: $T/spy}
benchmarks:
  - name: spy
    build: sh spy.sh build >build.out
    command: sh $T/spy.sh
    threads: [1]
YML

# 'exec' as the templates do: no shell above the gate keeps a copy.
code=0
env GITHUB_TOKEN=$s-github_token-v CI_JOB_TOKEN=$s-ci_job_token-v \
	ACTIONS_RUNTIME_TOKEN=$s-actions_runtime_token-v \
	DEPLOY_SECRET=$s-deploy_secret-v DB_PASSWORD=$s-db_password-v \
	AWS_SECRET_ACCESS_KEY=$s-aws_key-v \
	SG_POST_TOKEN=$s-post_token-v SG_LEAKED=$s-leaked_token-v \
	MY_PASSED_TOKEN=$s-passed_token-v PLAIN_VALUE=$s-plain_value-v \
	"$SCALEGATE" ci -c "$T/scalegate.yml" -o "$T/reports" --allow-no-reference --no-post \
	>"$T/console.out" 2>"$T/console.err" || code=$?
[ "$code" -eq 0 ] && pass || { cat "$T/console.out" "$T/console.err" >&2; fail \
	"ci exited $code, expected 0"; }

seen=$(cat "$T/results/spy/s--r1-t1/1/stdout.txt")
printf '%s\n' "$seen"
# The controls: the search finds what it may see, in the environment and in the gate's block.
expect_match "$seen" "^env: .*$s-passed_token-v" "pass_env: the benchmark sees what it lists"
expect_match "$seen" "^env: .*$s-plain_value-v" "a plain variable is seen"
expect_match "$seen" "^proc [0-9]+ scalegate: .*$s-plain_value-v" \
	"the search reads the gate's environment block"
# No credential, through any channel; the leaked file's value is masked in the run's own output.
for what in github_token ci_job_token actions_runtime_token deploy_secret db_password aws_key \
	post_token; do
	expect_no_match "$seen" "$s-$what-v" "$what reaches the benchmark"
done
# (a value that reached it would show masked in its output: no mask either)
expect_no_match "$seen" '^(env|proc) .*\*\*\*' \
	"a credential reaches the benchmark (masked in its output)"
expect_match "$seen" '^file: \*\*\*$' "what leaked through a file is masked in stdout.txt"
build=$(cat "$T/build.out")
expect_no_match "$build" "$s-(github_token|ci_job_token|post_token|db_password)-v" \
	"the build sees a credential"
expect_match "$build" "^env: .*$s-passed_token-v" "the build sees pass_env"
# The file under SCALEGATE_OUT and the interval named after the leaked value: masked, the profile
# still sound.
[ "$(cat "$T/results/spy/s--r1-t1/1/found.txt")" = '***' ] && pass || fail "found.txt is not masked"
grep -q $'\tok\t' "$T/results/manifest.tsv" && pass ||
	fail "the masked profile was refused: $(cat "$T/results/manifest.tsv")"
grep -q 'program/\*\*\*' "$T/reports/summary.md" "$T/reports/summary.json" "$T/reports/junit.xml" ||
	grep -rq 'program/\*\*\*' "$T/reports" && pass ||
		fail "the interval named after the secret is not in the reports, masked"
for what in github_token ci_job_token leaked_token post_token db_password; do
	if grep -rlaF -- "$s-$what-v" "$T/results" "$T/reports" "$T/console.out" "$T/console.err"; \
		then
		fail "$what is in the files above"
	fi
done

# A pass_env entry that is not a variable name is refused with its position.
printf 'pass_env: [GOOD, "no way"]\nbenchmarks:\n  - name: a\n    command: "true"\n' >"$T/bad.yml"
expect_exit 2 "$SCALEGATE" run -c "$T/bad.yml" --dry-run
expect_match "$out" "bad.yml:1:18: .pass_env. names must be environment variable names" \
	"bad pass_env"
