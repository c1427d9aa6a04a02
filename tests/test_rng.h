/*
 * test_rng.h — a fixed, portable random sequence, shared by the
 * differential tests (test_diff_llvm, test_diff_gen, with the batch count)
 * and the random shader generators (shadergen.c, arbgen.c).
 */
#ifndef ST_TEST_RNG_H
#define ST_TEST_RNG_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Differential tests: how many random batches ($ST_DIFF_BATCHES or dflt),
 * and a fixed, portable random sequence with values of every float class. */
static inline unsigned batches(unsigned dflt)
{
    const char *e = getenv("ST_DIFF_BATCHES");
    return e && atoi(e) > 0 ? (unsigned)atoi(e) : dflt;
}

struct rng {
    uint64_t s;
    /* Optional: bytes to take the numbers from first, 4 a number (the
     * libFuzzer differential target, tests/fuzz/fuzz_diff.c, so that a
     * mutation of the input changes one choice of the generator, not all
     * of them); then the xorshift sequence goes on from s. */
    const uint8_t *bytes;
    size_t nbytes, pos;
};

static inline uint32_t rnd(struct rng *r)
{
    if (r->pos < r->nbytes) {
        uint32_t v = 0;
        for (int k = 0; k < 4 && r->pos < r->nbytes; k++)
            v = v << 8 | r->bytes[r->pos++];
        return v;
    }
    /* xorshift64*: a fixed, portable sequence */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545f4914f6cdd1dull) >> 32);
}

/* The seed of the sequence that follows a byte source: FNV-1a of the bytes. */
static inline uint64_t rng_bytes_hash(const uint8_t *bytes, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

/* 0 .. n-1 (0 when n is 0) */
static inline unsigned below(struct rng *r, unsigned n)
{
    return n ? rnd(r) % n : 0;
}

/* true with the given percentage */
static inline bool chance(struct rng *r, unsigned percent)
{
    return below(r, 100) < percent;
}

static inline float rnd_float(struct rng *r)
{
    unsigned k = rnd(r) % 100;
    if (k < 65)
        return (float)((int)(rnd(r) % 8001) - 4000) / 1000.0f; /* [-4, 4] */
    if (k < 72)
        return (float)((int)(rnd(r) % 5) - 2);
    if (k < 76)
        return -0.0f;
    if (k < 79)
        return 0.5f;
    if (k < 82)
        return INFINITY;
    if (k < 85)
        return -INFINITY;
    if (k < 88)
        return NAN;
    if (k < 91)
        return 1e30f * (rnd(r) & 1 ? 1.0f : -1.0f);
    if (k < 94)
        return 1e-40f * (rnd(r) & 1 ? 1.0f : -1.0f); /* denormal */
    union {
        uint32_t u;
        float f;
    } any = {rnd(r)}; /* any bit pattern */
    return any.f;
}

#endif
