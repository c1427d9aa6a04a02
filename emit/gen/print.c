/*
 * gen/print.c — IGA assembly text and the shader-db statistics line.
 *
 * gen_op_info is the one table of instruction fields: the printer, the
 * dead-code pass and the allocator all read it.  A logical SIMD32 ALU
 * instruction prints as its two SIMD16 halves, (16|M0) and (16|M16), the
 * second with every per-channel operand 16 elements further on (64 bytes,
 * two GRFs, for a dword; 32 for a half): Gen9 regions may span at most two
 * registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_ir.h"

const struct gen_op_info gen_op_info[GOP_COUNT] = {
    /*             name     nsrc dst   flow   send   mods   sat */
    [GOP_MOV] = {"mov", 1, true, false, false, true, true},
    [GOP_ADD] = {"add", 2, true, false, false, true, true},
    [GOP_MUL] = {"mul", 2, true, false, false, true, true},
    [GOP_SEL] = {"sel", 2, true, false, false, true, true},
    [GOP_CMP] = {"cmp", 2, true, false, false, true, false},
    [GOP_AND] = {"and", 2, true, false, false, false, false},
    [GOP_OR] = {"or", 2, true, false, false, false, false},
    [GOP_XOR] = {"xor", 2, true, false, false, false, false},
    [GOP_NOT] = {"not", 1, true, false, false, false, false},
    [GOP_SHL] = {"shl", 2, true, false, false, false, false},
    [GOP_SHR] = {"shr", 2, true, false, false, false, false},
    [GOP_ASR] = {"asr", 2, true, false, false, false, false},
    [GOP_FRC] = {"frc", 1, true, false, false, true, true},
    [GOP_RNDD] = {"rndd", 1, true, false, false, true, true},
    [GOP_RNDE] = {"rnde", 1, true, false, false, true, true},
    [GOP_RNDZ] = {"rndz", 1, true, false, false, true, true},
    [GOP_MAD] = {"mad", 3, true, false, false, true, true},
    [GOP_PLN] = {"pln", 2, true, false, false, false, true},
    [GOP_MATH] = {"math", 2, true, false, false, true, true},
    [GOP_SEND] = {"send", 1, true, false, true, false, false},
    [GOP_SENDC] = {"sendc", 1, true, false, true, false, false},
    [GOP_SENDS] = {"sends", 2, true, false, true, false, false},
    [GOP_IF] = {"if", 0, false, true, false, false, false},
    [GOP_ELSE] = {"else", 0, false, true, false, false, false},
    [GOP_ENDIF] = {"endif", 0, false, true, false, false, false},
    [GOP_WHILE] = {"while", 0, false, true, false, false, false},
    [GOP_BREAK] = {"break", 0, false, true, false, false, false},
    [GOP_CONT] = {"cont", 0, false, true, false, false, false},
    [GOP_LABEL] = {"", 0, false, false, false, false, false},
    [GOP_CSEL] = {"csel", 3, true, false, false, true, true},
    [GOP_LRP] = {"lrp", 3, true, false, false, true, true},
    [GOP_MOVI] = {"movi", 3, true, false, false, false, false},
    [GOP_BCAST] = {"bcast", 1, true, false, false, false, false},
};

const char *const gen_math_name[] = {"inv", "log", "exp", "sqt", "rsqt", "sin", "cos", "pow", "fdiv"};
const char *const gen_cmod_name[] = {"", "eq", "ne", "gt", "ge", "lt", "le"};
const char *const gen_type_name[] = {"f", "d", "ud", "uw", "w", "v", "hf", "vf", "uq"};

static unsigned type_size(uint8_t t)
{
    return gen_type_size((enum gen_type)t);
}

/* ------------------------------------------------------------------ */
/* JIP / UIP.                                                          */

/*
 * Mesa's rules (brw_set_uip_jip): IF -> after its ELSE (or the ENDIF) and
 * the ENDIF; ELSE -> the ENDIF; ENDIF -> the next block end enclosing it;
 * BREAK/CONT -> the innermost block end and the loop's WHILE; WHILE -> the
 * body's start.  Linear: the closing instruction of every IF/LABEL from one
 * pass with a stack, the next block end of every instruction from one
 * backward pass that skips whole nested constructs.
 */
void gen_resolve_flow(struct gen_program *p)
{
    unsigned n = p->ninst;
    int32_t *close = malloc((n + 1) * sizeof(*close)); /* IF/LABEL -> ENDIF/WHILE */
    int32_t *else_of = malloc((n + 1) * sizeof(*else_of)); /* IF -> ELSE */
    int32_t *next_end = malloc((n + 1) * sizeof(*next_end)); /* next block end after k */
    int32_t *stack = malloc((n + 1) * sizeof(*stack));
    if (!close || !else_of || !next_end || !stack) {
        p->oom = true;
        goto out;
    }
    unsigned sp = 0;
    for (unsigned k = 0; k < n; k++) {
        close[k] = else_of[k] = -1;
        switch (p->inst[k].op) {
        case GOP_IF:
        case GOP_LABEL:
            stack[sp++] = (int32_t)k;
            break;
        case GOP_ELSE:
            if (sp)
                else_of[stack[sp - 1]] = (int32_t)k;
            break;
        case GOP_ENDIF:
        case GOP_WHILE:
            if (sp)
                close[stack[--sp]] = (int32_t)k;
            break;
        default:
            break;
        }
    }
    for (unsigned k = n; k-- > 0;) {
        unsigned j = k + 1;
        if (j >= n) {
            next_end[k] = -1;
            continue;
        }
        uint8_t op = p->inst[j].op;
        if (op == GOP_ENDIF || op == GOP_WHILE || op == GOP_ELSE)
            next_end[k] = (int32_t)j;
        else if (op == GOP_IF || op == GOP_LABEL)
            next_end[k] = close[j] >= 0 ? next_end[close[j]] : -1;
        else
            next_end[k] = next_end[j];
    }
    sp = 0;
    for (unsigned k = 0; k < n; k++) {
        struct gen_inst *i = &p->inst[k];
        switch (i->op) {
        case GOP_IF:
            if (close[k] >= 0) {
                i->uip = close[k];
                i->jip = else_of[k] >= 0 ? else_of[k] + 1 : close[k];
                if (else_of[k] >= 0)
                    p->inst[else_of[k]].jip = p->inst[else_of[k]].uip = close[k];
            }
            break;
        case GOP_LABEL:
            stack[sp++] = (int32_t)k;
            if (close[k] >= 0)
                p->inst[close[k]].jip = (int32_t)k; /* WHILE -> the body's start */
            break;
        case GOP_WHILE:
            if (sp)
                sp--;
            break;
        case GOP_ENDIF:
            i->jip = next_end[k] >= 0 ? next_end[k] : (int32_t)k + 1;
            break;
        case GOP_BREAK:
        case GOP_CONT:
            i->jip = next_end[k];
            i->uip = sp ? close[stack[sp - 1]] : -1;
            break;
        default:
            break;
        }
    }
out:
    free(close);
    free(else_of);
    free(next_end);
    free(stack);
}

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

bool gen_opnd_per_channel(const struct gen_program *p, const struct gen_inst *i,
                          const struct gen_opnd *o)
{
    if (i->exec == 1)
        return false;
    if (o->region >= GR_VEC)
        return o->kind == GO_VREG || o->kind == GO_FIXED;
    if (o->kind == GO_VREG)
        return o->region == GR_AUTO && !p->vreg[o->vreg].uniform;
    return false;
}

uint32_t gen_opnd_addr(const struct gen_program *p, const struct gen_opnd *o)
{
    if (o->kind == GO_FIXED)
        return o->off;
    int32_t loc = p->vreg[o->vreg].loc;
    return (uint32_t)(loc < 0 ? 0 : loc) + o->off;
}

/*
 * One line of text, built by hand: the printer writes every instruction of
 * the kernel, and a formatted print per field cost more than everything
 * else in the back end.  No line comes near the size (a send with both
 * sources and {EOT} is under 90 characters).
 */
struct line {
    char c[256];
    unsigned n;
};

static void put_s(struct line *l, const char *s)
{
    while (*s && l->n < sizeof(l->c))
        l->c[l->n++] = *s++;
}

static void put_c(struct line *l, char ch)
{
    if (l->n < sizeof(l->c))
        l->c[l->n++] = ch;
}

static void put_u(struct line *l, uint32_t v)
{
    char t[12];
    unsigned k = 0;
    do {
        t[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        put_c(l, t[--k]);
}

static void put_d(struct line *l, int32_t v)
{
    if (v < 0) {
        put_c(l, '-');
        put_u(l, 0u - (uint32_t)v);
    } else {
        put_u(l, (uint32_t)v);
    }
}

/* Upper-case hex, at least `digits` digits. */
static void put_x(struct line *l, uint32_t v, unsigned digits)
{
    char t[8];
    unsigned k = 0;
    do {
        t[k++] = "0123456789ABCDEF"[v & 15];
        v >>= 4;
    } while (v);
    while (k < digits)
        t[k++] = '0';
    while (k)
        put_c(l, t[--k]);
}

/* Spaces up to column `from + width` (a left-justified field). */
static void pad(struct line *l, unsigned from, unsigned width)
{
    while (l->n < from + width)
        put_c(l, ' ');
}

static void print_imm(struct line *l, const struct gen_opnd *o)
{
    const char *t = gen_type_name[o->type];
    if (o->type == GT_F) {
        float f;
        memcpy(&f, &o->imm, 4);
        char tmp[48];
        snprintf(tmp, sizeof(tmp), "%.9g", (double)f);
        float back = strtof(tmp, NULL);
        bool plain = f == f && f - f == 0 && memcmp(&back, &f, 4) == 0;
        if (plain && !strchr(tmp, 'e') && !strchr(tmp, '.')) {
            put_s(l, tmp);
            put_s(l, ".0:f");
        } else if (plain && !strchr(tmp, 'e')) {
            put_s(l, tmp);
            put_s(l, ":f");
        } else {
            put_s(l, "0x");
            put_x(l, o->imm, 8);
            put_s(l, ":f");
        }
        return;
    }
    if (o->type == GT_HF) { /* IGA reads a half immediate as its bits */
        put_s(l, "0x");
        put_x(l, o->imm & 0xffffu, 4);
        put_s(l, ":hf");
        return;
    }
    if (o->type == GT_D || o->type == GT_W) {
        put_d(l, (int32_t)o->imm);
    } else if (o->type == GT_V || o->type == GT_VF) { /* IGA reads :vf as hex only */
        put_s(l, "0x");
        put_x(l, o->imm, 8);
    } else {
        put_s(l, "0x");
        put_x(l, o->imm, 1);
    }
    put_c(l, ':');
    put_s(l, t);
}

/* rN.sub in units of the type */
static void put_reg(struct line *l, uint32_t a, unsigned ts)
{
    put_c(l, 'r');
    put_u(l, a / GEN_GRF_SIZE);
    put_c(l, '.');
    put_u(l, (a % GEN_GRF_SIZE) / ts);
}

/* `half`: the elements a per-channel operand starts further on (16 in a
 * SIMD32 instruction's second half) */
static void print_src(struct line *l, const struct gen_program *p, const struct gen_inst *i,
                      const struct gen_opnd *o, uint32_t half)
{
    if (o->neg)
        put_c(l, '-');
    if (o->abs)
        put_s(l, "(abs)");
    if (o->kind == GO_IMM) {
        print_imm(l, o);
        return;
    }
    if (o->kind == GO_NULL) {
        put_s(l, "null<0;1,0>:");
        put_s(l, gen_type_name[o->type]);
        return;
    }
    bool vec = gen_opnd_per_channel(p, i, o);
    uint32_t a = gen_opnd_addr(p, o) + (vec ? half * type_size(o->type) : 0);
    bool three = gen_op_info[i->op].nsrc == 3;
    static const char *const special[] = {[GR_DDX] = "<2;2,0>", [GR_DDY] = "<0;2,1>",
                                          [GR_SUBSPAN] = "<2;4,0>", [GR_VEC16] = "<16;16,1>",
                                          [GR_PAIRS] = "<4;2,1>", [GR_REP2] = "<1;2,0>",
                                          [GR_REP8] = "<0;8,1>", [GR_SPLAT2] = "<1;8,0>"};
    const char *rg = three ? (vec ? "<2;1>" : "<0;0>") : vec ? "<8;8,1>" : "<0;1,0>";
    if (vec && o->region > GR_VEC)
        rg = special[o->region];
    else if (vec && !three && (i->exec == 4 || type_size(o->type) == 8))
        rg = "<4;4,1>"; /* no wider than the execution size; a row of qwords within a GRF */
    if (three && o == &i->src[2])
        rg = vec ? "<1>" : "<0>";
    put_reg(l, a, type_size(o->type));
    put_s(l, rg);
    put_c(l, ':');
    put_s(l, gen_type_name[o->type]);
}

static void print_dst(struct line *l, const struct gen_program *p, const struct gen_inst *i,
                      uint32_t half)
{
    const struct gen_opnd *o = &i->dst;
    if (o->kind == GO_NULL || o->kind == GO_NONE) {
        put_s(l, "null<1>:");
        put_s(l, gen_type_name[o->type]);
        return;
    }
    unsigned ts = type_size(o->type);
    /* a half of a uniform value is the low word of its dword: stride 2
     * keeps a conversion to it legal wherever the dword is (a packed half
     * destination of a mixed float instruction must be 16-byte aligned) */
    bool strided = o->type == GT_HF && i->exec == 1 && i->src[0].type != GT_HF;
    put_reg(l, gen_opnd_addr(p, o) + (i->exec > 1 ? half * ts : 0), ts);
    put_s(l, strided ? "<2>:" : "<1>:");
    put_s(l, gen_type_name[o->type]);
}

/* (W), (f0.0), (~f1.0), (W&f0.0) ... in a field of 10 */
static void print_pred(struct line *l, const struct gen_inst *i)
{
    unsigned from = l->n;
    if (i->pred != GP_NONE || i->nomask) {
        put_c(l, '(');
        if (i->nomask)
            put_c(l, 'W');
        if (i->pred != GP_NONE) {
            if (i->nomask)
                put_c(l, '&');
            if (i->pred == GP_INVERT)
                put_c(l, '~');
            put_c(l, 'f');
            put_u(l, i->flag);
            put_s(l, ".0");
        }
        put_c(l, ')');
    }
    pad(l, from, 10);
}

static void print_one(struct st_buf *b, const struct gen_program *p, const struct gen_inst *i,
                      unsigned exec, unsigned group, uint32_t half)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    struct line l;
    l.n = 0;
    print_pred(&l, i);
    if (i->op == GOP_MATH) {
        put_s(&l, "math.");
        put_s(&l, gen_math_name[i->math]);
    } else {
        put_s(&l, oi->name);
    }
    put_c(&l, ' ');
    unsigned from = l.n;
    put_c(&l, '(');
    put_u(&l, exec);
    put_s(&l, "|M");
    put_u(&l, group);
    put_c(&l, ')');
    pad(&l, from, 10);
    if (oi->flow) {
        put_s(&l, " L");
        put_d(&l, i->jip);
        if (i->op != GOP_ENDIF && i->op != GOP_WHILE) {
            put_s(&l, " L");
            put_d(&l, i->uip);
        }
    } else if (oi->send) {
        if (i->dst.kind == GO_VREG) {
            put_s(&l, " r");
            put_u(&l, gen_opnd_addr(p, &i->dst) / GEN_GRF_SIZE);
            put_c(&l, ':');
            put_s(&l, gen_type_name[i->dst.type]);
        } else {
            put_s(&l, i->op == GOP_SENDC ? " null:uw" : " null:ud");
        }
        put_s(&l, " r");
        put_u(&l, gen_opnd_addr(p, &i->src[0]) / GEN_GRF_SIZE);
        if (i->op == GOP_SENDS) {
            put_s(&l, " r");
            put_u(&l, gen_opnd_addr(p, &i->src[1]) / GEN_GRF_SIZE);
        }
        put_s(&l, " 0x");
        put_x(&l, i->exdesc | (i->eot ? 0x20u : 0u), 1);
        put_s(&l, " 0x");
        put_x(&l, i->desc, 8);
        if (i->eot)
            put_s(&l, " {EOT}");
    } else {
        put_c(&l, ' ');
        if (i->cmod) {
            put_c(&l, '(');
            put_s(&l, gen_cmod_name[i->cmod]);
            put_s(&l, ")f");
            put_u(&l, i->flag);
            put_s(&l, ".0 ");
        }
        if (i->sat)
            put_s(&l, "(sat)");
        print_dst(&l, p, i, half);
        for (unsigned s = 0; s < oi->nsrc; s++) {
            if (i->src[s].kind == GO_NONE)
                break;
            put_c(&l, ' ');
            print_src(&l, p, i, &i->src[s], half);
        }
    }
    put_c(&l, '\n');
    st_buf_append(b, l.c, l.n);
}

void gen_print(const struct gen_program *p, struct st_buf *out)
{
    bool *is_target = calloc(p->ninst + 1, sizeof(*is_target));
    if (!is_target) {
        out->oom = true;
        return;
    }
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (!gen_op_info[i->op].flow)
            continue;
        if (i->jip >= 0 && (unsigned)i->jip <= p->ninst)
            is_target[i->jip] = true;
        if ((i->op != GOP_ENDIF && i->op != GOP_WHILE) && i->uip >= 0 &&
            (unsigned)i->uip <= p->ninst)
            is_target[i->uip] = true;
    }
    for (unsigned k = 0; k <= p->ninst; k++) {
        if (is_target[k]) {
            struct line l;
            l.n = 0;
            put_c(&l, 'L');
            put_u(&l, k);
            put_s(&l, ":\n");
            st_buf_append(out, l.c, l.n);
        }
        if (k == p->ninst)
            break;
        const struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_LABEL)
            continue;
        if (i->op == GOP_MOVI || i->op == GOP_BCAST) {
            gen_indirect_print(p, i, out);
            continue;
        }
        bool split = i->exec == 32 && !gen_op_info[i->op].flow && !gen_op_info[i->op].send;
        if (split) { /* the second half: 16 elements on */
            print_one(out, p, i, 16, 0, 0);
            print_one(out, p, i, 16, 16, 16);
        } else {
            print_one(out, p, i, i->exec, i->group, 0);
        }
    }
    free(is_target);
}

/* ------------------------------------------------------------------ */
/* Statistics.                                                         */

/* Does the kernel compute in half floats anywhere? */
static bool uses_half(const struct gen_program *p)
{
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->dst.type == GT_HF || i->src[0].type == GT_HF || i->src[1].type == GT_HF ||
            i->src[2].type == GT_HF)
            return true;
    }
    return false;
}

/* cr0.0 bit 7 keeps f32 denormals: the reset value flushes them, while
 * both float rules keep them (the interpreter and the JIT do); IGC sets
 * the same bit.  Bit 10 keeps half denormals, for a kernel that computes
 * in :hf (--pp=fp16: the interpreter's halves go down to 2^-24). */
uint32_t gen_cr0_bits(const struct gen_program *p)
{
    uint32_t want = 0x80u | (uses_half(p) ? 0x400u : 0u);
    uint32_t have = p->layout.stage == ST_PS ? (uint32_t)GEN_PS_DISPATCH_CR0 : 0u;
    return want & ~have;
}

void gen_print_prologue(const struct gen_program *p, struct st_buf *out)
{
    uint32_t bits = gen_cr0_bits(p);
    if (bits)
        st_buf_printf(out, "(W)       or (1|M0)      cr0.0<1>:ud cr0.0<0;1,0>:ud 0x%X:ud {Switch}\n",
                      (unsigned)bits);
}

/* Native instructions (SIMD32 ALU halves count twice, the loop label not
 * at all, the cr0 prologue once when there is one),
 * messages (scratch writes and reads are the spills:fills, not sends, as
 * brw counts them), loops, and gen/perf.c's cycle estimate. */
void gen_count(const struct gen_program *p, unsigned *insts, unsigned *sends, unsigned *loops,
               unsigned *cycles)
{
    unsigned n = gen_cr0_bits(p) ? 1 : 0, s = 0, l = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_LABEL)
            continue;
        if (i->op == GOP_MOVI || i->op == GOP_BCAST) {
            n += gen_indirect_count(p, i); /* the a0 set-up and the moves, as printed */
            continue;
        }
        bool split = i->exec == 32 && !gen_op_info[i->op].flow && !gen_op_info[i->op].send;
        n += split ? 2 : 1;
        if (gen_op_info[i->op].send)
            s += !i->spill && !i->fill;
        else if (i->op == GOP_WHILE)
            l++;
    }
    *insts = n;
    *sends = s;
    *loops = l;
    *cycles = gen_perf_cycles(p);
}

void gen_print_stats(const struct gen_program *p, const char *name, struct st_buf *out)
{
    unsigned n, s, l, c;
    gen_count(p, &n, &s, &l, &c);
    st_buf_printf(out, "%s: SIMD%u shader: %u instructions. %u loops. %u cycles. %u:%u spills:fills, %u sends",
                  name, p->simd, n, l, c, p->spills, p->fills, s);
}
