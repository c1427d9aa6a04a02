#!/usr/bin/env bash
# Runs every test suite against one build variant (build/ or build-asan/):
#   1. every cmocka program build*/tests/test_*   (unit tests, corpus, samples)
#   2. tests/bad/*.asm: the CLI must print exactly the diagnostics each file's
#      "; expect:" lines state, exit 1, and write no output file (with the
#      options of its "; args:" line, if any); the same for the bytecode
#      blobs tests/bad/*.hex and the preprocessor cases tests/preproc/*/
#   3. tests/gen_iga.sh: every Gen9 kernel accepted by iga64
#   4. tests/cli.sh: usage errors, --help, --version, -o behaviour, batch
#   5. tests/embed.sh, tests/scons_tool.sh: the installed library, pkg-config,
#      exported symbols, build flags; the SCons tool
#   6. tests/check_layering.py: stage doors and call circles;
#      tests/check_function_length.py: no library function over 200 lines
#   7. with a second argument "fuzz" (scons test, when clang is installed):
#      tests/fuzz/smoke.sh, a fixed short run of every libFuzzer target of
#      build-fuzz/ and the cmocka tests built with clang's sanitizers
# Prints one "N passed, N failed" line per suite and a total; exits non-zero
# on any failure.  Run from the repository root (scons test does).
set -u
variant=${1:-build}
fuzz=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export ST_CORPUS_DIR=${ST_CORPUS_DIR:-$root/../shared/corpus}
export ST_ROOT=$root
bin=$root/$variant/shadertrans
if [ ! -f "$ST_CORPUS_DIR/manifest.tsv" ]; then
    echo "run_tests.sh: the shared corpus is missing: $ST_CORPUS_DIR/manifest.tsv" >&2
    echo "(clone next to shared/, or set ST_CORPUS_DIR)" >&2
    exit 1
fi
total_pass=0
total_fail=0
failed_suites=()

count() { # suite passed failed
    echo "$1: $2 passed, $3 failed"
    total_pass=$((total_pass + $2))
    total_fail=$((total_fail + $3))
    [ "$3" -eq 0 ] || failed_suites+=("$1")
}

# 1. cmocka programs
p=0; f=0
for t in "$variant"/tests/test_*; do
    [ -x "$t" ] || continue
    echo "== $(basename "$t")"
    if "$t"; then p=$((p + 1)); else f=$((f + 1)); echo "FAILED: $t"; fi
done
count "unit-programs" $p $f

# 2. bad inputs
p=0; f=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for bad in tests/bad/*.asm tests/bad/*.vp tests/bad/*.fp; do
    [ -f "$bad" ] || continue
    want=$(sed -n 's/^[;#] *expect: //p' "$bad" | sed "s|^|$bad:|")
    # "; args: ..." adds options (the limits); "; args: run ..." runs the
    # shader instead of compiling it
    read -r -a args <<< "$(sed -n 's/^[;#] *args: //p' "$bad")"
    [ "${args[0]:-}" = run ] || args=(--emit=asm "${args[@]}")
    out=$tmp/out.txt
    rm -f "$out"
    "$bin" "${args[@]}" -o "$out" "$bad" 2>"$tmp/err" >/dev/null
    rc=$?
    got=$(grep -E "^$bad(:[0-9]+:[0-9]+)?: (error|warning)" "$tmp/err")
    if [ $rc -eq 1 ] && [ "$got" = "$want" ] && [ ! -e "$out" ]; then
        p=$((p + 1))
    else
        f=$((f + 1))
        echo "FAILED: $bad (exit $rc)"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
    fi
done
count "bad-inputs" $p $f

# 2b. bad bytecode: tests/bad/*.hex are blobs written as hex (8 digits: a
#     little-endian dword, 2 digits: a byte) with "# expect: 0xOFFSET: ..."
#     lines; the same rules as section 2
p=0; f=0
for hex in tests/bad/*.hex; do
    [ -f "$hex" ] || continue
    vso=$tmp/$(basename "$hex" .hex).vso
    grep -v '^#' "$hex" | python3 -c '
import sys
out = bytearray()
for t in sys.stdin.read().split():
    out += int(t, 16).to_bytes(len(t) // 2, "little")
sys.stdout.buffer.write(out)' > "$vso"
    want=$(sed -n 's/^# *expect: //p' "$hex" | sed "s|^|$vso:|")
    out=$tmp/out.txt
    rm -f "$out"
    "$bin" -x d3d9-bytecode --emit=asm -o "$out" "$vso" 2>"$tmp/err" >/dev/null
    rc=$?
    got=$(grep -E "^$vso:0x[0-9a-f]+: (error|warning)" "$tmp/err")
    if [ $rc -eq 1 ] && [ "$got" = "$want" ] && [ ! -e "$out" ]; then
        p=$((p + 1))
    else
        f=$((f + 1))
        echo "FAILED: $hex (exit $rc)"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
    fi
done
count "bad-bytecode" $p $f

# 2c. the preprocessor on files: tests/preproc/CASE/main.asm, compiled from
#     its directory with the arguments in CASE/args (-I, -D); expect.asm is
#     the output and expect.diag every error, warning and note line (none
#     when absent); exit status 1 exactly when expect.diag has an error
p=0; f=0
for case in tests/preproc/*/; do
    [ -f "$case/main.asm" ] || continue
    (cd "$case" && "$bin" --emit=asm $(cat args 2>/dev/null) main.asm >"$tmp/pp.out" 2>"$tmp/pp.err")
    rc=$?
    want_rc=0
    if [ -f "$case/expect.diag" ] && grep -q ': error: ' "$case/expect.diag"; then want_rc=1; fi
    got=$(grep -E ': (error|warning|note): ' "$tmp/pp.err")
    want=$(cat "$case/expect.diag" 2>/dev/null)
    ok=1
    [ "$rc" -eq "$want_rc" ] && [ "$got" = "$want" ] || ok=0
    if [ -f "$case/expect.asm" ] && ! cmp -s "$case/expect.asm" "$tmp/pp.out"; then ok=0; fi
    if [ $ok -eq 1 ]; then
        p=$((p + 1))
    else
        f=$((f + 1))
        echo "FAILED: $case (exit $rc)"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
        [ -f "$case/expect.asm" ] && diff "$case/expect.asm" "$tmp/pp.out" | sed 's/^/    /'
    fi
done
count "preprocessor-files" $p $f

# 3. Gen9 kernels of every sample and valid corpus shader at SIMD8/16/32,
#    judged by Intel's assembler
#    (plain build only: the assembler's verdict does not depend on how
#    shadertrans was compiled; the back end runs under ASan in test_gen and
#    test_diff_gen)
if [ "$variant" = build ]; then
    out=$(bash tests/gen_iga.sh "$variant" 2>&1)
    rc=$?
    echo "$out" | tail -n 20
    if [ $rc -eq 0 ]; then count "gen-iga" 1 0; else count "gen-iga" 0 1; fi
fi

# 4. CLI behaviour
if [ -f tests/cli.sh ]; then
    out=$(bash tests/cli.sh "$bin" 2>&1)
    echo "$out" | grep -v '^ok ' || true
    p=$(echo "$out" | grep -c '^ok ')
    f=$(echo "$out" | grep -c '^not ok ')
    count "cli" "$p" "$f"
fi

# 5. The library as an embedder gets it: the installs `scons test` made,
#    pkg-config, the exported symbols, CC/CFLAGS/LDFLAGS; the SCons tool
#    (plain build only: they install and link the plain build)
if [ "$variant" = build ]; then
    for suite in embed scons_tool; do
        out=$(bash "tests/$suite.sh" 2>&1)
        echo "$out" | grep -v '^ok ' || true
        p=$(echo "$out" | grep -c '^ok ')
        f=$(echo "$out" | grep -c '^not ok ')
        [ "$p" -gt 0 ] || f=$((f + 1)) # a suite that could not start fails
        count "$suite" "$p" "$f"
    done
fi

# 6. Doors and rooms: no private cross-stage include, no call circle
#    between files of two stages (read from the objects' symbol tables)
if python3 tests/check_layering.py "$root" "$root/$variant"; then
    count "layering" 1 0
else
    count "layering" 0 1
fi
# No library function over 200 lines: the tree, then the check's own test on
# a made-up tree whose answer is known
p=0
f=0
for args in "$root" --self-test; do
    if python3 tests/check_function_length.py "$args"; then p=$((p + 1)); else f=$((f + 1)); fi
done
count "function-length" "$p" "$f"

# 7. Fuzz smoke run (tests/fuzz/README.md)
if [ "$fuzz" = fuzz ]; then
    out=$(bash tests/fuzz/smoke.sh 2>&1)
    echo "$out"
    p=$(echo "$out" | grep -c '^ok ')
    f=$(echo "$out" | grep -c '^not ok ')
    count "fuzz-smoke" "$p" "$f"
fi

echo "total: $total_pass passed, $total_fail failed"
if [ "$total_fail" -ne 0 ]; then
    echo "failed suites: ${failed_suites[*]}"
    exit 1
fi
