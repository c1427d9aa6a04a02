#!/usr/bin/env bash
# Every sample (samples/*.asm, samples/arb/*), the relative-read shaders of
# tests/gen_const/ and every valid corpus shader (D3D9 and ARB), compiled by
# the Gen9 back end at SIMD8, SIMD16 and SIMD32, must be accepted by Intel's
# assembler: iga64 -p=9 -a (Debian package libigc-tools).  Kernels come from
# the CLI (shadertrans --emit=gen --simd=N).  Shaders the back end reports as
# not supported (a located ST3001) are counted and listed, not failed; any
# other error, or a kernel iga64 rejects, fails.  Corpus files marked valid
# only with another vendor's ARB extension, and the known-defective texts of
# tests/corpus-defects.tsv, are not compiled (the front end rejects them;
# tests/test_corpus.c checks that).
#   usage: tests/gen_iga.sh [build-variant]     (run from anywhere)
set -u
variant=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${ST_CORPUS_DIR:-$root/../shared/corpus}
tool=$root/$variant/shadertrans
if ! command -v iga64 >/dev/null 2>&1; then
    # .ci/install-deps installs it: a missing judge is a failure, not a pass.
    echo "gen-iga: iga64 not found (apt-get install libigc-tools)"
    exit 1
fi
[ -x "$tool" ] || { echo "gen-iga: $tool not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a private copy: a concurrent rebuild must not swap the binary under the loop
cp "$tool" "$tmp/shadertrans" || exit 1
tool=$tmp/shadertrans
files=("$root"/samples/*.asm "$root"/samples/arb/*.vp "$root"/samples/arb/*.fp
       "$root"/tests/gen_const/*.asm "$root"/tests/gen_const/*.vp)
if [ -f "$corpus/manifest.tsv" ]; then
    defects=$(cut -f1 "$root/tests/corpus-defects.tsv" | grep -v '^#' | grep -v '^path$')
    while IFS=$'\t' read -r path dialect stage expect source mojo notes; do
        [ "$expect" = valid ] || continue
        case "$notes" in *options=NV*|*,NV_*|*requires=GL_NV*) continue ;; esac
        grep -qxF "$path" <<<"$defects" && continue
        files+=("$corpus/$path")
    done < "$corpus/manifest.tsv"
fi
pass=0; fail=0; unsupported=0
for f in "${files[@]}"; do
    # a shader with _pp also with it computed in :hf (--pp=fp16)
    modes=ignore
    grep -q '_pp' "$f" && modes="ignore fp16"
    for pp in $modes; do
    for simd in 8 16 32; do
        "$tool" --emit=gen --pp="$pp" --simd="$simd" "$f" >"$tmp/k.asm" 2>"$tmp/err"
        rc=$?
        if [ $rc -ne 0 ]; then
            if [ $rc -eq 1 ] && grep -q '\[ST3001\]' "$tmp/err"; then
                unsupported=$((unsupported + 1))
                echo "not supported: $f --simd=$simd: $(grep -m1 'ST3001' "$tmp/err")"
            else
                fail=$((fail + 1)); echo "FAILED: $f --simd=$simd (exit $rc)"; head -3 "$tmp/err"
            fi
            continue
        fi
        if iga64 -p=9 -a "$tmp/k.asm" -o "$tmp/k.krn" >"$tmp/log" 2>&1 && [ -s "$tmp/k.krn" ] \
           && ! grep -qi 'error' "$tmp/log"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAILED: iga64 rejects $f --pp=$pp --simd=$simd"; head -5 "$tmp/log"
        fi
    done
    done
done
echo "gen-iga: $pass kernels assembled, $unsupported not supported (ST3001), $fail failed"
[ $fail -eq 0 ]
