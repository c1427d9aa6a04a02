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
