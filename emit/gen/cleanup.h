/*
 * gen/cleanup.h — clean-ups on the selected Gen IR, before dead code and
 * register allocation (gen/cleanup.c; emit/gen only).
 */
#ifndef ST_GEN_CLEANUP_H
#define ST_GEN_CLEANUP_H

#include "gen_ir.h"

/*
 * Copies into variables are folded into the instruction that computed the
 * value (it writes the variable itself), and with `contract` (the user's
 * --fp-contract=fast) a mul whose only reader is an add becomes one mad.
 */
void gen_cleanup(struct gen_program *p, bool contract);

/*
 * gen/sink.c: each plain computation moves down to just before its first
 * reader when that lengthens no other value's life (less pressure, the
 * same instructions).
 */
void gen_sink(struct gen_program *p);

#endif
