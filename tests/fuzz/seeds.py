#!/usr/bin/env python3
"""Writes the seed inputs of every libFuzzer target (tests/fuzz/README.md).

usage: seeds.py ROOT CORPUS_DIR OUT_DIR

OUT_DIR/<target>/ gets one file per seed, from the repository's samples/
(each shader also joined with its .in.json by a NUL byte, the input form of
the run targets), tests/bad/, the shared corpus (CORPUS_DIR/manifest.tsv
lists its shaders) and tests/fuzz/regress/<target>/ (the inputs of earlier
findings, README.md).  Deterministic: the same tree gives the same files.
"""
import hashlib
import os
import random
import sys


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def main():
    root, corpus, out = sys.argv[1:4]
    d3d9, arb, runs = [], [], []  # texts; (text, inputs) pairs
    for d, _, files in os.walk(os.path.join(root, 'samples')):
        for f in sorted(files):
            p = os.path.join(d, f)
            if f.endswith('.asm') or f.endswith('.vp') or f.endswith('.fp'):
                text = read(p)
                (arb if f.endswith('p') else d3d9).append(text)
                stem = p[:-4] if f.endswith('.asm') else p[:-3]
                if os.path.exists(stem + '.in.json'):
                    runs.append((text, read(stem + '.in.json')))
    bad = os.path.join(root, 'tests', 'bad')
    for f in sorted(os.listdir(bad)):
        (arb if f.startswith('arb-') else d3d9).append(read(os.path.join(bad, f)))
    manifest = os.path.join(corpus, 'manifest.tsv')
    if os.path.exists(manifest):
        with open(manifest, encoding='utf-8') as fh:
            next(fh)
            for line in fh:
                cols = line.rstrip('\n').split('\t')
                p = os.path.join(corpus, cols[0])
                if os.path.exists(p):
                    (arb if cols[1] == 'arb' else d3d9).append(read(p))

    def put(target, blobs):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for b in blobs:
            name = hashlib.sha1(b).hexdigest()
            with open(os.path.join(d, name), 'wb') as f:
                f.write(b)

    joined = [t + b'\0' + i for t, i in runs]
    put('fuzz_parse_d3d9', d3d9)
    put('fuzz_parse_arb', arb)
    put('fuzz_gen', d3d9 + arb)
    put('fuzz_vasm', d3d9 + arb)
    put('fuzz_jit', d3d9 + arb + joined)
    put('fuzz_run', d3d9 + arb + joined)

    # fuzz_run_inputs: the shader selector byte (fuzz_run_inputs.c: 0 vs_3_0,
    # 1 ps_3_0, 2 ps_1_3, 3 ARB vp, 4 ARB fp), then a JSON of that kind
    def selector(text):
        if text.startswith(b'!!ARBvp'):
            return 3
        if text.startswith(b'!!ARBfp'):
            return 4
        if text.lstrip().startswith(b'ps_1'):
            return 2
        return 1 if text.lstrip().startswith(b'ps') else 0
    put('fuzz_run_inputs', [bytes([selector(t)]) + i for t, i in runs])

    # fuzz_diff: the generators take any bytes; a few fixed random ones
    rng = random.Random(17)
    put('fuzz_diff', [bytes(rng.randrange(256) for _ in range(rng.choice([8, 64, 256, 1024])))
                      for _ in range(32)])

    regress = os.path.join(root, 'tests', 'fuzz', 'regress')
    for target in sorted(os.listdir(regress)):
        d = os.path.join(regress, target)
        put(target, [read(os.path.join(d, f)) for f in sorted(os.listdir(d))])


main()
