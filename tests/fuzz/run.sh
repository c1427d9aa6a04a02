#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz/ (README.md there):
#
#   bash tests/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#
# from the repository root, after `scons fuzz`.  TARGET is a program of
# build-fuzz/tests/fuzz/ (fuzz_jit, ...).  One process, no fork (persistent
# mode: state that leaks from one input into the next shows).  The corpus
# grows in build-fuzz/fuzz/corpus/TARGET (seeded from samples/, tests/bad/
# and the shared corpus by seeds.py), crashes are written to
# build-fuzz/fuzz/findings/TARGET/, each libFuzzer session's whole log to
# build-fuzz/fuzz/logs/TARGET-DATE.log.
#
# FUZZ_KEEP_GOING=1: after a finding, start libFuzzer again on the grown
# corpus until SECONDS are used up (a long run that reports every finding
# instead of stopping at the first).
#
# The last line printed is the summary: executions (libFuzzer's
# stat::number_of_executed_units, summed over the sessions), seconds,
# findings.  Exit status: 0 when the run found nothing, 1 otherwise.
set -u
target=$1
secs=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
corpus_dir=${ST_CORPUS_DIR:-$root/../shared/corpus}
bin=build-fuzz/tests/fuzz/$target
[ -x "$bin" ] || { echo "run.sh: $bin is missing: run 'scons fuzz' first" >&2; exit 2; }
base=build-fuzz/fuzz
mkdir -p "$base/corpus/$target" "$base/findings/$target" "$base/logs" "$base/seeds"
[ -d "$base/seeds/$target" ] || python3 tests/fuzz/seeds.py "$root" "$corpus_dir" "$base/seeds"
case $target in
    fuzz_parse_d3d9) dicts=(d3d9) ;;
    fuzz_parse_arb) dicts=(arb) ;;
    fuzz_gen|fuzz_vasm) dicts=(d3d9 arb) ;;
    fuzz_jit|fuzz_run) dicts=(d3d9 arb json) ;;
    fuzz_run_inputs) dicts=(json) ;;
    *) dicts=() ;;
esac
dict=
if [ ${#dicts[@]} -gt 0 ]; then
    dict=$base/$target.dict
    for d in "${dicts[@]}"; do cat "tests/fuzz/dict/$d.dict"; done > "$dict"
fi
before=$(ls "$base/findings/$target" | wc -l)
start=$(date +%s)
execs=0
sessions=0
status=0
while :; do
    left=$((secs - ($(date +%s) - start)))
    [ "$left" -gt 0 ] || break
    log=$base/logs/$target-$(date -u +%Y%m%dT%H%M%S).log
    sessions=$((sessions + 1))
    # detect_leaks=0: valgrind is the leak judge of the library (the test
    # suite); under libFuzzer LLVM's process-wide caches would be reported.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:symbolize=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        "$bin" -max_total_time="$left" -print_final_stats=1 -timeout=60 -rss_limit_mb=4096 \
        -artifact_prefix="$base/findings/$target/" ${dict:+-dict="$dict"} "$@" \
        "$base/corpus/$target" "$base/seeds/$target" > "$log" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=$((execs + ${n:-0}))
    echo "$target: session $sessions: exit $rc, ${n:-?} executions, log $log"
    [ "$rc" -eq 0 ] || status=1
    [ "$rc" -ne 0 ] && [ "${FUZZ_KEEP_GOING:-0}" = 1 ] || break
done
after=$(ls "$base/findings/$target" | wc -l)
[ "$after" -eq "$before" ] || status=1
echo "$target: $execs executions in $(($(date +%s) - start)) s ($sessions sessions), $((after - before)) findings in $base/findings/$target/"
exit $status
