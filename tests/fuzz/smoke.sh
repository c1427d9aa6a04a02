#!/usr/bin/env bash
# The short fuzz run of the test command (tests/run_tests.sh section 6;
# tests/fuzz/README.md).  For every target of build-fuzz/tests/fuzz/: every
# seed (samples/, tests/bad/, the shared corpus, tests/fuzz/regress/) once,
# then a fixed number of mutations from a fixed libFuzzer seed, so that the
# same tree runs the same inputs.  New inputs go to a scratch directory;
# the findings directory is build-fuzz/fuzz/smoke-findings/.  Then the
# cmocka tests built with clang's sanitizers (build-fuzz/tests/test_*).
#
# Prints "ok TARGET ..." or "not ok TARGET ..." per program.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
corpus_dir=${ST_CORPUS_DIR:-$root/../shared/corpus}
base=build-fuzz/fuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$base/smoke-seeds"
mkdir -p "$base/smoke-findings"
python3 tests/fuzz/seeds.py "$root" "$corpus_dir" "$base/smoke-seeds"
# mutations after the seeds: about 20 s each in the plain machine's fuzz
# build (the slow targets get fewer)
declare -A runs=([fuzz_parse_d3d9]=20000 [fuzz_parse_arb]=3000 [fuzz_gen]=3000
                 [fuzz_vasm]=2000 [fuzz_jit]=1000 [fuzz_run]=1000 [fuzz_run_inputs]=2000
                 [fuzz_diff]=100)
for bin in build-fuzz/tests/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    t=$(basename "$bin")
    seeds=$(ls "$base/smoke-seeds/$t" | wc -l)
    mkdir -p "$tmp/$t"
    # The seeds as a list in a fixed order (-seed_inputs), not a directory:
    # libFuzzer shuffles and sorts the seeds it reads, and a directory comes
    # in the file system's order, so the same tree would run other
    # mutations on another machine.
    ls "$base/smoke-seeds/$t" | LC_ALL=C sort | sed "s|^|$base/smoke-seeds/$t/|" |
        paste -sd, > "$tmp/$t.seeds"
    start=$(date +%s)
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$bin" -seed=1 -runs=$((seeds + ${runs[$t]:-1000})) -max_total_time=120 -timeout=30 \
        -rss_limit_mb=4096 -artifact_prefix="$base/smoke-findings/$t-" \
        -seed_inputs="@$tmp/$t.seeds" "$tmp/$t" > "$tmp/$t.log" 2>&1
    rc=$?
    n=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$tmp/$t.log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "ok $t: ${n:-?} inputs ($seeds seeds) in $(($(date +%s) - start)) s"
    else
        echo "not ok $t: exit $rc after ${n:-?} inputs; input in $base/smoke-findings/"
        grep -E 'FUZZ FINDING|ERROR|SUMMARY|runtime error' "$tmp/$t.log" | head -5 | sed 's/^/    /'
    fi
done
for t in build-fuzz/tests/test_*; do
    [ -x "$t" ] || continue
    if ASAN_OPTIONS=detect_leaks=0 "$t" > "$tmp/test.log" 2>&1; then
        echo "ok $(basename "$t")"
    else
        echo "not ok $(basename "$t")"
        tail -5 "$tmp/test.log" | sed 's/^/    /'
    fi
done
