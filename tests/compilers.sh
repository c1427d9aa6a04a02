#!/usr/bin/env bash
# tests/compilers.sh — the same source gives the same output whichever C
# compiler built the library (issue 14, item 3).  Builds shadertrans with gcc
# and with clang-19 (both from Debian) in two copies of the tree and compares
# the Gen9 kernel (--emit=gen), the vector assembly (--emit=vasm) and the
# optimized LLVM IR (--emit=llvm) of every sample and every corpus shader
# byte for byte, those with a _pp modifier also under --pp=fp16 (the half
# float paths).  Any difference is a dependence on something C leaves
# unspecified (the order a call's arguments are evaluated in, qsort's
# order of equal elements, pointer values...).
#
#   bash tests/compilers.sh [CC1 CC2]      (default: gcc clang-19)
#
# Run from the repository root; prints one line per differing output and a
# summary; exits non-zero on any difference or build failure.  About four
# minutes on two cores (two builds of the library and CLI, ~3,600 runs).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cc1=${1:-gcc}
cc2=${2:-clang-19}
corpus=${ST_CORPUS_DIR:-$root/../shared/corpus}
for cc in "$cc1" "$cc2"; do
    if ! command -v "$cc" >/dev/null; then
        echo "compilers.sh: $cc not found (Debian: apt-get install $cc)" >&2
        exit 2
    fi
done
if [ ! -f "$corpus/manifest.tsv" ]; then
    echo "compilers.sh: the shared corpus is missing: $corpus/manifest.tsv" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# two copies of the tree as it is (tracked and untracked sources, no builds)
build() { # dir cc
    mkdir -p "$1"
    tar -C "$root" --exclude=./build --exclude=./build-asan --exclude=./.git \
        --exclude=./.sconsign.dblite -cf - . | tar -C "$1" -xf -
    (cd "$1" && CC="$2" scons -Q -j2 build/shadertrans >"$1.log" 2>&1) || {
        echo "compilers.sh: the build with $2 failed (log below)" >&2
        tail -20 "$1.log" >&2
        return 1
    }
}
build "$tmp/a" "$cc1" || exit 1
build "$tmp/b" "$cc2" || exit 1
bin1=$tmp/a/build/shadertrans
bin2=$tmp/b/build/shadertrans

files=$( (ls samples/*.asm samples/arb/*.vp samples/arb/*.fp
          tail -n +2 "$corpus/manifest.tsv" | cut -f1 | sed "s|^|$corpus/|") )
n=0
d=0
for f in $files; do
    # a shader with a _pp modifier (mad_pp, dcl_texcoord0_pp, texld_sat_pp)
    # also under --pp=fp16: the half-float lowering and kernels
    pps=""
    grep -Eq '^[[:space:]]*[a-z0-9_]+_pp([_ ]|$)' "$f" 2>/dev/null && pps="--pp=fp16"
    for pp in "" $pps; do
        for e in gen vasm llvm; do
            n=$((n + 1))
            # outputs and diagnostics, and the exit status
            o1=$("$bin1" --emit=$e $pp "$f" 2>&1; echo "exit $?")
            o2=$("$bin2" --emit=$e $pp "$f" 2>&1; echo "exit $?")
            if [ "$o1" != "$o2" ]; then
                d=$((d + 1))
                echo "DIFFERS: --emit=$e $pp ${f#$root/}"
            fi
        done
    done
done
echo "compilers: $n outputs compared ($cc1 vs $cc2), $d differ"
[ "$d" -eq 0 ]
