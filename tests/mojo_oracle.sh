#!/bin/sh
# On demand: MojoShader (Debian libmojoshader-dev) judges the Direct3D 9
# bytecode writer on every valid corpus shader and sample (see
# tests/tools/mojo_oracle.c).  Run from the repository root after `scons`.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -f /usr/include/mojoshader/mojoshader.h ] || {
    echo "mojo_oracle.sh: install libmojoshader-dev first" >&2
    exit 2
}
llvm=$(command -v llvm-config-19 || command -v llvm-config)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -std=c11 -O1 -D_POSIX_C_SOURCE=200809L -I. -Itranslator -o "$out/mojo_oracle" \
    tests/tools/mojo_oracle.c build/libshadertrans.a -lmojoshader \
    $("$llvm" --ldflags) $("$llvm" --libs) -ljansson -lm -Wl,-rpath,"$("$llvm" --libdir)"
"$out/mojo_oracle" "${ST_CORPUS_DIR:-../shared/corpus}" samples/*.asm
