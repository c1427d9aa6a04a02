#!/usr/bin/env bash
# CLI behaviour tests (TAP-like: "ok N" / "not ok N").  $1: the shadertrans binary.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: some checks cd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
check() { # description, command...; the command must succeed
    local d=$1
    shift
    n=$((n + 1))
    if "$@" >/dev/null 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; fi
}

printf 'vs_1_1\nmov oPos, v0\n' > "$tmp/good.vs.asm"
printf 'vs_1_1\nmov oPos, v0\nfoo r0, r1\n' > "$tmp/bad.vs.asm"

check "--help exits 0 and prints usage" bash -c "'$bin' --help | grep -q '^usage: shadertrans'"
check "--version names our version and LLVM" bash -c "'$bin' --version | grep -q '^shadertrans ' && '$bin' --version | grep -q '^LLVM [0-9]'"
check "no input is a usage error (exit 2)" bash -c "'$bin'; [ \$? -eq 2 ]"
check "unknown option is a usage error (exit 2)" bash -c "'$bin' --frobnicate '$tmp/good.vs.asm'; [ \$? -eq 2 ]"
check "missing file is exit 2 with a message" bash -c "'$bin' '$tmp/nope.asm' 2>&1 | grep -q 'cannot read'; '$bin' '$tmp/nope.asm' 2>/dev/null; [ \$? -eq 2 ]"
check "good input: exit 0, canonical text on stdout" bash -c "'$bin' --emit=asm '$tmp/good.vs.asm' | grep -qx 'mov oPos, v0'"
check "stdin input with -" bash -c "'$bin' --emit=asm - < '$tmp/good.vs.asm' | grep -qx 'vs_1_1'"
check "bad input: exit 1" bash -c "'$bin' '$tmp/bad.vs.asm' 2>/dev/null; [ \$? -eq 1 ]"
check "bad input: file:line:col: error: message [code]" bash -c "'$bin' '$tmp/bad.vs.asm' 2>&1 | grep -Eq '^$tmp/bad.vs.asm:3:1: error: .* \\[ST[0-9]{4}\\]\$'"
check "bad input: source line and caret follow" bash -c "'$bin' '$tmp/bad.vs.asm' 2>&1 | grep -qx '  foo r0, r1' && '$bin' '$tmp/bad.vs.asm' 2>&1 | grep -qx '  ^'"
check "bad input: nothing on stdout" bash -c "[ -z \"\$('$bin' '$tmp/bad.vs.asm' 2>/dev/null)\" ]"
check "bad input with -o: no output file written" bash -c "'$bin' -o '$tmp/out.txt' '$tmp/bad.vs.asm' 2>/dev/null; [ ! -e '$tmp/out.txt' ]"
check "bad input with -o keeps an existing file untouched" bash -c "echo keep > '$tmp/keep.txt'; '$bin' -o '$tmp/keep.txt' '$tmp/bad.vs.asm' 2>/dev/null; [ \"\$(cat '$tmp/keep.txt')\" = keep ]"
check "good input with -o writes the file, nothing on stdout" bash -c "[ -z \"\$('$bin' --emit=asm -o '$tmp/o.asm' '$tmp/good.vs.asm')\" ] && grep -qx 'mov oPos, v0' '$tmp/o.asm'"
check "unwritable -o is exit 2" bash -c "'$bin' -o '$tmp/no/such/dir/x' '$tmp/good.vs.asm' 2>/dev/null; [ \$? -eq 2 ]"
check "--max-errors caps the list" bash -c "for i in \$(seq 20); do echo 'foo r0'; done | sed '1i vs_1_1' > '$tmp/many.asm'; [ \"\$('$bin' --max-errors=5 '$tmp/many.asm' 2>&1 | grep -c ': error: ')\" -eq 6 ]"
check "run without --inputs is a usage error" bash -c "'$bin' run '$tmp/good.vs.asm' 2>/dev/null; [ \$? -eq 2 ]"

printf 'vs_2_0\ndcl_position v0\nmul r0.xy, v0, c0\nadd r0.zw, v0, c1\nsub oPos, r0, c2\n' > "$tmp/seed.vs.asm"
printf '{"constants": {"c0": [2, 2, 2, 2], "c1": [1, 1, 1, 1], "c2": [0.5, 0.5, 0.5, 0.5]}, "invocations": [{"v0": [1, 2, 3, 4]}]}' > "$tmp/seed.in.json"
printf '{"invocations": [{"v0": [1, 2, "x"]}]}' > "$tmp/bad.in.json"
check "default output is a Gen9 kernel ending in the shader-db stats line" bash -c "out=\$('$bin' '$tmp/seed.vs.asm') && echo \"\$out\" | head -1 | grep -q 'Gen9' && echo \"\$out\" | tail -1 | grep -Eq '^// SIMD8 shader: [0-9]+ instructions\\. [0-9]+ loops\\. [0-9]+ cycles\\. [0-9]+:[0-9]+ spills:fills, [0-9]+ sends\$'"
check "--emit=vasm of the seed case: three instructions, no move" bash -c "[ \"\$('$bin' --emit=vasm '$tmp/seed.vs.asm' | grep -Ec '^(mul r0.xy|add r0.zw|sub oPos, r0)')\" -eq 3 ] && ! '$bin' --emit=vasm '$tmp/seed.vs.asm' | grep -q '^mov'"
check "--emit=llvm --stats reports the merges" bash -c "'$bin' --emit=llvm --stats '$tmp/seed.vs.asm' 2>&1 >/dev/null | grep -q 'merges raw 1'"
check "run: interp, llvm and gen print the same outputs" bash -c "a=\$('$bin' run '$tmp/seed.vs.asm' --inputs '$tmp/seed.in.json') && b=\$('$bin' run --engine=llvm '$tmp/seed.vs.asm' --inputs '$tmp/seed.in.json') && c=\$('$bin' run --engine=gen --simd=8 '$tmp/seed.vs.asm' --inputs '$tmp/seed.in.json') && [ \"\$a\" = \"\$b\" ] && [ \"\$a\" = \"\$c\" ] && echo \"\$a\" | grep -q '\"oPos\": \\[1.5, 3.5, 3.5, 4.5\\]'"
check "run: a bad inputs file names the JSON path, exit 1, nothing on stdout" bash -c "out=\$('$bin' run '$tmp/seed.vs.asm' --inputs '$tmp/bad.in.json' 2>'$tmp/e'); rc=\$?; [ \$rc -eq 1 ] && [ -z \"\$out\" ] && grep -q 'invocations\\[0\\].v0\\[2\\]' '$tmp/e'"

printf '!!ARBfp1.0\nTEMP t;\nMUL t.xy, fragment.texcoord[0], {2, 2, 2, 2};\nADD t.zw, fragment.color, {1, 1, 1, 1};\nSUB result.color, t, {0.5, 0.5, 0.5, 0.5};\nEND\n' > "$tmp/seed.fp"
printf '!!ARBfp1.0\nTEMP t;\nRCP t, {0, 0, 0, 0}.x;\nMOV result.color, t;\nEND\n' > "$tmp/inf.fp"
check "--emit=vasm of an ARB fragment program: exit 0, an ARBfp1.0 program, the merge gone" bash -c "out=\$('$bin' --emit=vasm '$tmp/seed.fp') && [ \"\$(echo \"\$out\" | head -1)\" = '!!ARBfp1.0' ] && [ \"\$(echo \"\$out\" | tail -1)\" = 'END' ] && [ \"\$(echo \"\$out\" | grep -Ec '^(MUL r0.xy|ADD r0.zw|SUB result.color, r0)')\" -eq 3 ] && ! echo \"\$out\" | grep -q '^MOV'"
check "--emit=vasm --stats of an ARB program reports the merge" bash -c "'$bin' --emit=vasm --stats '$tmp/seed.fp' 2>&1 >/dev/null | grep -q 'merges in 1, eliminated 1'"
printf '{"invocations": [{}]}' > "$tmp/empty.in.json"
check "--emit=vasm of a non-finite constant: an ARB program with the same outputs (+inf from RCP of 0)" bash -c "'$bin' --emit=vasm -o '$tmp/inf.vasm.fp' '$tmp/inf.fp' && a=\$('$bin' run '$tmp/inf.fp' --inputs '$tmp/empty.in.json') && b=\$('$bin' run '$tmp/inf.vasm.fp' --inputs '$tmp/empty.in.json') && [ \"\$a\" = \"\$b\" ] && echo \"\$b\" | grep -q '\"inf\", \"inf\", \"inf\", \"inf\"'"

# ---- -o: safe output files (translator/cli/output.c) ----
check "-o: a new file gets 0666 minus the umask (022: 644)" bash -c "cd '$tmp' && (umask 022 && '$bin' --emit=asm -o new644.asm good.vs.asm) && [ \$(stat -c %a new644.asm) = 644 ]"
check "-o: a new file gets 0666 minus the umask (002: 664, 077: 600)" bash -c "cd '$tmp' && (umask 002 && '$bin' --emit=asm -o new664.asm good.vs.asm) && (umask 077 && '$bin' --emit=asm -o new600.asm good.vs.asm) && [ \$(stat -c %a new664.asm) = 664 ] && [ \$(stat -c %a new600.asm) = 600 ]"
check "-o: an existing file is replaced with the mode it had (640, 604)" bash -c "cd '$tmp' && echo old > m640 && chmod 640 m640 && echo old > m604 && chmod 604 m604 && (umask 077 && '$bin' --emit=asm -o m640 good.vs.asm && '$bin' --emit=asm -o m604 good.vs.asm) && [ \$(stat -c %a m640) = 640 ] && [ \$(stat -c %a m604) = 604 ] && grep -qx 'mov oPos, v0' m640"
check "-o: a symbolic link to a file stays a link; the file it names gets the output" bash -c "cd '$tmp' && echo old > target.asm && ln -s target.asm link.asm && '$bin' --emit=asm -o link.asm good.vs.asm && [ -L link.asm ] && grep -qx 'mov oPos, v0' target.asm"
check "-o: the replacement is atomic: no temporary file is left beside it" bash -c "cd '$tmp' && mkdir atom && '$bin' --emit=asm -o atom/out.asm good.vs.asm && [ \"\$(ls -A atom)\" = out.asm ]"
check "-o: a FIFO is written in place and stays a FIFO" bash -c "cd '$tmp' && mkfifo fifo && { timeout 20 cat fifo > fifo.out & } && '$bin' --emit=asm -o fifo good.vs.asm && wait && [ -p fifo ] && grep -qx 'mov oPos, v0' fifo.out"
if [ "$(id -u)" = 0 ]; then
    # a device node of our own (/dev/null's numbers), so a regression
    # would replace ours, not the machine's
    check "-o: a character device is written in place and stays a device" bash -c "cd '$tmp' && mknod nulldev c 1 3 && '$bin' --emit=asm -o nulldev good.vs.asm && [ -c nulldev ] && [ ! -s nulldev ]"
else
    check "-o: a character device is written in place and stays a device" bash -c "'$bin' --emit=asm -o /dev/null '$tmp/good.vs.asm' && [ -c /dev/null ]"
fi
check "-o: a symbolic link to a device stays a link to it" bash -c "cd '$tmp' && ln -s /dev/null devlink && '$bin' --emit=asm -o devlink good.vs.asm && [ -L devlink ] && [ \"\$(readlink devlink)\" = /dev/null ] && [ -c /dev/null ]"
check "-o: a device that refuses the write is an I/O error (exit 2, message)" bash -c "'$bin' --emit=asm -o /dev/full '$tmp/good.vs.asm' 2>'$tmp/full.err'; [ \$? -eq 2 ] && grep -q 'No space left' '$tmp/full.err'"
check "-o: a shader with errors writes nothing to a device (exit 1, no I/O error)" bash -c "'$bin' --emit=asm -o /dev/full '$tmp/bad.vs.asm' 2>'$tmp/full2.err'; [ \$? -eq 1 ] && ! grep -q 'No space' '$tmp/full2.err'"

# ---- broken pipes ----
# an output far larger than a pipe's buffer: the outputs JSON of 4000 invocations
{ printf '{"invocations": ['; for i in $(seq 3999); do printf '{"v0": [%d, 1, 2, 3]}, ' "$i"; done; printf '{}]}'; } > "$tmp/many.in.json"
check "a reader that stops early: quiet, non-zero status (SIGPIPE default)" bash -c "'$bin' run '$tmp/seed.vs.asm' --inputs '$tmp/many.in.json' 2>'$tmp/pipe.err' | head -c 10 >/dev/null; s=\${PIPESTATUS[0]}; [ \$s -ne 0 ] && [ ! -s '$tmp/pipe.err' ]"
check "a reader that stops early: quiet, non-zero status (SIGPIPE ignored by the parent)" bash -c "trap '' PIPE; '$bin' run '$tmp/seed.vs.asm' --inputs '$tmp/many.in.json' 2>'$tmp/pipe2.err' | head -c 10 >/dev/null; s=\${PIPESTATUS[0]}; [ \$s -eq 2 ] && [ ! -s '$tmp/pipe2.err' ]"

# ---- limits ----
check "--max-instructions, --max-work, --timeout need numbers (exit 2)" bash -c "'$bin' --max-work=x '$tmp/good.vs.asm' 2>/dev/null; a=\$?; '$bin' --timeout=-1 '$tmp/good.vs.asm' 2>/dev/null; b=\$?; '$bin' --max-instructions=0 '$tmp/good.vs.asm' 2>/dev/null; c=\$?; [ \$a -eq 2 ] && [ \$b -eq 2 ] && [ \$c -eq 2 ]"
check "a generous --timeout and budget change nothing" bash -c "[ \"\$('$bin' --timeout=100 --max-work=100000000 --max-instructions=5 '$tmp/seed.vs.asm')\" = \"\$('$bin' '$tmp/seed.vs.asm')\" ]"

# ---- #include in Direct3D 9 sources ----
mkdir -p "$tmp/inc/sub" "$tmp/incdir"
printf 'vs_2_0\ndcl_position v0\n#include "sub/consts.inc"\n#include "far.inc"\nmov oPos, r0\n' > "$tmp/inc/main.vs.asm"
printf 'def c0, 2, 2, 2, 2\n' > "$tmp/inc/sub/consts.inc"
printf 'mul r0, v0, c0\n' > "$tmp/incdir/far.inc"
printf 'vs_2_0\ndcl_position v0\n#include "broken.inc"\nmov oPos, v0\n' > "$tmp/inc/err.vs.asm"
printf 'mov r0, v0\nfoo r1, r0\n' > "$tmp/inc/broken.inc"
check "#include: beside the file, then -I; the included lines are compiled" bash -c "'$bin' --emit=asm -I '$tmp/incdir' '$tmp/inc/main.vs.asm' > '$tmp/inc.out' && grep -qx 'def c0, 2.0, 2.0, 2.0, 2.0' '$tmp/inc.out' && grep -qx 'mul r0, v0, c0' '$tmp/inc.out'"
check "#include: a missing file is named with where it was included (exit 2)" bash -c "'$bin' '$tmp/inc/main.vs.asm' 2>'$tmp/inc.err'; [ \$? -eq 2 ] && grep -q 'main.vs.asm:4: cannot find include file .far.inc.' '$tmp/inc.err'"
check "#include: an error inside an included file names that file and its line" bash -c "'$bin' '$tmp/inc/err.vs.asm' 2>'$tmp/inc2.err'; [ \$? -eq 1 ] && grep -q '^$tmp/inc/broken.inc:2:1: error: .*\\[ST1006\\]' '$tmp/inc2.err' && grep -qx '  foo r1, r0' '$tmp/inc2.err'"
printf '!!ARBvp1.0\n#include "nothing.inc"\nMOV result.position, vertex.position;\nEND\n' > "$tmp/inc/arb.vp"
check "#include: an ARB program's '#' lines are comments, never includes" bash -c "'$bin' --emit=asm '$tmp/inc/arb.vp' | grep -q 'MOV result.position'"

