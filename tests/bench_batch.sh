#!/usr/bin/env bash
# On demand (not part of `scons test`): the whole shared corpus compiled to
# Gen kernels once by one process per file and once by `shadertrans batch
# -j2`, side by side in one run; prints both times and their ratio, wall
# clock and CPU (user + system, which the load of other processes changes
# less).  The same work both ways: every file of the manifest, the default
# output.
#
#   bash tests/bench_batch.sh [BUILD_DIR] [JOBS]     (default: build 2)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/${1:-build}/shadertrans
jobs=${2:-2}
corpus=${ST_CORPUS_DIR:-$root/../shared/corpus}
manifest=$corpus/manifest.tsv
[ -x "$bin" ] && [ -f "$manifest" ] || { echo "usage: $0 [BUILD_DIR] [JOBS] (needs $bin and $manifest)" >&2; exit 2; }
files=$(tail -n +2 "$manifest" | cut -f1 | sed "s|^|$corpus/|")
n=$(echo "$files" | wc -l)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# CPU seconds of this shell's finished children so far: bash's `times`, run
# in this shell (a subshell would count its own children), second line
cpu() { times > "$tmp/times"; tail -1 "$tmp/times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' > "$tmp/$1"; }
now() { date +%s.%N; }

cpu c0; t0=$(now)
for f in $files; do "$bin" "$f" >/dev/null 2>&1; done
t1=$(now); cpu c1
"$bin" batch -j"$jobs" --report "$tmp/report" "$manifest" 2>"$tmp/summary"
t2=$(now); cpu c2
c0=$(cat "$tmp/c0"); c1=$(cat "$tmp/c1"); c2=$(cat "$tmp/c2")
summary=$(head -1 "$tmp/summary")

awk -v n="$n" -v j="$jobs" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v c0="$c0" -v c1="$c1" -v c2="$c2" 'BEGIN {
    pw = t1 - t0; bw = t2 - t1; pc = c1 - c0; bc = c2 - c1;
    printf "one process per file: %d files, %.2f s wall, %.2f s CPU\n", n, pw, pc;
    printf "batch -j%d:             %d files, %.2f s wall, %.2f s CPU\n", j, n, bw, bc;
    printf "ratio: %.1fx wall, %.1fx CPU\n", pw / bw, pc / bc;
}'
echo "($summary)"
# the report names every row of the manifest, in its order (a line per
# kernel kept, so a pixel shader may have two in a row; the manifest lists
# two files twice: both sides are compared with repeats in a row dropped)
listed=$(grep -v '^#' "$tmp/report" | sed 's/ - .*//' | uniq)
if [ "$listed" = "$(echo "$files" | uniq)" ]; then
    echo "the report lists all $n rows of the manifest, in its order"
else
    echo "the report does not list every file of the manifest" >&2
    exit 1
fi
