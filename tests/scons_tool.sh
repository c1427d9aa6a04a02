#!/usr/bin/env bash
# The SCons tool for legacy toolchains (TAP-like: "ok N" / "not ok N"), as
# `scons test` installed it into build/test-install: a small project of
# its own loads it from share/shadertrans/site_scons/site_tools, builds
# kernels with one Builder, and rebuilds exactly what an edit of an
# included file (or of an include of an include) touches.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$root/build/test-install
tooldir=$prefix/share/shadertrans/site_scons/site_tools
bin=$prefix/bin/shadertrans
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
check() { # description, command...; the command must succeed
    local d=$1
    shift
    n=$((n + 1))
    if "$@" >"$tmp/check.out" 2>&1; then
        echo "ok $n - $d"
    else
        echo "not ok $n - $d"
        sed 's/^/    /' "$tmp/check.out" | head -20
    fi
}

p=$tmp/project
mkdir -p "$p/shaders/include"
cat > "$p/SConstruct" <<EOF
# A legacy toolchain's build: kernels next to their sources.
env = Environment(tools=['default', 'shadertrans'], toolpath=['$tooldir'])
env.Append(SHADERTRANSPATH=['shaders/include'])
env.ShaderKernel('shaders/water.ps.asm')
env.ShaderKernel('shaders/sky.vp')
env.ShaderKernel('shaders/lit.vs.asm', SHADERTRANSFLAGS=['--emit=vasm'], SHADERTRANSSUFFIX='.vasm')
env.ShaderKernel('shaders/plain.vs.asm')
EOF
cat > "$p/shaders/water.ps.asm" <<'EOF'
ps_2_0
#include "consts.inc"
dcl t0
mul r0, t0, c0
add r0, r0, c1
mov oC0, r0
EOF
# consts.inc (in SHADERTRANSPATH) includes tint.inc (beside it)
cat > "$p/shaders/include/consts.inc" <<'EOF'
def c0, 0.5, 0.5, 0.5, 1
#include "tint.inc"
EOF
echo 'def c1, 0.25, 0, 0, 0' > "$p/shaders/include/tint.inc"
printf '!!ARBvp1.0\n# include "nothing.inc" is an ARB comment\nMOV result.position, vertex.position;\nEND\n' > "$p/shaders/sky.vp"
printf 'vs_2_0\ndcl_position v0\nmul r0.xy, v0, c0\nadd r0.zw, v0, c1\nmov oPos, r0\n' > "$p/shaders/lit.vs.asm"
printf 'vs_1_1\nmov oPos, v0\n' > "$p/shaders/plain.vs.asm"

check "the tool is installed" test -f "$tooldir/shadertrans.py"
check "one scons run builds every kernel with the installed shadertrans" \
    bash -c "cd '$p' && scons -Q > '$tmp/first' 2>&1 && grep -q '^$bin ' '$tmp/first' && [ -f shaders/water.ps.gen ] && [ -f shaders/sky.gen ] && [ -f shaders/lit.vs.vasm ] && [ -f shaders/plain.vs.gen ]"
check "the kernels are what the command prints (includes expanded, -I from SHADERTRANSPATH)" \
    bash -c "cd '$p' && '$bin' -I shaders/include shaders/water.ps.asm | cmp - shaders/water.ps.gen && '$bin' shaders/sky.vp | cmp - shaders/sky.gen && '$bin' --emit=vasm shaders/lit.vs.asm | cmp - shaders/lit.vs.vasm && grep -q '^// water.ps.asm: SIMD.. shader: ' shaders/water.ps.gen"
check "the include constants reached the kernel (0.5 and 0.25 as immediates)" \
    bash -c "cd '$p' && grep -q '0.5:f' shaders/water.ps.gen && grep -q '0.25:f' shaders/water.ps.gen"
check "the scanner lists both includes as dependencies of water.ps.gen, none of the ARB program" \
    bash -c "cd '$p' && scons -Q --tree=prune shaders/water.ps.gen shaders/sky.gen > '$tmp/tree' 2>&1; grep -q 'consts.inc' '$tmp/tree' && grep -q 'tint.inc' '$tmp/tree' && ! grep -q 'nothing.inc' '$tmp/tree'"
check "nothing changed: nothing is rebuilt" \
    bash -c "cd '$p' && scons -Q > '$tmp/again' 2>&1 && ! grep -q shadertrans '$tmp/again'"
echo 'def c1, 0.75, 0, 0, 0' > "$p/shaders/include/tint.inc"
check "an include of an include changed: exactly its kernel is rebuilt, with the new value" \
    bash -c "cd '$p' && scons -Q > '$tmp/third' 2>&1 && [ \$(grep -c '^$bin' '$tmp/third') -eq 1 ] && grep -q 'water.ps.gen' '$tmp/third' && grep -q '0.75:f' shaders/water.ps.gen"
printf 'vs_1_1\nmov oPos, v0\nfoo r0\n' > "$p/shaders/plain.vs.asm"
check "a shader with errors fails the build with its diagnostic and leaves no kernel" \
    bash -c "cd '$p' && ! scons -Q > '$tmp/fourth' 2>&1 && grep -q 'plain.vs.asm:3:1: error: .*\\[ST1006\\]' '$tmp/fourth' && [ ! -e shaders/plain.vs.gen ]"
