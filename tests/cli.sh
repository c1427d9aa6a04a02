#!/usr/bin/env bash
# CLI behaviour tests (TAP-like: "ok N" / "not ok N").  $1: the shadertrans binary.
set -u
bin=$1
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
check "default output is a Gen9 kernel ending in the shader-db stats line naming the shader" bash -c "out=\$('$bin' '$tmp/seed.vs.asm') && echo \"\$out\" | head -1 | grep -q 'Gen9' && echo \"\$out\" | tail -1 | grep -Eq '^// seed\.vs\.asm: SIMD8 shader: [0-9]+ instructions\\. [0-9]+ loops\\. [0-9]+ cycles\\. [0-9]+:[0-9]+ spills:fills, [0-9]+ sends\$'"
check "--simd=auto keeps a pixel shader at SIMD8 and SIMD16, one stats line each, --stats lists both" bash -c "printf 'ps_2_0\\ndcl t0\\nadd r0, t0, c0\\nmov oC0, r0\\n' > '$tmp/seed.ps.asm' && out=\$('$bin' --stats '$tmp/seed.ps.asm' 2>'$tmp/st') && [ \"\$(echo \"\$out\" | grep -Ec '^// seed\.ps\.asm: SIMD(8|16) shader: ')\" -eq 2 ] && grep -q '^seed\.ps\.asm: SIMD8 shader: ' '$tmp/st' && grep -q '^seed\.ps\.asm: SIMD16 shader: ' '$tmp/st'"
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
