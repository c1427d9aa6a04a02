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
# build-fuzz/fuzz/findings/TARGET/, the whole log to
# build-fuzz/fuzz/logs/TARGET-DATE.log.  The last lines printed are
# libFuzzer's final statistics (executions, time) and the findings count.
# Exit status: 0 when the run found nothing, 1 otherwise.
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
log=$base/logs/$target-$(date -u +%Y%m%dT%H%M%S).log
before=$(ls "$base/findings/$target" | wc -l)
# detect_leaks: valgrind is the leak judge of the library (the test suite);
# under libFuzzer LLVM's own process-wide caches would be reported.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:symbolize=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=60 -rss_limit_mb=4096 \
    -artifact_prefix="$base/findings/$target/" ${dict:+-dict="$dict"} "$@" \
    "$base/corpus/$target" "$base/seeds/$target" > "$log" 2>&1
rc=$?
after=$(ls "$base/findings/$target" | wc -l)
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done ' "$log"
echo "$target: $secs s, exit $rc, $((after - before)) new findings in $base/findings/$target/, log $log"
[ $rc -eq 0 ] && [ "$after" -eq "$before" ]
