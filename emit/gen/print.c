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
};

const char *const gen_math_name[] = {"inv", "log", "exp", "sqt", "rsqt", "sin", "cos", "pow", "fdiv"};
const char *const gen_cmod_name[] = {"", "eq", "ne", "gt", "ge", "lt", "le"};
const char *const gen_type_name[] = {"f", "d", "ud", "uw", "w", "v", "hf"};

static unsigned type_size(uint8_t t)
{
    return gen_type_size((enum gen_type)t);
}

/* ------------------------------------------------------------------ */
/* JIP / UIP.                                                          */

/* The next ENDIF/ELSE/WHILE closing the block that contains instruction k. */
static int32_t next_block_end(const struct gen_program *p, unsigned k)
{
    int depth = 0;
    for (unsigned j = k + 1; j < p->ninst; j++) {
        switch (p->inst[j].op) {
        case GOP_IF:
        case GOP_LABEL:
            depth++;
            break;
        case GOP_ENDIF:
        case GOP_WHILE:
            if (depth == 0)
                return (int32_t)j;
            depth--;
            break;
        case GOP_ELSE:
            if (depth == 0)
                return (int32_t)j;
            break;
        default:
            break;
        }
    }
    return -1;
}

void gen_resolve_flow(struct gen_program *p)
{
    unsigned sp = 0;
    int32_t stack[512];
    int32_t else_of[512];
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        switch (i->op) {
        case GOP_IF:
        case GOP_LABEL:
            if (sp < 512) {
                else_of[sp] = -1;
                stack[sp++] = (int32_t)k;
            }
            break;
        case GOP_ELSE:
            if (sp)
                else_of[sp - 1] = (int32_t)k;
            break;
        case GOP_ENDIF:
            if (sp) {
                sp--;
                struct gen_inst *f = &p->inst[stack[sp]];
                f->uip = (int32_t)k;
                f->jip = else_of[sp] >= 0 ? else_of[sp] + 1 : (int32_t)k;
                if (else_of[sp] >= 0)
                    p->inst[else_of[sp]].jip = p->inst[else_of[sp]].uip = (int32_t)k;
            }
            {
                int32_t e = next_block_end(p, k);
                i->jip = e >= 0 ? e : (int32_t)k + 1;
            }
            break;
        case GOP_WHILE:
            if (sp)
                i->jip = stack[--sp];
            break;
        default:
            break;
        }
    }
    /* break/cont: JIP = innermost block end, UIP = the loop's WHILE */
    for (unsigned k = 0; k < p->ninst; k++) {
        struct gen_inst *i = &p->inst[k];
        if (i->op != GOP_BREAK && i->op != GOP_CONT)
            continue;
        i->jip = next_block_end(p, k);
        int depth = 0;
        i->uip = -1;
        for (unsigned j = k + 1; j < p->ninst; j++) {
            if (p->inst[j].op == GOP_LABEL)
                depth++;
            else if (p->inst[j].op == GOP_WHILE) {
                if (depth == 0) {
                    i->uip = (int32_t)j;
                    break;
                }
                depth--;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Operands.                                                           */

static bool per_channel(const struct gen_program *p, const struct gen_inst *i,
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

static uint32_t opnd_addr(const struct gen_program *p, const struct gen_opnd *o)
{
    if (o->kind == GO_FIXED)
        return o->off;
    int32_t loc = p->vreg[o->vreg].loc;
    return (uint32_t)(loc < 0 ? 0 : loc) + o->off;
}

static void print_imm(struct st_buf *b, const struct gen_opnd *o)
{
    const char *t = gen_type_name[o->type];
    if (o->type == GT_F) {
        float f;
        memcpy(&f, &o->imm, 4);
        char tmp[48];
        snprintf(tmp, sizeof(tmp), "%.9g", (double)f);
        float back = strtof(tmp, NULL);
        bool plain = f == f && f - f == 0 && memcmp(&back, &f, 4) == 0;
        if (plain && !strchr(tmp, 'e') && !strchr(tmp, '.'))
            st_buf_printf(b, "%s.0:f", tmp);
        else if (plain && !strchr(tmp, 'e'))
            st_buf_printf(b, "%s:f", tmp);
        else
            st_buf_printf(b, "0x%08X:f", o->imm);
        return;
    }
    if (o->type == GT_HF) { /* IGA reads a half immediate as its bits */
        st_buf_printf(b, "0x%04X:hf", o->imm & 0xffffu);
        return;
    }
    if (o->type == GT_D || o->type == GT_W)
        st_buf_printf(b, "%d:%s", (int32_t)o->imm, t);
    else if (o->type == GT_V)
        st_buf_printf(b, "0x%08X:v", o->imm);
    else
        st_buf_printf(b, "0x%X:%s", o->imm, t);
}

static void print_src(struct st_buf *b, const struct gen_program *p, const struct gen_inst *i,
                      const struct gen_opnd *o, uint32_t half)
{
    if (o->neg)
        st_buf_putc(b, '-');
    if (o->abs)
        st_buf_printf(b, "(abs)");
    if (o->kind == GO_IMM) {
        print_imm(b, o);
        return;
    }
    if (o->kind == GO_NULL) {
        st_buf_printf(b, "null<0;1,0>:%s", gen_type_name[o->type]);
        return;
    }
    bool vec = per_channel(p, i, o);
    unsigned ts = type_size(o->type);
    uint32_t a = opnd_addr(p, o) + (vec ? half * ts : 0);
    bool three = gen_op_info[i->op].nsrc == 3;
    static const char *const special[] = {[GR_DDX] = "<2;2,0>", [GR_DDY] = "<0;2,1>",
                                          [GR_SUBSPAN] = "<2;4,0>", [GR_VEC16] = "<16;16,1>"};
    const char *rg = three ? (vec ? "<2;1>" : "<0;0>") : vec ? "<8;8,1>" : "<0;1,0>";
    if (vec && o->region > GR_VEC)
        rg = special[o->region];
    if (three && o == &i->src[2])
        rg = vec ? "<1>" : "<0>";
    st_buf_printf(b, "r%u.%u%s:%s", a / GEN_GRF_SIZE, (a % GEN_GRF_SIZE) / ts, rg,
                  gen_type_name[o->type]);
}

static void print_dst(struct st_buf *b, const struct gen_program *p, const struct gen_inst *i,
                      uint32_t half)
{
    const struct gen_opnd *o = &i->dst;
    if (o->kind == GO_NULL || o->kind == GO_NONE) {
        st_buf_printf(b, "null<1>:%s", gen_type_name[o->type]);
        return;
    }
    unsigned ts = type_size(o->type);
    uint32_t a = opnd_addr(p, o) + (i->exec > 1 ? half * ts : 0);
    /* a half of a uniform value is the low word of its dword: stride 2
     * keeps a conversion to it legal wherever the dword is (a packed half
     * destination of a mixed float instruction must be 16-byte aligned) */
    bool strided = o->type == GT_HF && i->exec == 1 && i->src[0].type != GT_HF;
    st_buf_printf(b, "r%u.%u<%u>:%s", a / GEN_GRF_SIZE, (a % GEN_GRF_SIZE) / ts, strided ? 2 : 1,
                  gen_type_name[o->type]);
}

static void print_pred(struct st_buf *b, const struct gen_inst *i)
{
    char tmp[32] = "";
    if (i->pred != GP_NONE)
        snprintf(tmp, sizeof(tmp), "%s%sf%u.0", i->nomask ? "W&" : "",
                 i->pred == GP_INVERT ? "~" : "", (unsigned)i->flag);
    else if (i->nomask)
        snprintf(tmp, sizeof(tmp), "W");
    if (tmp[0]) {
        char full[40];
        snprintf(full, sizeof(full), "(%s)", tmp);
        st_buf_printf(b, "%-10s", full);
    } else {
        st_buf_printf(b, "%-10s", "");
    }
}

static void label_name(char *buf, size_t n, int32_t k)
{
    snprintf(buf, n, "L%d", k);
}

static void print_one(struct st_buf *b, const struct gen_program *p, const struct gen_inst *i,
                      unsigned exec, unsigned group, uint32_t half)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    print_pred(b, i);
    char name[24];
    if (i->op == GOP_MATH)
        snprintf(name, sizeof(name), "math.%s", gen_math_name[i->math]);
    else
        snprintf(name, sizeof(name), "%s", oi->name);
    char es[16];
    snprintf(es, sizeof(es), "(%u|M%u)", exec, group);
    st_buf_printf(b, "%s %-10s", name, es);
    if (oi->flow) {
        char j[16], u[16];
        label_name(j, sizeof(j), i->jip);
        label_name(u, sizeof(u), i->uip);
        if (i->op == GOP_ENDIF || i->op == GOP_WHILE)
            st_buf_printf(b, " %s\n", j);
        else
            st_buf_printf(b, " %s %s\n", j, u);
        return;
    }
    if (oi->send) {
        if (i->dst.kind == GO_VREG)
            st_buf_printf(b, " r%u:%s", opnd_addr(p, &i->dst) / GEN_GRF_SIZE,
                          gen_type_name[i->dst.type]);
        else
            st_buf_printf(b, " null:%s", i->op == GOP_SENDC ? "uw" : "ud");
        st_buf_printf(b, " r%u", opnd_addr(p, &i->src[0]) / GEN_GRF_SIZE);
        if (i->op == GOP_SENDS)
            st_buf_printf(b, " r%u", opnd_addr(p, &i->src[1]) / GEN_GRF_SIZE);
        st_buf_printf(b, " 0x%X 0x%08X%s\n", i->exdesc | (i->eot ? 0x20u : 0u), i->desc,
                      i->eot ? " {EOT}" : "");
        return;
    }
    st_buf_putc(b, ' ');
    if (i->cmod)
        st_buf_printf(b, "(%s)f%u.0 ", gen_cmod_name[i->cmod], (unsigned)i->flag);
    if (i->sat)
        st_buf_printf(b, "(sat)");
    print_dst(b, p, i, half);
    for (unsigned s = 0; s < oi->nsrc; s++) {
        if (i->src[s].kind == GO_NONE)
            break;
        st_buf_putc(b, ' ');
        print_src(b, p, i, &i->src[s], half);
    }
    st_buf_putc(b, '\n');
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
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (is_target[k])
            st_buf_printf(out, "L%u:\n", k);
        if (i->op == GOP_LABEL)
            continue;
        bool split = i->exec == 32 && !gen_op_info[i->op].flow && !gen_op_info[i->op].send;
        if (split) { /* the second half: 16 elements on */
            print_one(out, p, i, 16, 0, 0);
            print_one(out, p, i, 16, 16, 16);
        } else {
            print_one(out, p, i, i->exec, i->group, 0);
        }
    }
    if (is_target[p->ninst])
        st_buf_printf(out, "L%u:\n", p->ninst);
    free(is_target);
}

/* ------------------------------------------------------------------ */
/* Statistics.                                                         */

/*
 * A static estimate, not a simulation: an ALU instruction issues in
 * exec/4 cycles (a SIMD8 float op takes two), extended math four times
 * that, a message 50 cycles of issue plus latency we do not model; loops
 * count once.
 */
void gen_count(const struct gen_program *p, unsigned *insts, unsigned *sends, unsigned *loops,
               unsigned *cycles)
{
    unsigned n = 0, s = 0, l = 0, c = 0;
    for (unsigned k = 0; k < p->ninst; k++) {
        const struct gen_inst *i = &p->inst[k];
        if (i->op == GOP_LABEL)
            continue;
        bool split = i->exec == 32 && !gen_op_info[i->op].flow && !gen_op_info[i->op].send;
        unsigned copies = split ? 2 : 1;
        n += copies;
        if (gen_op_info[i->op].send) {
            s++;
            c += 50;
        } else if (gen_op_info[i->op].flow) {
            c += 2;
            if (i->op == GOP_WHILE)
                l++;
        } else {
            unsigned e = split ? 16 : i->exec;
            unsigned cost = e <= 4 ? 1 : e / 4;
            if (i->op == GOP_MATH)
                cost *= 4;
            c += copies * cost;
        }
    }
    *insts = n;
    *sends = s;
    *loops = l;
    *cycles = c;
}

void gen_print_stats(const struct gen_program *p, struct st_buf *out)
{
    unsigned n, s, l, c;
    gen_count(p, &n, &s, &l, &c);
    st_buf_printf(out, "SIMD%u shader: %u instructions. %u loops. %u cycles. %u:%u spills:fills, %u sends",
                  p->simd, n, l, c, p->spills, p->fills, s);
}
