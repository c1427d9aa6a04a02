/*
 * arbgen.c — random valid ARB programs and inputs (arbgen.h).
 *
 * Validity by construction, not by retrying:
 * - every TEMP gets all four lanes right after its declaration (one to four
 *   partial writes, so merges come up at once); later reads need nothing
 *   else.  Temporaries declared between instructions are initialised the
 *   same way before anything reads them;
 * - the instruction table is translator/arb/arb_opcodes.def itself (expanded
 *   with our own ARB() macro), so a new row is generated without a change
 *   here; the operand letters say what each operand is;
 * - vertex programs get A0 only from ARL of a value whose range is known
 *   (an attribute the inputs fill with -3..4.75, or a literal), so every
 *   a[A0.x + k] stays inside its array;
 * - a state, env or local vector is bound in at most one array slot (the
 *   rule for relatively addressed arrays, 2.14.3.2), attributes never alias
 *   their generic twin, a texture unit keeps one target, SHADOW targets
 *   come with their option, result.position is left alone under
 *   ARB_position_invariant;
 * - outputs are written by an epilogue in parts (a few lanes are sometimes
 *   left out on purpose: every engine prints them as 0).
 * To reach the engines' hard cases: literals of every spelling, 0 and 1
 * operands, an operand repeated with the other sign (MAX a, x, -x),
 * literal-heavy programs (constant folding), long programs with many live
 * temporaries (Gen register pressure), inputs with signed zeros, NaN,
 * infinities and denormals, fragment inputs on rasterised planes (full
 * SIMD16/32 Gen threads) or arbitrary (one-pixel threads).  Each lane also
 * carries how far the Gen engine's value can be judged ("Judging" below).
 * The checker has the last word: test_fuzz_arb.c asserts that it accepts
 * every program generated here.
 */
#include "arbgen.h"
#include "test_rng.h"  /* struct rng, rnd, below, chance */
#include "test_util.h" /* struct gen_buf, gen_printf */

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h" /* st_gen_run_barycentric: where the Gen engine puts pixels */

/* ------------------------------------------------------------------ */
/* Growing text buffer and random numbers.                             */


/* ------------------------------------------------------------------ */
/* The instruction table: arb_opcodes.def.                             */

struct ag_op {
    const char *name;
    bool vp, fp;
    const char *kinds;
    bool tex;
};

static const struct ag_op ag_ops[] = {
#define ARB(nm, o, v, f, ops, t) {nm, v, f, ops, t},
#include "translator/arb/arb_opcodes.def"
#undef ARB
};
enum { AG_NUM_OPS = sizeof(ag_ops) / sizeof(ag_ops[0]) };

unsigned ag_num_ops(void)
{
    return AG_NUM_OPS;
}

const char *ag_op_name(unsigned i)
{
    return i < AG_NUM_OPS ? ag_ops[i].name : "?";
}

bool ag_op_in(unsigned i, enum ag_kind k)
{
    return i < AG_NUM_OPS && (k == AG_VP ? ag_ops[i].vp : ag_ops[i].fp);
}

const char *ag_kind_name(enum ag_kind k)
{
    return k == AG_VP ? "vp" : k == AG_FP ? "fp" : "?";
}

static const char *const option_names[AG_NUM_OPTIONS] = {
    "ARB_position_invariant",
    "ARB_fog_exp",
    "ARB_fog_exp2",
    "ARB_fog_linear",
    "ARB_precision_hint_fastest",
    "ARB_precision_hint_nicest",
    "ARB_draw_buffers",
    "ARB_fragment_program_shadow",
    "ARB_fragment_coord_origin_upper_left",
    "ARB_fragment_coord_pixel_center_integer",
};

const char *ag_option_name(unsigned bit)
{
    for (unsigned i = 0; i < AG_NUM_OPTIONS; i++)
        if (bit == 1u << i)
            return option_names[i];
    return "?";
}

/* Texture targets (enum st_arb_tex_target order) and the inputs type each
 * needs (docs/run-json.md). */
static const char *const target_names[AG_NUM_TARGETS] = {"1D", "2D", "3D", "CUBE",
                                                         "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT"};
static const char *const target_types[AG_NUM_TARGETS] = {"1d", "2d", "3d", "cube",
                                                         "rect", "1d", "2d", "rect"};

/* ------------------------------------------------------------------ */
/* Generator state.                                                    */

enum {
    MAX_SPELL = 64, /* spellings of one category (names, aliases, inline bindings) */
    NAME_LEN = 80,
    MAT_LEN = 60, /* a matrix name, without .row[r] */
    MAX_TEMPS = 24,
    MAX_INPUTS = 12,
    MAX_OUTPUTS = 16,
    MAX_ARRAYS = 4,
    MAX_STATE = 96,
    MAX_UNITS = 6,
    NUM_ENV = 256,
    NUM_LOCAL = 128,
};

/* One way of writing an operand (a declared name, an alias, an inline
 * binding) and what it stands for. */
struct spell {
    char s[NAME_LEN];
    int of; /* temps: the temp; inputs/outputs: the binding; arrays: the array */
};

struct binding {
    char canon[NAME_LEN]; /* the inputs/outputs JSON name */
    bool addr;            /* vp: the attribute holding A0's sources */
};

struct array {
    unsigned size;
};

struct gen {
    struct rng r;
    struct gen_buf t;
    bool fp;
    unsigned options, features, targets;
    uint64_t ops;
    /* every declared name, for uniqueness */
    char names[160][NAME_LEN];
    unsigned nnames;
    /* TEMP: names and aliases; temp_ready[t]: all lanes written */
    struct spell temps[MAX_SPELL];
    unsigned ntemp_spell, ntemps;
    bool temp_ready[MAX_TEMPS];
    /* inputs: the bindings the program reads, and their spellings */
    struct binding inputs[MAX_INPUTS];
    unsigned ninputs;
    struct spell in_spell[MAX_SPELL];
    unsigned nin_spell;
    int addr_input; /* vp: the input with A0's values, or -1 */
    bool reads_position; /* fp: fragment.position */
    /* outputs */
    struct binding outputs[MAX_OUTPUTS];
    unsigned noutputs;
    struct spell out_spell[MAX_SPELL];
    unsigned nout_spell;
    /* PARAM singles (names, aliases) and arrays */
    struct spell params[MAX_SPELL];
    unsigned nparam_spell;
    struct spell arr_spell[MAX_SPELL];
    unsigned narr_spell;
    struct array arrays[MAX_ARRAYS];
    unsigned narrays;
    unsigned param_slots; /* an estimate of the parameter vectors bound */
    /* what the inputs JSON must give */
    bool env[NUM_ENV], local[NUM_LOCAL];
    bool env_in_array[NUM_ENV], local_in_array[NUM_LOCAL];
    char state[MAX_STATE][NAME_LEN];
    bool state_in_array[MAX_STATE];
    unsigned nstate;
    /* vp: the address register */
    char addr[MAX_SPELL / 8][NAME_LEN];
    unsigned naddr;
    bool a_valid;
    int a_lo, a_hi; /* the range of A0.x after the last ARL */
    /* fp: texture units and their targets */
    unsigned units[MAX_UNITS], unit_target[MAX_UNITS], nunits;
    unsigned ntex_instr;
    bool rgba; /* fp: this program writes rgba swizzles/masks at times */
    /* How far the Gen engine's value can be judged (see "Judging" below):
     * per TEMP lane and per output lane, the last write's status. */
    unsigned char temp_stat[MAX_TEMPS][4], out_stat[MAX_OUTPUTS][4];
    bool kil_unjudged;
    bool const_heavy; /* sources are mostly literals: constant folding */
};

/*
 * Judging.  The Gen engine computes EX2, LG2, POW, SIN, COS, SCS, LIT, EXP
 * and LOG with float math, the interpreter in double (docs/gensim.md,
 * "Tolerances of the Gen engine"): such a result is only within a relative
 * tolerance.  Multiplying, selecting, moving or taking the reciprocal keeps
 * a value within (about) the same relative tolerance; adding (cancellation),
 * comparing, flooring, sampling at it or another inexact function of it does
 * not (FRC of a POW result near 2^20 has no correct digit left).  So each
 * lane carries a status: exact, inexact (within the tolerance), or not
 * judgeable.  test_fuzz_arb compares the Gen engine on the first two and
 * counts the third apart; the interpreter and the LLVM JIT are compared
 * bit for bit everywhere.
 */
enum { ST_EXACT, ST_INEXACT, ST_UNJUDGED };

static const char lanes_xyzw[] = "xyzw", lanes_rgba[] = "rgba";

/* ------------------------------------------------------------------ */
/* Names.                                                              */

static bool name_taken(const struct gen *g, const char *n)
{
    for (unsigned i = 0; i < g->nnames; i++)
        if (strcmp(g->names[i], n) == 0)
            return true;
    return false;
}

/*
 * A fresh identifier.  Words that are binding members or swizzles in other
 * places (color, position, row, x...) are legal names: the grammar only
 * reserves the instruction and declaration keywords and the program kind's
 * own words (docs/arb.md), so they come up now and then.
 */
static void fresh_name(struct gen *g, const char *prefix, char *out)
{
    static const char *const tricky[] = {"color", "position", "row", "x", "w", "xyzw", "normal",
                                         "half", "texcoord", "env", "local", "matrix", "light",
                                         "range", "primary", "secondary", "back", "front",
                                         "shininess", "rgba", "r", "_", "$tmp", "a_1$", "plane",
                                         "inverse", "attrib", "size", "params", "depth"};
    struct rng *r = &g->r;
    if (chance(r, 12)) {
        const char *t = tricky[below(r, sizeof(tricky) / sizeof(tricky[0]))];
        if (!name_taken(g, t)) {
            snprintf(out, NAME_LEN, "%s", t);
            goto done;
        }
    }
    for (unsigned k = g->nnames;; k++) {
        snprintf(out, NAME_LEN, "%s%u", prefix, k);
        if (!name_taken(g, out))
            break;
    }
done:
    if (g->nnames < sizeof(g->names) / sizeof(g->names[0]))
        snprintf(g->names[g->nnames++], NAME_LEN, "%s", out);
}

static void add_spell(struct spell *list, unsigned *n, const char *s, int of)
{
    if (*n >= MAX_SPELL)
        return;
    snprintf(list[*n].s, NAME_LEN, "%s", s);
    list[*n].of = of;
    (*n)++;
}

/* ------------------------------------------------------------------ */
/* Numbers.                                                            */

/* A literal as the program writes it: integers, decimals, ".5", "2.",
 * exponents.  The value is what the text reads as. */
static void put_literal(struct gen *g, struct gen_buf *b, bool allow_sign)
{
    struct rng *r = &g->r;
    g->features |= AG_F_LITERAL;
    const char *sign = allow_sign && chance(r, 30) ? "-" : "";
    unsigned k = below(r, 100);
    if (k < 10)
        gen_printf(b, "%s%s", sign, (const char *[]){"0", "1", "0.5", "0.0", "1.0"}[below(r, 5)]);
    else if (k < 30)
        gen_printf(b, "%s%u", sign, below(r, 5));
    else if (k < 65)
        gen_printf(b, "%s%g", sign, (double)below(r, 65) / 16.0);
    else if (k < 72)
        gen_printf(b, "%s.%u", sign, 1 + below(r, 9));
    else if (k < 77)
        gen_printf(b, "%s%u.", sign, below(r, 7));
    else if (k < 85)
        gen_printf(b, "%s%u.%ue%s%u", sign, 1 + below(r, 9), below(r, 10), chance(r, 50) ? "-" : "",
                  below(r, 4));
    else if (k < 92)
        gen_printf(b, "%s%.7g", sign, (double)((float)below(r, 100000) / 7919.0f));
    else if (k < 96)
        gen_printf(b, "%s0.0", sign); /* -0.0 included */
    else
        gen_printf(b, "%s%ue%u", sign, 1 + below(r, 9), 20 + below(r, 18)); /* large */
}

/* {x}, {x, y}, {x, y, z} or {x, y, z, w} */
static void put_vector_literal(struct gen *g, struct gen_buf *b)
{
    unsigned n = 1 + below(&g->r, 4);
    gen_printf(b, "{");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            gen_printf(b, chance(&g->r, 50) ? ", " : ",");
        put_literal(g, b, true);
    }
    gen_printf(b, "}");
}

/* ------------------------------------------------------------------ */
/* Bindings.                                                           */

static int add_input(struct gen *g, const char *canon)
{
    for (unsigned i = 0; i < g->ninputs; i++)
        if (strcmp(g->inputs[i].canon, canon) == 0)
            return (int)i;
    if (g->ninputs >= MAX_INPUTS)
        return -1;
    snprintf(g->inputs[g->ninputs].canon, NAME_LEN, "%s", canon);
    g->inputs[g->ninputs].addr = false;
    return (int)g->ninputs++;
}

/* Ways of writing an input binding inline (docs/arb.md: optional [0],
 * dropped .primary). */
static void input_spellings(struct gen *g, int in)
{
    const char *c = g->inputs[in].canon;
    unsigned n;
    add_spell(g->in_spell, &g->nin_spell, c, in);
    if (strcmp(c, "vertex.color") == 0 || strcmp(c, "fragment.color") == 0) {
        char s[NAME_LEN];
        snprintf(s, sizeof(s), "%s.primary", c);
        add_spell(g->in_spell, &g->nin_spell, s, in);
    } else if (sscanf(c, "vertex.texcoord[%u]", &n) == 1 && n == 0) {
        add_spell(g->in_spell, &g->nin_spell, "vertex.texcoord", in);
    } else if (sscanf(c, "fragment.texcoord[%u]", &n) == 1 && n == 0) {
        add_spell(g->in_spell, &g->nin_spell, "fragment.texcoord", in);
    } else if (strcmp(c, "vertex.weight[0]") == 0) {
        add_spell(g->in_spell, &g->nin_spell, "vertex.weight", in);
    } else if (strcmp(c, "vertex.matrixindex[0]") == 0) {
        add_spell(g->in_spell, &g->nin_spell, "vertex.matrixindex", in);
    }
}

static void choose_inputs(struct gen *g)
{
    struct rng *r = &g->r;
    char c[NAME_LEN];
    if (!g->fp) {
        /* conventional attributes, and generic ones that alias none of them */
        static const char *const conv[] = {"vertex.position", "vertex.weight[0]", "vertex.normal",
                                           "vertex.color", "vertex.color.secondary",
                                           "vertex.fogcoord", "vertex.matrixindex[0]"};
        static const int conv_generic[] = {0, 1, 2, 3, 4, 5, -1};
        bool generic_taken[16] = {false};
        unsigned want = 2 + below(r, 5);
        while (g->ninputs < want) {
            unsigned k = below(r, 100);
            if (k < 40) {
                unsigned i = below(r, 7);
                if (conv_generic[i] >= 0 && generic_taken[conv_generic[i]])
                    continue;
                if (add_input(g, conv[i]) < 0)
                    break;
                if (conv_generic[i] >= 0)
                    generic_taken[conv_generic[i]] = true;
            } else if (k < 60) {
                unsigned n = below(r, 8);
                if (generic_taken[8 + n])
                    continue;
                snprintf(c, sizeof(c), "vertex.texcoord[%u]", n);
                add_input(g, c);
                generic_taken[8 + n] = true;
            } else {
                unsigned n = below(r, 16);
                /* the generic attribute must not alias a conventional one
                 * the program reads */
                bool clash = false;
                for (unsigned i = 0; i < g->ninputs; i++) {
                    const char *b = g->inputs[i].canon;
                    for (unsigned j = 0; j < 7; j++)
                        if (conv_generic[j] == (int)n && strcmp(b, conv[j]) == 0)
                            clash = true;
                    unsigned t;
                    if (sscanf(b, "vertex.texcoord[%u]", &t) == 1 && 8 + t == n)
                        clash = true;
                }
                if (clash)
                    continue;
                snprintf(c, sizeof(c), "vertex.attrib[%u]", n);
                add_input(g, c);
                generic_taken[n] = true;
            }
        }
        /* the address source: one of them, filled with small numbers */
        g->addr_input = (int)below(r, g->ninputs);
        g->inputs[g->addr_input].addr = true;
    } else {
        unsigned want = 1 + below(r, 5);
        while (g->ninputs < want) {
            unsigned k = below(r, 100);
            if (k < 20)
                add_input(g, "fragment.color");
            else if (k < 30)
                add_input(g, "fragment.color.secondary");
            else if (k < 38)
                add_input(g, "fragment.fogcoord");
            else if (k < 42) {
                add_input(g, "fragment.position");
                g->reads_position = true;
            } else {
                snprintf(c, sizeof(c), "fragment.texcoord[%u]", below(r, 8));
                add_input(g, c);
            }
        }
        g->addr_input = -1;
    }
    for (unsigned i = 0; i < g->ninputs; i++)
        input_spellings(g, (int)i);
}

static int add_output(struct gen *g, const char *canon)
{
    for (unsigned i = 0; i < g->noutputs; i++)
        if (strcmp(g->outputs[i].canon, canon) == 0)
            return (int)i;
    if (g->noutputs >= MAX_OUTPUTS)
        return -1;
    snprintf(g->outputs[g->noutputs].canon, NAME_LEN, "%s", canon);
    return (int)g->noutputs++;
}

static void output_spellings(struct gen *g, int o)
{
    const char *c = g->outputs[o].canon;
    unsigned n;
    add_spell(g->out_spell, &g->nout_spell, c, o);
    if (strcmp(c, "result.color") == 0) {
        if (!g->fp) {
            add_spell(g->out_spell, &g->nout_spell, "result.color.primary", o);
            add_spell(g->out_spell, &g->nout_spell, "result.color.front", o);
            add_spell(g->out_spell, &g->nout_spell, "result.color.front.primary", o);
        } else if (g->options & AG_O_DRAW_BUFFERS) {
            add_spell(g->out_spell, &g->nout_spell, "result.color[0]", o);
        }
    } else if (strcmp(c, "result.color.secondary") == 0) {
        add_spell(g->out_spell, &g->nout_spell, "result.color.front.secondary", o);
    } else if (strcmp(c, "result.color.back") == 0) {
        add_spell(g->out_spell, &g->nout_spell, "result.color.back.primary", o);
    } else if (sscanf(c, "result.texcoord[%u]", &n) == 1 && n == 0) {
        add_spell(g->out_spell, &g->nout_spell, "result.texcoord", o);
    }
}

static void choose_outputs(struct gen *g)
{
    struct rng *r = &g->r;
    char c[NAME_LEN];
    if (!g->fp) {
        if (!(g->options & AG_O_POSITION_INVARIANT))
            add_output(g, "result.position");
        static const char *const more[] = {"result.color", "result.color.secondary",
                                           "result.color.back", "result.color.back.secondary",
                                           "result.fogcoord", "result.pointsize"};
        unsigned want = g->noutputs + 1 + below(r, 4);
        while (g->noutputs < want) {
            if (chance(r, 45)) {
                snprintf(c, sizeof(c), "result.texcoord[%u]", below(r, 8));
                add_output(g, c);
            } else {
                add_output(g, more[below(r, 6)]);
            }
        }
    } else {
        if (g->options & AG_O_DRAW_BUFFERS) {
            if (chance(r, 80))
                add_output(g, "result.color");
            unsigned n = 1 + below(r, 3);
            for (unsigned i = 0; i < n; i++) {
                snprintf(c, sizeof(c), "result.color[%u]", 1 + below(r, 7));
                add_output(g, c);
            }
        } else {
            add_output(g, "result.color");
        }
        if (chance(r, 25))
            add_output(g, "result.depth");
    }
    for (unsigned i = 0; i < g->noutputs; i++)
        output_spellings(g, (int)i);
}

/* Records a state binding (canonical name) for the inputs JSON. */
static void note_state(struct gen *g, const char *canon, bool in_array)
{
    for (unsigned i = 0; i < g->nstate; i++)
        if (strcmp(g->state[i], canon) == 0) {
            g->state_in_array[i] |= in_array;
            return;
        }
    if (g->nstate < MAX_STATE) {
        g->state_in_array[g->nstate] = in_array;
        snprintf(g->state[g->nstate++], NAME_LEN, "%s", canon);
    }
}

static bool state_in_array(const struct gen *g, const char *canon)
{
    for (unsigned i = 0; i < g->nstate; i++)
        if (strcmp(g->state[i], canon) == 0)
            return g->state_in_array[i];
    return false;
}

static bool state_known(const struct gen *g, const char *canon)
{
    for (unsigned i = 0; i < g->nstate; i++)
        if (strcmp(g->state[i], canon) == 0)
            return true;
    return false;
}

/* A matrix: its written name and canonical base (without .row[r]). */
static void matrix_name(struct gen *g, char *text, char *canon)
{
    struct rng *r = &g->r;
    static const char *const mods[] = {"", ".inverse", ".transpose", ".invtrans"};
    const char *mod = mods[chance(r, 50) ? 0 : 1 + below(r, 3)];
    unsigned k = below(r, 6), n;
    switch (k) {
    case 0:
        n = below(r, 4);
        if (n == 0 && chance(r, 50))
            snprintf(text, MAT_LEN, "state.matrix.modelview%s", mod);
        else
            snprintf(text, MAT_LEN, "state.matrix.modelview[%u]%s", n, mod);
        snprintf(canon, MAT_LEN, "state.matrix.modelview[%u]%s", n, mod);
        break;
    case 1:
        snprintf(text, MAT_LEN, "state.matrix.projection%s", mod);
        snprintf(canon, MAT_LEN, "state.matrix.projection%s", mod);
        break;
    case 2:
        snprintf(text, MAT_LEN, "state.matrix.mvp%s", mod);
        snprintf(canon, MAT_LEN, "state.matrix.mvp%s", mod);
        break;
    case 3:
        n = below(r, 8);
        if (n == 0 && chance(r, 50))
            snprintf(text, MAT_LEN, "state.matrix.texture%s", mod);
        else
            snprintf(text, MAT_LEN, "state.matrix.texture[%u]%s", n, mod);
        snprintf(canon, MAT_LEN, "state.matrix.texture[%u]%s", n, mod);
        break;
    case 4:
        n = below(r, 32);
        snprintf(text, MAT_LEN, "state.matrix.palette[%u]%s", n, mod);
        snprintf(canon, MAT_LEN, "state.matrix.palette[%u]%s", n, mod);
        break;
    default:
        n = below(r, 8);
        snprintf(text, MAT_LEN, "state.matrix.program[%u]%s", n, mod);
        snprintf(canon, MAT_LEN, "state.matrix.program[%u]%s", n, mod);
        break;
    }
}

/* A single state vector of the program kind: its text and canonical name. */
static void state_single(struct gen *g, char *text, char *canon)
{
    struct rng *r = &g->r;
    unsigned k = below(r, 100), n = below(r, 8);
    static const char *const faces[] = {"", ".front", ".back"};
    const char *face = faces[below(r, 3)];
    const char *cface = strcmp(face, ".back") == 0 ? ".back" : "";
    if (k < 25) {
        char base[MAT_LEN], cbase[MAT_LEN];
        matrix_name(g, base, cbase);
        unsigned row = below(r, 4);
        snprintf(text, NAME_LEN, "%s.row[%u]", base, row);
        snprintf(canon, NAME_LEN, "%s.row[%u]", cbase, row);
    } else if (k < 37) {
        static const char *const p[] = {"ambient", "diffuse", "specular", "emission", "shininess"};
        const char *w = p[below(r, 5)];
        snprintf(text, NAME_LEN, "state.material%s.%s", face, w);
        snprintf(canon, NAME_LEN, "state.material%s.%s", cface, w);
    } else if (k < 52) {
        static const char *const p[] = {"ambient", "diffuse", "specular", "position",
                                        "attenuation", "half", "spot.direction"};
        const char *w = p[below(r, 7)];
        snprintf(text, NAME_LEN, "state.light[%u].%s", n, w);
        snprintf(canon, NAME_LEN, "state.light[%u].%s", n, w);
    } else if (k < 58) {
        if (chance(r, 40)) {
            snprintf(text, NAME_LEN, "state.lightmodel.ambient");
            snprintf(canon, NAME_LEN, "state.lightmodel.ambient");
        } else {
            snprintf(text, NAME_LEN, "state.lightmodel%s.scenecolor", face);
            snprintf(canon, NAME_LEN, "state.lightmodel%s.scenecolor", cface);
        }
    } else if (k < 68) {
        static const char *const p[] = {"ambient", "diffuse", "specular"};
        const char *w = p[below(r, 3)];
        snprintf(text, NAME_LEN, "state.lightprod[%u]%s.%s", n, face, w);
        snprintf(canon, NAME_LEN, "state.lightprod[%u]%s.%s", n, cface, w);
    } else if (k < 76) {
        const char *w = chance(r, 50) ? "color" : "params";
        snprintf(text, NAME_LEN, "state.fog.%s", w);
        snprintf(canon, NAME_LEN, "state.fog.%s", w);
    } else if (!g->fp) {
        unsigned j = below(r, 3);
        if (j == 0) {
            const char *type = chance(r, 50) ? "eye" : "object";
            char c = "strq"[below(r, 4)];
            if (n == 0 && chance(r, 40))
                snprintf(text, NAME_LEN, "state.texgen.%s.%c", type, c);
            else
                snprintf(text, NAME_LEN, "state.texgen[%u].%s.%c", n, type, c);
            snprintf(canon, NAME_LEN, "state.texgen[%u].%s.%c", n, type, c);
        } else if (j == 1) {
            snprintf(text, NAME_LEN, "state.clip[%u].plane", n);
            snprintf(canon, NAME_LEN, "state.clip[%u].plane", n);
        } else {
            const char *w = chance(r, 50) ? "size" : "attenuation";
            snprintf(text, NAME_LEN, "state.point.%s", w);
            snprintf(canon, NAME_LEN, "state.point.%s", w);
        }
    } else {
        if (chance(r, 60)) {
            if (n == 0 && chance(r, 40))
                snprintf(text, NAME_LEN, "state.texenv.color");
            else
                snprintf(text, NAME_LEN, "state.texenv[%u].color", n);
            snprintf(canon, NAME_LEN, "state.texenv[%u].color", n);
        } else {
            snprintf(text, NAME_LEN, "state.depth.range");
            snprintf(canon, NAME_LEN, "state.depth.range");
        }
    }
}

/*
 * One parameter vector written inline or in a single PARAM: a literal, an
 * env or local parameter, or a state vector.  in_array: it is an array
 * element (then a binding must be bound in no other array slot).
 * Returns false when it found nothing usable.
 */
static bool put_param_single(struct gen *g, struct gen_buf *b, bool in_array, bool scalar_ok)
{
    struct rng *r = &g->r;
    for (int tries = 0; tries < 20; tries++) {
        unsigned k = below(r, 100);
        if (k < 35) {
            if (scalar_ok && chance(r, 30))
                put_literal(g, b, true);
            else
                put_vector_literal(g, b);
            g->param_slots++;
            return true;
        }
        if (k < 55) {
            unsigned n = chance(r, 70) ? below(r, 16) : below(r, NUM_ENV);
            if (g->env_in_array[n] || (in_array && g->env[n]))
                continue;
            g->env[n] = true;
            g->env_in_array[n] = in_array;
            g->features |= AG_F_ENV;
            gen_printf(b, "program.env[%u]", n);
            g->param_slots++;
            return true;
        }
        if (k < 70) {
            unsigned n = chance(r, 70) ? below(r, 16) : below(r, NUM_LOCAL);
            if (g->local_in_array[n] || (in_array && g->local[n]))
                continue;
            g->local[n] = true;
            g->local_in_array[n] = in_array;
            g->features |= AG_F_LOCAL;
            gen_printf(b, "program.local[%u]", n);
            g->param_slots++;
            return true;
        }
        char text[NAME_LEN], canon[NAME_LEN];
        state_single(g, text, canon);
        if (state_in_array(g, canon) || (in_array && state_known(g, canon)))
            continue;
        note_state(g, canon, in_array);
        gen_printf(b, "%s", text);
        g->param_slots++;
        return true;
    }
    put_vector_literal(g, b);
    g->param_slots++;
    return true;
}

/* A range of env/local parameters or matrix rows, all unused so far. */
static unsigned put_array_range(struct gen *g, struct gen_buf *b, unsigned room)
{
    struct rng *r = &g->r;
    unsigned k = below(r, 3);
    if (k < 2) {
        bool env = k == 0;
        unsigned lim = env ? NUM_ENV : NUM_LOCAL;
        bool *used = env ? g->env : g->local, *used_arr = env ? g->env_in_array : g->local_in_array;
        unsigned n = 2 + below(r, 4);
        if (n > room)
            n = room;
        unsigned first = chance(r, 70) ? below(r, 24) : below(r, lim - n);
        for (unsigned i = 0; i < n; i++)
            if (first + i >= lim || used[first + i] || used_arr[first + i])
                return 0;
        for (unsigned i = 0; i < n; i++)
            used[first + i] = used_arr[first + i] = true;
        g->features |= env ? AG_F_ENV : AG_F_LOCAL;
        gen_printf(b, "program.%s[%u..%u]", env ? "env" : "local", first, first + n - 1);
        g->param_slots += n;
        return n;
    }
    char text[MAT_LEN], canon[MAT_LEN], row[NAME_LEN];
    matrix_name(g, text, canon);
    unsigned lo = 0, hi = 3;
    bool whole = room >= 4 && chance(r, 50);
    if (!whole) {
        lo = below(r, 4);
        hi = lo + below(r, 4 - lo);
        if (hi - lo + 1 > room)
            hi = lo + room - 1;
    }
    for (unsigned i = lo; i <= hi; i++) {
        snprintf(row, sizeof(row), "%s.row[%u]", canon, i);
        if (state_known(g, row))
            return 0;
    }
    for (unsigned i = lo; i <= hi; i++) {
        snprintf(row, sizeof(row), "%s.row[%u]", canon, i);
        note_state(g, row, true);
    }
    if (whole) {
        g->features |= AG_F_MATRIX;
        gen_printf(b, "%s", text);
    } else if (lo == hi && chance(r, 50)) {
        gen_printf(b, "%s.row[%u]", text, lo);
    } else {
        gen_printf(b, "%s.row[%u..%u]", text, lo, hi);
    }
    g->param_slots += hi - lo + 1;
    return hi - lo + 1;
}

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

static void put_mask(struct gen *g, struct gen_buf *b, unsigned mask)
{
    if (mask == 0xf && chance(&g->r, 80))
        return;
    const char *l = g->rgba && chance(&g->r, 40) ? lanes_rgba : lanes_xyzw;
    if (l == lanes_rgba)
        g->features |= AG_F_RGBA;
    gen_printf(b, ".");
    for (unsigned i = 0; i < 4; i++)
        if (mask & (1u << i))
            gen_printf(b, "%c", l[i]);
}

static unsigned rand_mask(struct rng *r)
{
    if (chance(r, 30))
        return 0xf;
    unsigned m;
    do
        m = below(r, 16);
    while (m == 0 || m == 0xf);
    return m;
}

/* A suffix: none, a replicated component, or four components. */
static unsigned put_swizzle(struct gen *g, struct gen_buf *b, bool scalar)
{
    struct rng *r = &g->r;
    const char *l = g->rgba && chance(r, 35) ? lanes_rgba : lanes_xyzw;
    if (l == lanes_rgba)
        g->features |= AG_F_RGBA;
    unsigned k = below(r, 100);
    if (scalar || (k >= 35 && k < 55)) {
        unsigned c = below(r, 4);
        gen_printf(b, ".%c", l[c]);
        return 1u << c;
    }
    if (k < 35)
        return 0xf;
    unsigned read = 0;
    gen_printf(b, ".");
    for (unsigned i = 0; i < 4; i++) {
        unsigned c = below(r, 4);
        gen_printf(b, "%c", l[c]);
        read |= 1u << c;
    }
    return read;
}

/* A ready temp spelling, or NULL. */
static const struct spell *pick_temp(struct gen *g)
{
    unsigned n = 0;
    for (unsigned i = 0; i < g->ntemp_spell; i++)
        n += g->temp_ready[g->temps[i].of];
    if (!n)
        return NULL;
    unsigned k = below(&g->r, n);
    for (unsigned i = 0; i < g->ntemp_spell; i++)
        if (g->temp_ready[g->temps[i].of] && k-- == 0)
            return &g->temps[i];
    return NULL;
}

/* A relatively addressed array element (vp, after ARL), if one fits. */
static bool put_relative(struct gen *g, struct gen_buf *b)
{
    struct rng *r = &g->r;
    if (g->fp || !g->a_valid || !g->narr_spell)
        return false;
    const struct spell *s = &g->arr_spell[below(r, g->narr_spell)];
    int size = (int)g->arrays[s->of].size;
    /* A0.x + k within 0..size-1 for every A0.x in a_lo..a_hi; the
     * grammar's offsets are +0..63 and -0..64 */
    int lo = -g->a_lo, hi = size - 1 - g->a_hi;
    if (lo < -64)
        lo = -64;
    if (hi > 63)
        hi = 63;
    if (hi < lo)
        return false;
    int k = lo + (int)below(r, (unsigned)(hi - lo + 1));
    const char *a = g->addr[below(r, g->naddr)];
    g->features |= AG_F_RELATIVE;
    if (k < 0) {
        g->features |= AG_F_RELNEG;
        gen_printf(b, "%s[%s.x - %d]", s->s, a, -k);
    } else if (k > 0 || chance(r, 50)) {
        gen_printf(b, "%s[%s.x + %d]", s->s, a, k);
    } else {
        gen_printf(b, "%s[%s.x]", s->s, a);
    }
    return true;
}

/*
 * A source operand: sign, register, suffix.  kind 'V' vector, 'S' scalar
 * (one component), 'R' plain (SWZ: no sign, no suffix).
 */
static unsigned put_src(struct gen *g, struct gen_buf *b, char kind)
{
    struct rng *r = &g->r;
    bool plain = kind == 'R', scalar = kind == 'S';
    if (!plain && chance(r, 20)) {
        gen_printf(b, "-");
        g->features |= AG_F_NEGATE;
    }
    unsigned k = below(r, 100);
    if (g->const_heavy && chance(r, 50))
        k = 90; /* a literal or a binding */
    const struct spell *t = pick_temp(g);
    if (k < 50 && t) {
        gen_printf(b, "%s", t->s);
        unsigned read = plain ? 0xf : put_swizzle(g, b, scalar), st = ST_EXACT;
        for (unsigned c = 0; c < 4; c++)
            if ((read & (1u << c)) && g->temp_stat[t->of][c] > st)
                st = g->temp_stat[t->of][c];
        return st;
    } else if (k < 70 && g->nin_spell) {
        gen_printf(b, "%s", g->in_spell[below(r, g->nin_spell)].s);
    } else if (k < 78 && g->nparam_spell) {
        gen_printf(b, "%s", g->params[below(r, g->nparam_spell)].s);
    } else if (k < 88 && g->narr_spell) {
        if (!(chance(r, 60) && put_relative(g, b))) {
            const struct spell *s = &g->arr_spell[below(r, g->narr_spell)];
            gen_printf(b, "%s[%u]", s->s, below(r, g->arrays[s->of].size));
        }
    } else if (!plain && chance(r, 50)) {
        /* a literal in the instruction: a scalar only where no suffix
         * follows (the text "2.5.x" would not be one token) */
        if (!scalar && chance(r, 35)) {
            put_literal(g, b, false);
            g->param_slots++;
            return ST_EXACT;
        }
        put_vector_literal(g, b);
        g->param_slots++;
    } else {
        put_param_single(g, b, false, false);
    }
    if (!plain)
        put_swizzle(g, b, scalar);
    return ST_EXACT;
}

/* ------------------------------------------------------------------ */
/* Instructions.                                                       */

static bool op_ok(const struct gen *g, unsigned i, bool need_dst)
{
    const struct ag_op *o = &ag_ops[i];
    if (!(g->fp ? o->fp : o->vp))
        return false;
    for (const char *k = o->kinds; *k; k++)
        if (!strchr("DAVSRXUT", *k))
            return false; /* an operand kind this generator does not know */
    if (need_dst && o->kinds[0] != 'D')
        return false;
    if (o->tex && (!g->nunits || g->ntex_instr >= 6))
        return false;
    return true;
}

static void put_ext_swizzle(struct gen *g, struct gen_buf *b)
{
    struct rng *r = &g->r;
    const char *l = g->rgba && chance(r, 35) ? lanes_rgba : lanes_xyzw;
    for (unsigned i = 0; i < 4; i++) {
        if (i)
            gen_printf(b, chance(r, 50) ? ", " : ",");
        if (chance(r, 25)) {
            gen_printf(b, "-");
            g->features |= AG_F_SWZNEG;
        }
        unsigned k = below(r, 100);
        if (k < 25) {
            gen_printf(b, "%c", "01"[below(r, 2)]);
            g->features |= AG_F_SWZ01;
        } else {
            gen_printf(b, "%c", l[below(r, 4)]);
        }
    }
}

/* A destination: a temp or output spelling. */
struct dst {
    const char *s;
    int temp, out;
};

static struct dst dst_temp(const struct spell *t)
{
    return (struct dst){t->s, t->of, -1};
}

static struct dst dst_out(const struct spell *o)
{
    return (struct dst){o->s, -1, o->of};
}

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

/* The status (see "Judging") of the result of `o` from its sources'. */
static unsigned result_status(const struct ag_op *o, const unsigned *src, unsigned nsrc)
{
    static const char *const inexact[] = {"EX2", "LG2", "POW", "SIN", "COS", "SCS",
                                          "LIT", "EXP", "LOG", NULL};
    static const char *const keeps[] = {"MOV", "MUL", "ABS", "MIN", "MAX", "SWZ",
                                        "RCP", "RSQ", "DST", NULL};
    unsigned s = ST_EXACT;
    for (unsigned i = 0; i < nsrc; i++)
        if (src[i] > s)
            s = src[i];
    if (o->tex) /* which texel: a discontinuous function of the coordinates */
        return s ? ST_UNJUDGED : ST_EXACT;
    if (name_in(o->name, inexact))
        return s ? ST_UNJUDGED : ST_INEXACT;
    if (s == ST_EXACT || name_in(o->name, keeps))
        return s;
    if (strcmp(o->name, "CMP") == 0) /* src0 selects; src1, src2 are kept */
        return src[0] ? ST_UNJUDGED : s;
    return ST_UNJUDGED;
}

/*
 * One instruction of row `op` writing `dst` (a temp or output spelling;
 * none for KIL) under `mask`.
 */
static void emit_op(struct gen *g, unsigned op, struct dst dst, unsigned mask)
{
    unsigned src[4] = {0}, nsrc = 0;
    size_t prev_start = 0, prev_end = 0;
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    const struct ag_op *o = &ag_ops[op];
    unsigned unit = 0;
    g->ops |= 1ull << op;
    gen_printf(b, "%s", o->name);
    if (g->fp && o->kinds[0] == 'D' && chance(r, 18)) {
        gen_printf(b, "_SAT");
        g->features |= AG_F_SAT;
    }
    if (o->tex) {
        g->ntex_instr++;
        unit = below(r, g->nunits);
    }
    for (const char *k = o->kinds; *k; k++) {
        gen_printf(b, k == o->kinds ? " " : ", ");
        switch (*k) {
        case 'D':
            gen_printf(b, "%s", dst.s);
            put_mask(g, b, mask);
            break;
        case 'A':
            gen_printf(b, "%s.x", g->addr[below(r, g->naddr)]);
            break;
        case 'V':
        case 'S':
        case 'R':
        {
            /* now and then the previous operand again, sign flipped or
             * not: MAX a, x, -x, SLT a, x, x... (the algebra where signed
             * zeros and NaN decide, which optimizers like to simplify) */
            unsigned st;
            if (nsrc && *k == k[-1] && *k != 'R' && chance(r, 15) && prev_end > prev_start) {
                const char *p = b->p + prev_start;
                size_t n = prev_end - prev_start;
                bool neg = p[0] == '-';
                if (chance(r, 50))
                    gen_printf(b, "%.*s", (int)(neg ? n - 1 : n), neg ? p + 1 : p);
                else if (neg)
                    gen_printf(b, "%.*s", (int)n, p);
                else
                    gen_printf(b, "-%.*s", (int)n, p);
                st = src[nsrc - 1];
            } else {
                prev_start = b->len;
                st = put_src(g, b, *k);
                prev_end = b->oom ? prev_start : b->len;
            }
            src[nsrc < 4 ? nsrc++ : 3] = st;
            break;
        }
        case 'X':
            put_ext_swizzle(g, b);
            break;
        case 'U':
            if (g->units[unit] == 0 && chance(r, 30))
                gen_printf(b, "texture");
            else
                gen_printf(b, "texture[%u]", g->units[unit]);
            break;
        case 'T':
            gen_printf(b, "%s", target_names[g->unit_target[unit]]);
            g->targets |= 1u << g->unit_target[unit];
            break;
        }
    }
    gen_printf(b, ";\n");
    unsigned st = result_status(o, src, nsrc);
    if (o->kinds[0] != 'D') {
        if (st != ST_EXACT) /* KIL: which invocations die */
            g->kil_unjudged = true;
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        if (mask & (1u << c)) {
            if (dst.temp >= 0)
                g->temp_stat[dst.temp][c] = (unsigned char)st;
            else if (dst.out >= 0)
                g->out_stat[dst.out][c] = (unsigned char)st;
        }
}

static unsigned pick_op(struct gen *g, bool need_dst)
{
    unsigned op;
    do
        op = below(&g->r, AG_NUM_OPS);
    while (!op_ok(g, op, need_dst));
    return op;
}

/* Splits xyzw into 1..4 disjoint masks; returns how many. */
static unsigned partition(struct rng *r, unsigned parts[4])
{
    unsigned n = 1 + below(r, 3);
    for (unsigned i = 0; i < 4; i++)
        parts[i] = 0;
    for (unsigned l = 0; l < 4; l++)
        parts[below(r, n)] |= 1u << l;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (parts[i])
            parts[k++] = parts[i];
    return k;
}

/* All four lanes of `dst`, in parts (a merge). */
static void build(struct gen *g, struct dst dst)
{
    unsigned parts[4];
    unsigned n = partition(&g->r, parts);
    for (unsigned i = 0; i < n; i++)
        emit_op(g, pick_op(g, true), dst, parts[i]);
}

/* ARL from a value of known range, so that relative reads stay inside. */
static void emit_arl(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    unsigned arl = 0;
    while (strcmp(ag_ops[arl].name, "ARL") != 0)
        arl++;
    g->ops |= 1ull << arl;
    gen_printf(b, "ARL %s.x, ", g->addr[below(r, g->naddr)]);
    if (chance(r, 70)) {
        /* the address attribute holds -3..4.75 (inputs below): floor -3..4 */
        unsigned n = 0, pick;
        for (unsigned i = 0; i < g->nin_spell; i++)
            n += g->in_spell[i].of == g->addr_input;
        pick = below(r, n);
        for (unsigned i = 0; i < g->nin_spell; i++)
            if (g->in_spell[i].of == g->addr_input && pick-- == 0) {
                gen_printf(b, "%s", g->in_spell[i].s);
                break;
            }
        gen_printf(b, ".%c;\n", lanes_xyzw[below(r, 4)]);
        g->a_lo = -3;
        g->a_hi = 4;
    } else {
        /* a literal v + f/4, f in 0..3: A0.x = v exactly, so negative
         * offsets become usable; written {x} or, negated, -{-x} */
        int v = (int)below(r, 12) - 2;
        double val = (double)v + below(r, 4) / 4.0;
        if (chance(r, 30))
            gen_printf(b, "-{%g}.x;\n", -val);
        else
            gen_printf(b, "{%g}.x;\n", val);
        g->a_lo = g->a_hi = v;
        g->param_slots++;
    }
    g->a_valid = true;
}

/* ------------------------------------------------------------------ */
/* Declarations.                                                       */

static void decl_temp(struct gen *g, unsigned n)
{
    struct gen_buf *b = &g->t;
    unsigned first = g->ntemps;
    gen_printf(b, "TEMP ");
    for (unsigned i = 0; i < n && g->ntemps < MAX_TEMPS; i++) {
        char name[NAME_LEN];
        fresh_name(g, "t", name);
        gen_printf(b, "%s%s", i ? ", " : "", name);
        add_spell(g->temps, &g->ntemp_spell, name, (int)g->ntemps);
        g->temp_ready[g->ntemps++] = false;
    }
    gen_printf(b, ";\n");
    /* give every lane a value before anything can read it */
    for (unsigned t = first; t < g->ntemps; t++) {
        for (unsigned i = 0; i < g->ntemp_spell; i++)
            if (g->temps[i].of == (int)t) {
                build(g, dst_temp(&g->temps[i]));
                break;
            }
        g->temp_ready[t] = true;
    }
}

static void decl_param(struct gen *g)
{
    struct rng *r = &g->r;
    struct gen_buf *b = &g->t;
    char name[NAME_LEN];
    fresh_name(g, "p", name);
    if (g->narrays < MAX_ARRAYS && chance(r, 40)) {
        /* PARAM a[n] = { ... }: literals, singles and ranges */
        unsigned size = 4 + below(r, 9);
        struct gen_buf items = {0};
        unsigned got = 0;
        while (got < size) {
            if (got)
                gen_printf(&items, ", ");
            unsigned k = below(r, 100), n = 0;
            if (k < 30 && size - got >= 2)
                n = put_array_range(g, &items, size - got);
            if (!n) {
                if (k < 60)
                    put_vector_literal(g, &items);
                else
                    put_param_single(g, &items, true, true);
                n = 1;
            }
            got += n;
        }
        g->features |= AG_F_ARRAY;
        if (chance(r, 50))
            gen_printf(b, "PARAM %s[%u] = { %s };\n", name, got, items.oom ? "" : items.p);
        else
            gen_printf(b, "PARAM %s[] = { %s };\n", name, items.oom ? "" : items.p);
        if (items.oom)
            b->oom = true;
        free(items.p);
        g->arrays[g->narrays].size = got;
        add_spell(g->arr_spell, &g->narr_spell, name, (int)g->narrays);
        g->narrays++;
        return;
    }
    gen_printf(b, "PARAM %s = ", name);
    put_param_single(g, b, false, true);
    gen_printf(b, ";\n");
    add_spell(g->params, &g->nparam_spell, name, 0);
}

static void decl_attrib(struct gen *g)
{
    struct rng *r = &g->r;
    char name[NAME_LEN];
    int in = (int)below(r, g->ninputs);
    /* any of the binding's spellings */
    unsigned n = 0, pick;
    for (unsigned i = 0; i < g->nin_spell; i++)
        n += g->in_spell[i].of == in && strchr(g->in_spell[i].s, '.');
    if (!n)
        return;
    pick = below(r, n);
    for (unsigned i = 0; i < g->nin_spell; i++)
        if (g->in_spell[i].of == in && strchr(g->in_spell[i].s, '.') && pick-- == 0) {
            fresh_name(g, "in", name);
            gen_printf(&g->t, "ATTRIB %s = %s;\n", name, g->in_spell[i].s);
            add_spell(g->in_spell, &g->nin_spell, name, in);
            g->features |= AG_F_ATTRIB_DECL;
            return;
        }
}

static void decl_output(struct gen *g)
{
    struct rng *r = &g->r;
    char name[NAME_LEN];
    const struct spell *s = &g->out_spell[below(r, g->nout_spell)];
    if (!strchr(s->s, '.'))
        return; /* a name already */
    fresh_name(g, "out", name);
    gen_printf(&g->t, "OUTPUT %s = %s;\n", name, s->s);
    add_spell(g->out_spell, &g->nout_spell, name, s->of);
    g->features |= AG_F_OUTPUT_DECL;
}

/* ALIAS of a declared name of any kind. */
static void decl_alias(struct gen *g)
{
    struct rng *r = &g->r;
    char name[NAME_LEN];
    struct spell *list;
    unsigned *n;
    unsigned k = below(r, 6);
    if (k == 0 && g->naddr) {
        if (g->naddr >= MAX_SPELL / 8)
            return;
        fresh_name(g, "al", name);
        gen_printf(&g->t, "ALIAS %s = %s;\n", name, g->addr[below(r, g->naddr)]);
        snprintf(g->addr[g->naddr++], NAME_LEN, "%s", name);
        g->features |= AG_F_ALIAS;
        return;
    }
    switch (k) {
    case 1: list = g->temps; n = &g->ntemp_spell; break;
    case 2: list = g->in_spell; n = &g->nin_spell; break;
    case 3: list = g->out_spell; n = &g->nout_spell; break;
    case 4: list = g->params; n = &g->nparam_spell; break;
    default: list = g->arr_spell; n = &g->narr_spell; break;
    }
    /* a declared name only (bindings written inline are not names) */
    unsigned cand = 0;
    for (unsigned i = 0; i < *n; i++)
        cand += !strchr(list[i].s, '.');
    if (!cand || *n >= MAX_SPELL)
        return;
    unsigned pick = below(r, cand);
    for (unsigned i = 0; i < *n; i++)
        if (!strchr(list[i].s, '.') && pick-- == 0) {
            fresh_name(g, "al", name);
            gen_printf(&g->t, "ALIAS %s = %s;\n", name, list[i].s);
            add_spell(list, n, name, list[i].of);
            g->features |= AG_F_ALIAS;
            return;
        }
}

/* ------------------------------------------------------------------ */
/* The program.                                                        */

static void choose_options(struct gen *g)
{
    struct rng *r = &g->r;
    if (!g->fp) {
        if (chance(r, 20))
            g->options |= AG_O_POSITION_INVARIANT;
        return;
    }
    if (chance(r, 30))
        g->options |= (AG_O_FOG_EXP << below(r, 3));
    if (chance(r, 20))
        g->options |= chance(r, 50) ? AG_O_PRECISION_FASTEST : AG_O_PRECISION_NICEST;
    if (chance(r, 25))
        g->options |= AG_O_DRAW_BUFFERS;
    if (chance(r, 35))
        g->options |= AG_O_SHADOW;
    if (chance(r, 12))
        g->options |= AG_O_ORIGIN_UPPER_LEFT;
    if (chance(r, 12))
        g->options |= AG_O_PIXEL_CENTER_INTEGER;
}

static void put_options(struct gen *g)
{
    struct rng *r = &g->r;
    for (unsigned i = 0; i < AG_NUM_OPTIONS; i++)
        if (g->options & (1u << i)) {
            gen_printf(&g->t, "OPTION %s;\n", option_names[i]);
            if (chance(r, 5)) /* allowed twice */
                gen_printf(&g->t, "OPTION %s;\n", option_names[i]);
        }
}

static void choose_units(struct gen *g)
{
    struct rng *r = &g->r;
    if (!g->fp || chance(r, 25))
        return;
    unsigned n = 1 + below(r, 4);
    for (unsigned i = 0; i < n; i++) {
        unsigned u = chance(r, 60) ? below(r, 4) : below(r, 16);
        bool dup = false;
        for (unsigned j = 0; j < g->nunits; j++)
            dup |= g->units[j] == u;
        if (dup)
            continue;
        unsigned t = below(r, (g->options & AG_O_SHADOW) ? 8 : 5);
        g->units[g->nunits] = u;
        g->unit_target[g->nunits++] = t;
    }
}

static void statement(struct gen *g)
{
    struct rng *r = &g->r;
    for (;;) {
        unsigned k = below(r, 100);
        if (k < 55) {
            emit_op(g, pick_op(g, true), dst_temp(pick_temp(g)), rand_mask(r));
            return;
        }
        if (k < 65) {
            build(g, dst_temp(pick_temp(g)));
            return;
        }
        if (k < 72) {
            if (!g->fp) {
                emit_arl(g);
                return;
            }
            /* KIL: a vector operand; any lane < 0 discards */
            unsigned kil = 0;
            while (strcmp(ag_ops[kil].name, "KIL") != 0)
                kil++;
            emit_op(g, kil, (struct dst){NULL, -1, -1}, 0);
            return;
        }
        if (k < 78) {
            /* an output written early; the epilogue may overwrite it */
            const struct spell *s = &g->out_spell[below(r, g->nout_spell)];
            emit_op(g, pick_op(g, true), dst_out(s), rand_mask(r));
            return;
        }
        if (k < 84) {
            /* a declaration between instructions */
            g->features |= AG_F_LATE_DECL;
            unsigned d = below(r, 5);
            if (d == 0 && g->ntemps < MAX_TEMPS)
                decl_temp(g, 1 + below(r, 2));
            else if (d == 1)
                decl_param(g);
            else if (d == 2)
                decl_attrib(g);
            else if (d == 3)
                decl_output(g);
            else
                decl_alias(g);
            return;
        }
        if (k < 88) {
            gen_printf(&g->t, "# comment %u\n", below(r, 1000));
            return;
        }
        if (k < 100) {
            /* a texture instruction into a temp (fp), else arithmetic */
            if (!g->fp || !g->nunits || g->ntex_instr >= 6)
                continue;
            unsigned op;
            do
                op = pick_op(g, true);
            while (!ag_ops[op].tex);
            emit_op(g, op, dst_temp(pick_temp(g)), rand_mask(r));
            return;
        }
    }
}

static void epilogue(struct gen *g)
{
    struct rng *r = &g->r;
    for (unsigned o = 0; o < g->noutputs; o++) {
        /* one spelling of this output */
        unsigned n = 0, pick;
        for (unsigned i = 0; i < g->nout_spell; i++)
            n += g->out_spell[i].of == (int)o;
        pick = below(r, n);
        struct dst s = {NULL, -1, -1};
        for (unsigned i = 0; i < g->nout_spell; i++)
            if (g->out_spell[i].of == (int)o && pick-- == 0)
                s = dst_out(&g->out_spell[i]);
        const char *c = g->outputs[o].canon;
        if (strcmp(c, "result.fogcoord") == 0 || strcmp(c, "result.pointsize") == 0 ||
            strcmp(c, "result.depth") == 0) {
            /* the lane that counts (x, or z for the depth), or all */
            unsigned m = strcmp(c, "result.depth") == 0 ? 4 : 1;
            emit_op(g, pick_op(g, true), s, chance(r, 50) ? m : 0xf);
            continue;
        }
        if (chance(r, 10)) {
            /* leave some lanes unwritten: every engine prints 0 there */
            g->features |= AG_F_PARTIAL_OUTPUT;
            unsigned parts[4];
            unsigned np = partition(r, parts);
            if (np == 1)
                emit_op(g, pick_op(g, true), s, rand_mask(r));
            for (unsigned i = 0; i + 1 < np; i++)
                emit_op(g, pick_op(g, true), s, parts[i]);
            continue;
        }
        build(g, s);
    }
}

/* ------------------------------------------------------------------ */
/* Inputs JSON.                                                        */

static void put_float(struct gen_buf *b, float f)
{
    if (isnan(f))
        gen_printf(b, "\"nan\"");
    else if (isinf(f))
        gen_printf(b, f > 0 ? "\"inf\"" : "\"-inf\"");
    else
        gen_printf(b, "%.9g", (double)f);
}

static float rvalue(struct rng *r)
{
    unsigned k = below(r, 100);
    if (k < 66)
        return (float)((int)below(r, 97) - 48) / 16.0f;
    if (k < 88)
        return (float)((int)below(r, 20001) - 10000) / 2500.0f;
    /* the values where the instructions' definitions branch: signed zeros,
     * NaN, infinities, 1 (RCP/RSQ exactly), denormals, huge */
    static const float special[] = {0.0f, -0.0f, 1.0f, 0.5f, INFINITY, -INFINITY, NAN,
                                    1e30f, -1e30f, 1e-40f, 2.0f, -1.0f, 0.0f, -0.0f, NAN,
                                    -1e-40f, 128.0f, -128.0f};
    return special[below(r, sizeof(special) / sizeof(special[0]))];
}

static void put_vec(struct rng *r, struct gen_buf *b, unsigned n)
{
    gen_printf(b, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            gen_printf(b, ", ");
        put_float(b, rvalue(r));
    }
    gen_printf(b, "]");
}

static void texture_json(struct gen *g, struct gen_buf *b, unsigned unit, unsigned target)
{
    struct rng *r = &g->r;
    unsigned w = 1 + below(r, 4), h = 1 + below(r, 3), d = 1 + below(r, 2), n;
    const char *type = target_types[target];
    gen_printf(b, "\"texture[%u]\": {\"type\": \"%s\", \"width\": %u", unit, type, w);
    if (strcmp(type, "1d") == 0) {
        n = w;
        if (chance(r, 50))
            gen_printf(b, ", \"height\": 1");
    } else if (strcmp(type, "cube") == 0) {
        n = 6 * w * w;
        gen_printf(b, ", \"height\": %u", w);
    } else if (strcmp(type, "3d") == 0) {
        n = w * h * d;
        gen_printf(b, ", \"height\": %u, \"depth\": %u", h, d);
    } else {
        n = w * h;
        gen_printf(b, ", \"height\": %u", h);
    }
    gen_printf(b, ", \"texels\": [");
    bool shadow = target >= 5;
    for (unsigned k = 0; k < n; k++) {
        if (k)
            gen_printf(b, ", ");
        if (shadow && chance(r, 70)) /* depths */
            gen_printf(b, "[%g]", (double)below(r, 17) / 16.0);
        else
            put_vec(r, b, 1 + below(r, 4));
    }
    gen_printf(b, "]}");
}

/* The value of an input component for invocation i: vertex programs any
 * value; fragment programs on a plane per 32 invocations (or constant) when
 * `plane` is set, so the Gen engine can run them as full-width threads. */
struct comp_plane {
    bool plane;
    float a, b, c0, k;
};

static void inputs_json(struct gen *g, struct gen_buf *b)
{
    struct rng *r = &g->r;
    bool first = true;
    gen_printf(b, "{\n\"constants\": {");
    for (unsigned n = 0; n < NUM_ENV; n++)
        if (g->env[n] && chance(r, 90)) {
            gen_printf(b, "%s\n  \"program.env[%u]\": ", first ? "" : ",", n);
            put_vec(r, b, 1 + below(r, 4));
            first = false;
        }
    for (unsigned n = 0; n < NUM_LOCAL; n++)
        if (g->local[n] && chance(r, 90)) {
            gen_printf(b, "%s\n  \"program.local[%u]\": ", first ? "" : ",", n);
            put_vec(r, b, 1 + below(r, 4));
            first = false;
        }
    /* the options read state the program may not name */
    if (g->options & AG_O_POSITION_INVARIANT)
        for (unsigned row = 0; row < 4; row++) {
            char s[NAME_LEN];
            snprintf(s, sizeof(s), "state.matrix.mvp.row[%u]", row);
            note_state(g, s, false);
        }
    if (g->options & (AG_O_FOG_EXP | AG_O_FOG_EXP2 | AG_O_FOG_LINEAR)) {
        note_state(g, "state.fog.params", false);
        note_state(g, "state.fog.color", false);
    }
    for (unsigned i = 0; i < g->nstate; i++) {
        if (chance(r, 40)) {
            g->features |= AG_F_STATE_DEFAULT;
            continue;
        }
        g->features |= AG_F_STATE_GIVEN;
        gen_printf(b, "%s\n  \"%s\": [", first ? "" : ",", g->state[i]);
        unsigned n = 1 + below(r, 4);
        bool nonzero = false;
        for (unsigned c = 0; c < n; c++) {
            float v = rvalue(r);
            gen_printf(b, c ? ", " : "");
            put_float(b, v);
            nonzero |= c < 3 && v != 0.0f;
        }
        gen_printf(b, "]");
        first = false;
        /* ARB_fog_exp/exp2 blend f * (c - fog) + fog: with a fog colour
         * other than 0 the float factor's last-bit error is not relative to
         * the result any more (f near 1, c near 0 cancels) */
        if (nonzero && strcmp(g->state[i], "state.fog.color") == 0 &&
            (g->options & (AG_O_FOG_EXP | AG_O_FOG_EXP2)))
            for (unsigned o = 0; o < g->noutputs; o++)
                if (strcmp(g->outputs[o].canon, "result.color") == 0)
                    for (unsigned c = 0; c < 3; c++)
                        g->out_stat[o][c] = ST_UNJUDGED;
    }
    gen_printf(b, "}");
    if (g->nunits) {
        gen_printf(b, ",\n\"textures\": {");
        bool f2 = true;
        for (unsigned u = 0; u < g->nunits; u++) {
            if (chance(r, 5))
                continue; /* a unit without a texture samples (0, 0, 0, 1) */
            gen_printf(b, "%s\n  ", f2 ? "" : ",");
            texture_json(g, b, g->units[u], g->unit_target[u]);
            f2 = false;
        }
        gen_printf(b, "}");
    }
    unsigned ninv;
    if (!g->fp) {
        ninv = 1 + below(r, 12);
    } else {
        static const unsigned counts[] = {4, 8, 8, 8, 6, 12, 16, 32, 3};
        ninv = counts[below(r, sizeof(counts) / sizeof(counts[0]))];
    }
    bool planes = g->fp && chance(r, 60);
    if (planes)
        g->features |= AG_F_PLANE_INPUTS;
    struct comp_plane cp[MAX_INPUTS][4];
    gen_printf(b, ",\n\"invocations\": [\n");
    for (unsigned i = 0; i < ninv; i++) {
        if (planes && i % 32 == 0)
            for (unsigned in = 0; in < g->ninputs; in++)
                for (unsigned c = 0; c < 4; c++) {
                    cp[in][c].plane = chance(r, 75);
                    cp[in][c].a = (float)((int)below(r, 33) - 16) / 8.0f;
                    cp[in][c].b = (float)((int)below(r, 33) - 16) / 8.0f;
                    cp[in][c].c0 = (float)((int)below(r, 161) - 80) / 16.0f;
                    cp[in][c].k = rvalue(r);
                }
        gen_printf(b, "  {");
        bool f2 = true;
        for (unsigned in = 0; in < g->ninputs; in++) {
            const struct binding *bi = &g->inputs[in];
            /* fragment.position is always given: its default (0, 0, 0, 1) is
             * no pixel centre, which the Gen engine rightly refuses */
            if (!planes && !bi->addr && chance(r, 4) && strcmp(bi->canon, "fragment.position") != 0)
                continue; /* not given: (0, 0, 0, 1) */
            gen_printf(b, "%s\"%s\": ", f2 ? "" : ", ", bi->canon);
            f2 = false;
            if (bi->addr) {
                /* floor of these is -3..4: A0 stays in the arrays */
                gen_printf(b, "[");
                for (unsigned c = 0; c < 4; c++)
                    gen_printf(b, "%s%g", c ? ", " : "", (double)below(r, 32) / 4.0 - 3.0);
                gen_printf(b, "]");
            } else if (strcmp(bi->canon, "fragment.position") == 0) {
                /* the pixel's centre in the quad layout (the interpreter uses
                 * whatever is given; the Gen engine refuses fragment.position) */
                float x, y;
                st_gen_run_barycentric(i, &x, &y);
                double off = (g->options & AG_O_PIXEL_CENTER_INTEGER) ? 0.0 : 0.5;
                gen_printf(b, "[%g, %g, ", x * 16.0 + off, y * 8.0 + off);
                put_float(b, (float)below(r, 65) / 64.0f);
                gen_printf(b, ", 1]");
            } else if (planes) {
                float x, y;
                st_gen_run_barycentric(i, &x, &y);
                gen_printf(b, "[");
                for (unsigned c = 0; c < 4; c++) {
                    const struct comp_plane *p = &cp[in][c];
                    if (c)
                        gen_printf(b, ", ");
                    put_float(b, p->plane ? fmaf(p->a, x, fmaf(p->b, y, p->c0)) : p->k);
                }
                gen_printf(b, "]");
            } else {
                put_vec(r, b, chance(r, 85) ? 4 : 1 + below(r, 3));
            }
        }
        gen_printf(b, "}%s\n", i + 1 < ninv ? "," : "");
    }
    gen_printf(b, "]\n}\n");
}

static int generate(uint64_t seed, const uint8_t *bytes, size_t nbytes, int kind, struct ag_program *out)
{
    struct gen *g = calloc(1, sizeof(*g));
    if (!g)
        return -1;
    g->r.bytes = bytes;
    g->r.nbytes = bytes ? nbytes : 0;
    /* splitmix64 of the seed: nearby seeds give unrelated streams */
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    g->r.s = (z ^ (z >> 31)) | 1;
    struct rng *r = &g->r;
    g->fp = kind == AG_FP || (kind != AG_VP && chance(r, 50));
    g->rgba = g->fp && chance(r, 40);
    struct gen_buf *b = &g->t;
    gen_printf(b, "%s\n", g->fp ? "!!ARBfp1.0" : "!!ARBvp1.0");
    if (chance(r, 20))
        gen_printf(b, "# random program, seed %llu\n", (unsigned long long)seed);
    choose_options(g);
    put_options(g);
    choose_inputs(g);
    choose_outputs(g);
    choose_units(g);

    /* declarations: attributes, parameters, outputs, the address register,
     * temporaries (initialised), aliases */
    unsigned nattr = below(r, 3);
    for (unsigned i = 0; i < nattr; i++)
        decl_attrib(g);
    unsigned nparam = 1 + below(r, 4);
    for (unsigned i = 0; i < nparam; i++)
        decl_param(g);
    if (g->fp && chance(r, 30))
        decl_output(g);
    if (!g->fp) {
        if (chance(r, 30))
            decl_output(g);
        char name[NAME_LEN];
        fresh_name(g, "A", name);
        gen_printf(b, "ADDRESS %s;\n", name);
        snprintf(g->addr[g->naddr++], NAME_LEN, "%s", name);
        emit_arl(g);
    }
    /* now and then a long program with many live temporaries: register
     * pressure (and spilling) in the Gen back end */
    bool big = chance(r, 6);
    g->const_heavy = chance(r, 12);
    decl_temp(g, big ? 8 + below(r, 12) : 2 + below(r, 4));
    if (chance(r, 40))
        decl_alias(g);

    unsigned body = big ? 60 + below(r, 100) : 6 + below(r, 24);
    for (unsigned i = 0; i < body; i++)
        statement(g);
    epilogue(g);
    gen_printf(b, "END\n");
    if (chance(r, 5))
        gen_printf(b, "text after END is ignored\n");

    struct gen_buf in = {0};
    inputs_json(g, &in);
    int rc = 0;
    if (g->t.oom || in.oom || !g->t.p || !in.p) {
        free(g->t.p);
        free(in.p);
        rc = -1;
    } else {
        out->kind = g->fp ? AG_FP : AG_VP;
        out->text = g->t.p;
        out->inputs = in.p;
        out->ops = g->ops;
        out->features = g->features;
        out->options = g->options;
        out->targets = g->targets;
        out->num_unjudged = 0;
        for (unsigned o = 0; o < g->noutputs && o < 16; o++) {
            unsigned lanes = 0;
            for (unsigned c = 0; c < 4; c++)
                if (g->out_stat[o][c] == ST_UNJUDGED)
                    lanes |= 1u << c;
            if (lanes) {
                struct ag_unjudged *u = &out->unjudged[out->num_unjudged++];
                snprintf(u->output, sizeof(u->output), "%s", g->outputs[o].canon);
                u->lanes = lanes;
            }
        }
        out->kil_unjudged = g->kil_unjudged;
    }
    free(g);
    return rc;
}

void ag_program_free(struct ag_program *p)
{
    if (!p)
        return;
    free(p->text);
    free(p->inputs);
    p->text = p->inputs = NULL;
}

int ag_generate(uint64_t seed, int kind, struct ag_program *out)
{
    return generate(seed, NULL, 0, kind, out);
}

int ag_generate_bytes(const uint8_t *bytes, size_t nbytes, int kind, struct ag_program *out)
{
    return generate(rng_bytes_hash(bytes, nbytes), bytes, nbytes, kind, out);
}
