#!/usr/bin/env bash
# The library as an embedder gets it (TAP-like: "ok N" / "not ok N").
#
# `scons test` installs the plain build twice before this runs:
#   build/test-install            PREFIX=<that directory>
#   build/test-destdir/opt/shadertrans   PREFIX=/opt/shadertrans DESTDIR=build/test-destdir
# For each, tests/embed/embedder.c is compiled through pkg-config against the
# shared library and against the static one and must print what the
# installed CLI prints; the exported symbols must be exactly the functions
# translator/shadertrans.h declares.  Then the build must honour CC,
# CFLAGS, CPPFLAGS and LDFLAGS (a dry run in a copy of the tree).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
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

# The API: every function shadertrans.h declares, and the version script.
sed -n 's/^[a-z].*[ *]\(st_[a-z_]*\)(.*/\1/p' translator/shadertrans.h | sort -u > "$tmp/api"
sed -n 's/^ *\(st_[a-z_]*\);/\1/p' translator/shadertrans.map | sort -u > "$tmp/map"
check "the version script lists exactly the functions shadertrans.h declares" \
    bash -c "[ \$(wc -l < '$tmp/api') -ge 6 ] && diff '$tmp/api' '$tmp/map'"

sample=samples/05-light-loop.vs.asm
inputs=samples/05-light-loop.vs.in.json

for kind in prefix destdir; do
    if [ $kind = prefix ]; then
        prefix=$root/build/test-install
        sysroot=
        top=$prefix
    else
        prefix=/opt/shadertrans
        sysroot=$root/build/test-destdir
        top=$sysroot$prefix
    fi
    lib=$top/lib
    export PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$sysroot
    check "$kind: pkg-config knows shadertrans $(pkg-config --modversion shadertrans 2>/dev/null)" \
        pkg-config --exists shadertrans
    check "$kind: the .pc names the prefix, not the staging directory" \
        grep -qx "prefix=$prefix" "$lib/pkgconfig/shadertrans.pc"
    check "$kind: Libs.private carries what a static link needs (LLVM, libm; jansson via Requires.private)" \
        bash -c "grep -q '^Libs.private: .*-lLLVM' '$lib/pkgconfig/shadertrans.pc' && grep -q '^Requires.private: jansson' '$lib/pkgconfig/shadertrans.pc'"
    check "$kind: libshadertrans.so.1 with SONAME libshadertrans.so.1, and the development link" \
        bash -c "readelf -d '$lib/libshadertrans.so.1' | grep -q 'SONAME.*\\[libshadertrans.so.1\\]' && [ \"\$(readlink '$lib/libshadertrans.so')\" = libshadertrans.so.1.0.0 ] && [ \"\$(readlink '$lib/libshadertrans.so.1')\" = libshadertrans.so.1.0.0 ]"
    check "$kind: nm -D shows only the API" \
        bash -c "nm -D --defined-only '$lib/libshadertrans.so.1' | awk '{print \$NF}' | sort > '$tmp/dyn'; diff '$tmp/api' '$tmp/dyn'"
    check "$kind: the static library's global symbols are only the API" \
        bash -c "nm -g --defined-only '$lib/libshadertrans.a' | awk 'NF == 3 {print \$3}' | sort > '$tmp/sta'; diff '$tmp/api' '$tmp/sta'"
    check "$kind: header, CLI, man page shadertrans(1) and the SCons tool are installed" \
        bash -c "[ -f '$top/include/shadertrans.h' ] && '$top/bin/shadertrans' --version | grep -q '^shadertrans ' && grep -q '^\\.TH SHADERTRANS 1' '$top/share/man/man1/shadertrans.1' && [ -f '$top/share/shadertrans/site_scons/site_tools/shadertrans.py' ]"

    check "$kind: shadertrans(1) describes every option --help lists (single, run, batch, compare)" \
        bash -c "{ '$top/bin/shadertrans' --help; '$top/bin/shadertrans' batch --help; '$top/bin/shadertrans' compare --help; } | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[ ,]//' | sort -u > '$tmp/opts' && [ \$(wc -l < '$tmp/opts') -gt 25 ] && sed 's/\\\\//g' '$top/share/man/man1/shadertrans.1' > '$tmp/man' && while read -r o; do grep -q -- \"\$o\" '$tmp/man' || { echo \"missing: \$o\"; exit 1; }; done < '$tmp/opts'"
    # What the installed CLI says about the sample is what the embedder must print.
    { "$top/bin/shadertrans" "$sample" && "$top/bin/shadertrans" run "$sample" --inputs "$inputs" &&
        "$top/bin/shadertrans" --version | head -1; } > "$tmp/want" 2>/dev/null
    cflags=$(pkg-config --cflags shadertrans)
    libs=$(pkg-config --libs shadertrans)
    # Linking the static library while the shared one is installed beside
    # it: -l:libshadertrans.a names the archive (docs/embedding.md).
    slibs=$(pkg-config --static --libs shadertrans | sed 's/-lshadertrans\b/-l:libshadertrans.a/')
    check "$kind: an embedder builds against the shared library through pkg-config" \
        $cc -std=c11 -Wall -Werror tests/embed/embedder.c $cflags $libs -o "$tmp/emb-shared"
    check "$kind: ... it needs libshadertrans.so.1 and prints what the CLI prints" \
        bash -c "readelf -d '$tmp/emb-shared' | grep -q 'NEEDED.*\\[libshadertrans.so.1\\]' && LD_LIBRARY_PATH='$lib' '$tmp/emb-shared' '$sample' '$inputs' > '$tmp/got-shared' && cmp '$tmp/want' '$tmp/got-shared'"
    check "$kind: an embedder builds against the static library through pkg-config --static" \
        $cc -std=c11 -Wall -Werror tests/embed/embedder.c $cflags $slibs -o "$tmp/emb-static"
    check "$kind: ... it needs no libshadertrans.so and prints what the CLI prints" \
        bash -c "! readelf -d '$tmp/emb-static' | grep -q 'NEEDED.*libshadertrans' && '$tmp/emb-static' '$sample' '$inputs' > '$tmp/got-static' && cmp '$tmp/want' '$tmp/got-static'"
done
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# CC, CFLAGS, CPPFLAGS and LDFLAGS reach every compile and link: a dry run
# (nothing is compiled) in a copy of the sources, given on the command line
# and through the environment.
mkdir "$tmp/tree"
tar -C "$root" --exclude='./build*' --exclude=./.git --exclude=.sconsign.dblite -cf - . |
    tar -C "$tmp/tree" -xf -
for how in args env; do
    if [ $how = args ]; then
        (cd "$tmp/tree" && scons -n -Q CC=probe-cc CFLAGS='-DPROBE_CFLAGS -O1' \
            CPPFLAGS=-DPROBE_CPPFLAGS LDFLAGS=-Wl,--probe-ldflags build > "$tmp/dry-$how" 2>&1)
    else
        (cd "$tmp/tree" && CC=probe-cc CFLAGS='-DPROBE_CFLAGS -O1' CPPFLAGS=-DPROBE_CPPFLAGS \
            LDFLAGS=-Wl,--probe-ldflags scons -n -Q build > "$tmp/dry-$how" 2>&1)
    fi
    check "$how: CC, CFLAGS, CPPFLAGS on every compile, CFLAGS after ours" \
        bash -c "c=\$(grep -c ' -c ' '$tmp/dry-$how'); [ \$c -gt 40 ] && [ \$(grep ' -c ' '$tmp/dry-$how' | grep '^probe-cc ' | grep -- '-DPROBE_CPPFLAGS' | grep -c -- '-O2.*-DPROBE_CFLAGS -O1') -eq \$c ]"
    check "$how: LDFLAGS on every link (programs and the shared library)" \
        bash -c "l=\$(grep -E '^probe-cc -o [^ ]*(shadertrans|tests/test_[a-z_]*|\\.so[.0-9]*) ' '$tmp/dry-$how' | grep -v ' -c '); [ \$(echo \"\$l\" | wc -l) -gt 10 ] && ! echo \"\$l\" | grep -v -q -- '-Wl,--probe-ldflags'"
done
