/*
 * check.c — the semantic checker of the Direct3D 9 front end.
 *
 * st_check() walks a parsed shader once and reports every place where it
 * breaks the rules of its shader model (vs_1_1 .. ps_3_0): instruction
 * availability, operand counts and kinds, register files and indices,
 * modifiers, swizzles and writemasks, relative addressing, declarations,
 * flow-control structure, labels, predication, coissue, ps_1_4 phases and
 * the ps_1_x texture-instruction rules.
 *
 * Policy: the checker rejects what the shader models forbid, but not what
 * real assemblers accept with validation skipped (Wine's assembler tests,
 * kept in the corpus).  Where the two differ the rule either accepts the
 * assemblers' reading or only warns; each such place says so.  One reading
 * applies throughout: the AST cannot tell "r0" from "r0.xyzw", so a full
 * writemask counts as "no writemask written" and is never rejected by the
 * rules that ask for a partial mask (sincos, crs, m3x2, bem, ...).
 *
 * The walk keeps its state in one malloc'd struct chk (plus the list of
 * call sites), freed before st_check() returns; the AST is only read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_limits.h"
#include "translator.h"

/* ------------------------------------------------------------------ */
/* State                                                               */

enum blk_kind { BLK_IF, BLK_LOOP, BLK_REP };

struct blk {
    enum blk_kind kind;
    bool seen_else;
    struct st_loc loc;
};

#define MAX_BLOCKS 64
#define MAX_LABELS CHK_ENCODABLE

struct chk {
    struct st_ctx *ctx;
    enum st_shader_type type;
    uint16_t ver; /* normalised: vs_1_0 -> 1_1, ps_1_0 -> 1_1 */
    enum chk_slot slot;
    const struct chk_limits *lim;
    char vname[16]; /* "vs_2_x", as written (vs_1_0 stays vs_1_0) */

    /* Flow control. */
    struct blk blocks[MAX_BLOCKS];
    /* May exceed MAX_BLOCKS: deeper blocks are counted but not stored (the
     * nesting limits report long before that; past it messages may name
     * the wrong block, nothing worse). */
    unsigned nblocks;
    unsigned if_depth, loop_depth, aloop_depth; /* aloop: `loop` only (aL) */
    unsigned static_flow; /* vs_2_0's static flow count */
    bool main_ended;    /* a ret at depth 0 ended the main program */
    bool in_sub;        /* between "label lN" and its ret */
    uint32_t sub_label;
    struct st_loc sub_loc;
    bool reported_after_ret; /* one message per stretch of stray code */

    /* Labels: where defined (line 0 = not) and the first call. */
    struct st_loc label_def[MAX_LABELS];
    struct st_loc label_use[MAX_LABELS];

    /* def/defi/defb: where each constant was first defined. */
    struct st_loc def_c[CHK_ENCODABLE], def_i[CHK_ENCODABLE], def_b[CHK_ENCODABLE];

    /* ps_1_x texture instructions. */
    bool arith_seen;      /* ps_1_1-1_3: an arithmetic instruction was seen */
    struct st_loc tex_written[8]; /* t# written by a texture instruction */
    int pad_kind;         /* 0, 2 (texm3x2pad seen) or 3 (texm3x3pad) */
    int pad_count;        /* pads seen in the current sequence */
    uint32_t pad_dst, pad_src;
    const struct st_instr *pad_first;

    /* ps_1_4 phases. */
    bool has_phase;        /* the shader has a phase instruction */
    bool in_phase1;        /* before it */
    bool phase_seen;
    bool arith_in_phase;   /* arithmetic seen in the current phase */

    const struct st_instr *prev; /* previous instruction (coissue) */

    /* vs_3_0: every c# read either with _abs or without (first read). */
    struct st_loc const_abs_loc, const_noabs_loc;

    /* Calls, for the call-nesting limit and recursion (checked at the end). */
    struct call_site *calls;
    size_t ncalls, calls_cap;

    /* Declarations already seen: writemask per register (0 = none). */
    uint8_t dcl_input[16], dcl_output[12], dcl_texture[8];
    struct st_loc dcl_input_loc[16], dcl_output_loc[12], dcl_texture_loc[8];
    struct st_loc dcl_sampler_loc[16], dcl_misc_loc[2];
};

#define MAIN_ROUTINE UINT32_MAX

struct call_site {
    uint32_t caller; /* label number, or MAIN_ROUTINE */
    uint32_t callee;
    struct st_loc loc;
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static bool is_vs(const struct chk *c) { return c->type == ST_VS; }
static bool is_ps(const struct chk *c) { return c->type == ST_PS; }
static bool is_ps1x(const struct chk *c) { return is_ps(c) && c->ver <= V14; }
static bool is_ps13(const struct chk *c) { return is_ps(c) && c->ver <= V13; }
static bool is_ps14(const struct chk *c) { return is_ps(c) && c->ver == V14; }
static bool is_3x(const struct chk *c) { return c->ver == V30; }
static bool is_2x_or_3(const struct chk *c) { return c->ver == V2X || c->ver == V30; }

static const char *opname(enum st_opcode op)
{
    return op < ST_OP_COUNT ? st_opinfo[op].name : "?";
}

/* "v17", "oPos", "aL", "c[a0.x + 3]" is printed as "c3" (the base). */
static const char *regname(const struct st_reg *r, char buf[24])
{
    switch (r->file) {
    case ST_REG_RASTOUT: case ST_REG_DEPTHOUT: case ST_REG_LOOP: case ST_REG_MISC:
        snprintf(buf, 24, "%s", st_regfile_name(r->file, r->index));
        break;
    case ST_REG_ADDR:
        snprintf(buf, 24, "a%u", (unsigned)r->index);
        break;
    default:
        snprintf(buf, 24, "%s%u", st_regfile_name(r->file, r->index), (unsigned)r->index);
        break;
    }
    return buf;
}

/* The register file as a family name for messages: "v#", "oPos", "aL". */
static const char *filename(enum st_regfile f, uint32_t index)
{
    switch (f) {
    case ST_REG_TEMP: return "r#";
    case ST_REG_INPUT: return "v#";
    case ST_REG_CONST: return "c#";
    case ST_REG_ADDR: return "a0";
    case ST_REG_TEXTURE: return "t#";
    case ST_REG_RASTOUT: return st_regfile_name(f, index);
    case ST_REG_ATTROUT: return "oD#";
    case ST_REG_TEXCRDOUT: return "oT#";
    case ST_REG_OUTPUT: return "o#";
    case ST_REG_CONSTINT: return "i#";
    case ST_REG_COLOROUT: return "oC#";
    case ST_REG_DEPTHOUT: return "oDepth";
    case ST_REG_SAMPLER: return "s#";
    case ST_REG_CONSTBOOL: return "b#";
    case ST_REG_LOOP: return "aL";
    case ST_REG_LABEL: return "l#";
    case ST_REG_PREDICATE: return "p0";
    case ST_REG_MISC: return st_regfile_name(f, index);
    case ST_REG_COUNT: break;
    }
    return "?";
}

/* "vs_2_0" for a version number of this shader's type. */
static const char *vername(enum st_shader_type t, uint16_t v, char buf[16])
{
    const char *p = t == ST_VS ? "vs" : "ps";
    if (v == V2X)
        snprintf(buf, 16, "%s_2_x", p);
    else
        snprintf(buf, 16, "%s_%u_%u", p, (unsigned)(v >> 8), (unsigned)(v & 0xff));
    return buf;
}

/* "ps_1_4", "vs_2_0 and later", "ps_1_1..ps_1_3" for an availability range. */
static void range_str(enum st_shader_type t, uint16_t lo, uint16_t hi, char *buf, size_t n)
{
    char a[16], b[16];
    if (lo == VNONE)
        snprintf(buf, n, "no %s shader version", t == ST_VS ? "vertex" : "pixel");
    else if (lo == hi)
        snprintf(buf, n, "%s only", vername(t, lo, a));
    else if (hi == V30)
        snprintf(buf, n, "%s and later", vername(t, lo, a));
    else
        snprintf(buf, n, "%s..%s", vername(t, lo, a), vername(t, hi, b));
}

static bool swz_is_replicate(uint8_t s)
{
    unsigned x = ST_SWZ_LANE(s, 0);
    for (int i = 1; i < 4; i++)
        if (ST_SWZ_LANE(s, i) != x)
            return false;
    return true;
}

static const char *swz_text(const struct st_src *s, char buf[8])
{
    /* As written: the letters in order (partial swizzles repeat the last). */
    unsigned n = s->swizzle_len ? s->swizzle_len : 4;
    char *p = buf;
    *p++ = '.';
    for (unsigned i = 0; i < n && i < 4; i++)
        *p++ = "xyzw"[ST_SWZ_LANE(s->swizzle, i)];
    *p = '\0';
    return buf;
}

static const char *mask_text(uint8_t mask, char buf[8])
{
    char *p = buf;
    *p++ = '.';
    for (int i = 0; i < 4; i++)
        if (mask & (1u << i))
            *p++ = "xyzw"[i];
    if (p == buf + 1)
        *p++ = '?';
    *p = '\0';
    return buf;
}

static const char *srcmod_name(enum st_srcmod m)
{
    switch (m) {
    case ST_SRCMOD_NONE: return "none";
    case ST_SRCMOD_NEG: return "-";
    case ST_SRCMOD_BIAS: return "_bias";
    case ST_SRCMOD_BIASNEG: return "-r_bias";
    case ST_SRCMOD_SIGN: return "_bx2";
    case ST_SRCMOD_SIGNNEG: return "-r_bx2";
    case ST_SRCMOD_COMP: return "1 - r (complement)";
    case ST_SRCMOD_X2: return "_x2";
    case ST_SRCMOD_X2NEG: return "-r_x2";
    case ST_SRCMOD_DZ: return "_dz";
    case ST_SRCMOD_DW: return "_dw";
    case ST_SRCMOD_ABS: return "_abs";
    case ST_SRCMOD_ABSNEG: return "-r_abs";
    case ST_SRCMOD_NOT: return "!";
    }
    return "?";
}

/* Best location for an operand: its own, else the register's, else the instruction's. */
static struct st_loc src_loc(const struct st_src *s, const struct st_instr *in)
{
    if (s->loc.line)
        return s->loc;
    if (s->reg.loc.line)
        return s->reg.loc;
    return in->loc;
}

static struct st_loc dst_loc(const struct st_dst *d, const struct st_instr *in)
{
    if (d->loc.line)
        return d->loc;
    if (d->reg.loc.line)
        return d->reg.loc;
    return in->loc;
}

static struct st_loc mod_loc(const struct st_instr *in)
{
    return in->mod_loc.line ? in->mod_loc : in->loc;
}

/* Is this instruction a comparison form?  The parser may give "if_ge" as
 * IFC or as IF with a comparison; both read the same. */
static enum st_opcode effective_op(const struct st_instr *in)
{
    if (in->op == ST_OP_IF && in->cmp != ST_CMP_NONE)
        return ST_OP_IFC;
    if (in->op == ST_OP_BREAK && in->cmp != ST_CMP_NONE)
        return ST_OP_BREAKC;
    return in->op;
}

static bool is_texld_family(enum st_opcode op)
{
    return op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB || op == ST_OP_TEXLDD ||
           op == ST_OP_TEXLDL;
}

/* ps_1_x instructions that belong to the texture block. */
static bool is_tex_block_op(const struct chk *c, enum st_opcode op)
{
    if (is_ps13(c))
        return (st_opinfo[op].flags & OPF_TEX1X) || op == ST_OP_TEXKILL;
    if (is_ps14(c))
        return op == ST_OP_TEXLD || op == ST_OP_TEXCRD || op == ST_OP_TEXKILL ||
               op == ST_OP_TEXDEPTH;
    return false;
}

/* Instructions that neither count as arithmetic nor as texture ops. */
static bool is_neutral_op(enum st_opcode op)
{
    return op == ST_OP_DEF || op == ST_OP_DEFI || op == ST_OP_DEFB || op == ST_OP_DCL ||
           op == ST_OP_NOP || op == ST_OP_PHASE;
}

/* ------------------------------------------------------------------ */
/* Registers                                                           */

/*
 * Does the file exist in this version, and is the index in range?  Reports
 * and returns false when the register cannot be used at all.
 * `what_rows` > 1 checks a run of registers (matrix rows).
 */
static bool check_reg_exists(struct chk *c, const struct st_reg *r, struct st_loc loc,
                             unsigned rows, enum st_opcode op)
{
    char nb[24];
    if (r->file >= ST_REG_COUNT) {
        st_error(c->ctx, loc, ST_E_REG_VERSION, "unknown register file");
        return false;
    }
    const struct chk_file_limit *fl = &c->lim->file[r->file];
    if (fl->count == 0) {
        const char *why = "";
        if (r->file == ST_REG_ADDR && is_ps(c))
            why = "; a0 exists only in vertex shaders";
        else if (r->file == ST_REG_TEXTURE && c->ver == V30 && is_ps(c))
            why = "; ps_3_0 reads texture coordinates from v# declared with dcl_texcoord";
        else if (r->file == ST_REG_PREDICATE)
            why = "; p0 exists in vs_2_x, vs_3_0, ps_2_x and ps_3_0";
        else if (r->file == ST_REG_LOOP)
            why = "; aL exists in vs_2_0 and later and in ps_3_0";
        else if (r->file == ST_REG_LABEL)
            why = "; labels exist in vs_2_0 and later and in ps_2_x and later";
        else if (r->file == ST_REG_COLOROUT && is_ps1x(c))
            why = "; ps_1_x writes its color to r0";
        else if (r->file == ST_REG_OUTPUT)
            why = "; o# are the vs_3_0 outputs";
        else if ((r->file == ST_REG_RASTOUT || r->file == ST_REG_ATTROUT ||
                  r->file == ST_REG_TEXCRDOUT) && c->ver == V30 && is_vs(c))
            why = "; vs_3_0 writes its outputs to o# declared with dcl_usage";
        st_error(c->ctx, loc, ST_E_REG_VERSION, "register %s does not exist in %s%s",
                 regname(r, nb), c->vname, why);
        return false;
    }
    if (r->rel)
        return true; /* the address register may be negative: checked at run time */
    uint32_t last = r->index + (rows ? rows - 1 : 0);
    if (r->file == ST_REG_RASTOUT || r->file == ST_REG_MISC || r->file == ST_REG_DEPTHOUT ||
        r->file == ST_REG_LOOP) {
        if (r->index >= fl->count) {
            const char *fam = r->file == ST_REG_RASTOUT ? "oPos/oFog/oPts"
                              : r->file == ST_REG_MISC ? "vPos/vFace"
                              : r->file == ST_REG_DEPTHOUT ? "oDepth" : "aL";
            st_error(c->ctx, loc, ST_E_REG_INDEX, "no register %u in the %s file of %s",
                     (unsigned)r->index, fam, c->vname);
            return false;
        }
        return true;
    }
    unsigned hard = fl->hard ? fl->hard : fl->count;
    const char *fam = st_regfile_name(r->file, r->index);
    enum st_diag_code code = r->file == ST_REG_LABEL ? ST_E_LABEL_RULE : ST_E_REG_INDEX;
    if (last >= hard || last < r->index) {
        if (rows > 1)
            st_error(c->ctx, loc, code,
                     "%s reads %s%u..%s%u, out of range: %s has %s0..%s%u",
                     opname(op), fam, (unsigned)r->index, fam, (unsigned)last, c->vname, fam,
                     fam, hard - 1);
        else if (r->file == ST_REG_LABEL)
            st_error(c->ctx, loc, code, "label %s out of range: %s has l0..l%u",
                     regname(r, nb), c->vname, hard - 1);
        else
            st_error(c->ctx, loc, code, "register %s out of range: %s has %s0..%s%u",
                     regname(r, nb), c->vname, fam, fam, hard - 1);
        return false;
    }
    if (last >= fl->count) {
        /* Accepted by assemblers, refused by runtimes: warn only. */
        const char *cap = r->file == ST_REG_CONST && is_vs(c)
                              ? " (the count is a device cap, at least 256 on 2_0+ hardware)"
                              : "";
        if (rows > 1)
            st_warning(c->ctx, loc, code,
                       "%s reads %s%u..%s%u beyond %s's %s0..%s%u%s; runtimes may reject "
                       "the shader",
                       opname(op), fam, (unsigned)r->index, fam, (unsigned)last, c->vname, fam,
                       fam, fl->count - 1u, cap);
        else
            st_warning(c->ctx, loc, code,
                       "%s %s is beyond %s's %s0..%s%u%s; assemblers encode it but "
                       "runtimes may reject the shader",
                       r->file == ST_REG_LABEL ? "label" : "register", regname(r, nb),
                       c->vname, fam, fam, fl->count - 1u, cap);
    }
    return true;
}

/* Relative addressing of `r` (already known to exist). */
static void check_reladdr(struct chk *c, const struct st_reg *r, struct st_loc loc)
{
    const struct st_reladdr *ra = r->rel;
    char nb[24];
    if (!ra)
        return;
    if (ra->file != ST_REG_ADDR && ra->file != ST_REG_LOOP) {
        st_error(c->ctx, loc, ST_E_RELADDR_RULE,
                 "%s is indexed by %s; only a0 and aL can be relative addresses",
                 regname(r, nb), ra->file < ST_REG_COUNT ? filename(ra->file, ra->index) : "?");
        return;
    }
    if (c->lim->file[ra->file].count == 0) {
        st_error(c->ctx, loc, ST_E_REG_VERSION, "%s does not exist in %s%s",
                 ra->file == ST_REG_ADDR ? "a0" : "aL", c->vname,
                 ra->file == ST_REG_ADDR ? "; a0 exists only in vertex shaders"
                                         : "; aL exists in vs_2_0 and later and in ps_3_0");
        return;
    }
    uint8_t allowed = c->lim->file[r->file].rel;
    if (!allowed) {
        const char *which;
        switch (c->slot) {
        case SLOT_VS11: which = "only c# can be relatively addressed (c[a0.x])"; break;
        case SLOT_VS20: case SLOT_VS2X: which = "only c# can be relatively addressed"; break;
        case SLOT_VS30: which = "only c#, v# and o# can be relatively addressed"; break;
        case SLOT_PS30: which = "only v# can be relatively addressed (with aL)"; break;
        default: which = "pixel shaders before ps_3_0 have no relative addressing"; break;
        }
        st_error(c->ctx, loc, ST_E_RELADDR_RULE, "%s cannot be relatively addressed: in %s %s",
                 regname(r, nb), c->vname, which);
        return;
    }
    /* Every file that allows relative addressing allows aL wherever aL
     * exists, and a0 wherever a0 exists (see check_limits.h). */
    if (ra->file == ST_REG_LOOP) {
        if (ra->has_component)
            st_error(c->ctx, loc, ST_E_RELADDR_RULE,
                     "aL is a scalar register: write %s[aL] without a component",
                     st_regfile_name(r->file, r->index));
        else if (c->aloop_depth == 0 && !c->in_sub)
            st_warning(c->ctx, loc, ST_E_RELADDR_RULE,
                       "aL used outside a loop block: its value is undefined there");
    } else if (!ra->has_component) {
        /* Wine's assembler rejects c0[a0] in vs_1_1 but encodes it (as
         * a0.x) from vs_2_0 on. */
        if (!(allowed & REL_A0))
            st_error(c->ctx, loc, ST_E_RELADDR_RULE,
                     "a0 needs a component in a relative address: write %s[a0.x]",
                     st_regfile_name(r->file, r->index));
        else
            st_warning(c->ctx, loc, ST_E_RELADDR_RULE,
                       "a0 without a component reads a0.x; write %s[a0.x]",
                       st_regfile_name(r->file, r->index));
    } else if (!(allowed & REL_A0) && ra->component != 0) {
        st_error(c->ctx, loc, ST_E_RELADDR_RULE, "%s indexes with a0.x only; a0.%c is not allowed",
                 c->vname, "xyzw"[ra->component & 3]);
    }
}

/* ------------------------------------------------------------------ */
/* Operand roles                                                       */

enum src_kind {
    K_VALUE,     /* an ordinary value operand */
    K_SAMPLER,   /* s# */
    K_SAMPLER_SOFT, /* s# expected; assemblers accept anything (texldd) */
    K_LABEL,     /* l# */
    K_AL,        /* aL (loop's first operand) */
    K_INT,       /* i# */
    K_COND,      /* b# or p0 (if, callnz) */
    K_PRED,      /* p0 (breakp) */
    K_CONST,     /* c# (texm3x3spec's eye vector) */
    K_TEX1X,     /* t# (ps_1_1-1_3 texture instruction source) */
    K_TEX14,     /* t# or r# (ps_1_4 texld); t# only in phase 1 */
    K_TEXCRD,    /* t# (ps_1_4 texcrd) */
};

static enum src_kind src_kind_of(const struct chk *c, enum st_opcode op, unsigned i)
{
    switch (op) {
    case ST_OP_TEXLD:
        if (is_ps14(c))
            return K_TEX14;
        return i == 1 ? K_SAMPLER : K_VALUE;
    case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL:
        return i == 1 ? K_SAMPLER : K_VALUE;
    case ST_OP_TEXLDD:
        return i == 1 ? K_SAMPLER_SOFT : K_VALUE;
    case ST_OP_TEXCRD:
        return K_TEXCRD;
    case ST_OP_CALL: case ST_OP_LABEL:
        return K_LABEL;
    case ST_OP_CALLNZ:
        return i == 0 ? K_LABEL : K_COND;
    case ST_OP_LOOP:
        return i == 0 ? K_AL : K_INT;
    case ST_OP_REP:
        return K_INT;
    case ST_OP_IF:
        return K_COND;
    case ST_OP_BREAKP:
        return K_PRED;
    case ST_OP_TEXM3x3SPEC:
        return i == 1 ? K_CONST : K_TEX1X;
    default:
        if (st_opinfo[op].flags & OPF_TEX1X)
            return K_TEX1X;
        return K_VALUE;
    }
}

/* Files an ordinary value operand may read in this version. */
static bool value_readable(const struct chk *c, enum st_regfile f)
{
    switch (f) {
    case ST_REG_TEMP: case ST_REG_INPUT: case ST_REG_CONST:
        return true;
    case ST_REG_TEXTURE:
        return is_ps(c) && !is_ps14(c); /* ps_1_4: only through texld/texcrd */
    case ST_REG_MISC:
        return true; /* exists in ps_3_0 only; existence is checked first */
    default:
        return false;
    }
}

static const char *not_readable_reason(const struct chk *c, enum st_regfile f)
{
    switch (f) {
    case ST_REG_RASTOUT: case ST_REG_ATTROUT: case ST_REG_TEXCRDOUT: case ST_REG_OUTPUT:
    case ST_REG_COLOROUT: case ST_REG_DEPTHOUT:
        return "output registers are write-only";
    case ST_REG_ADDR:
        return "a0 is only used inside a relative address (c[a0.x])";
    case ST_REG_SAMPLER:
        return "samplers are only the sampler operand of texld/texldp/texldb/texldl/texldd";
    case ST_REG_LOOP:
        return "aL is only loop's first operand or a relative address";
    case ST_REG_LABEL:
        return "labels are only operands of call, callnz and label";
    case ST_REG_CONSTINT:
        return "i# are only read by loop and rep";
    case ST_REG_CONSTBOOL:
        return "b# are only read by if and callnz";
    case ST_REG_PREDICATE:
        return "p0 is only read by if, callnz, breakp and predication";
    case ST_REG_TEXTURE:
        if (is_ps14(c))
            return "in ps_1_4 t# are only read by texld and texcrd";
        return "t# cannot be read here";
    default:
        return "it cannot be read here";
    }
}

/* ------------------------------------------------------------------ */
/* Sources                                                             */

static void check_srcmod(struct chk *c, const struct st_instr *in, enum st_opcode op,
                         const struct st_src *s, enum src_kind k)
{
    struct st_loc loc = src_loc(s, in);
    switch (s->mod) {
    case ST_SRCMOD_NONE:
    case ST_SRCMOD_NEG:
        if (s->mod == ST_SRCMOD_NEG &&
            (k == K_SAMPLER || k == K_LABEL || k == K_AL || k == K_INT || k == K_COND ||
             k == K_PRED))
            st_error(c->ctx, loc, ST_E_SRCMOD_VERSION,
                     "'-' cannot be applied to the %s operand of %s", filename(s->reg.file, 0),
                     opname(op));
        return;
    case ST_SRCMOD_BIAS: case ST_SRCMOD_BIASNEG: case ST_SRCMOD_SIGN: case ST_SRCMOD_SIGNNEG:
    case ST_SRCMOD_COMP: case ST_SRCMOD_X2: case ST_SRCMOD_X2NEG:
        if (!is_ps1x(c))
            st_error(c->ctx, loc, ST_E_SRCMOD_VERSION,
                     "source modifier %s is not available in %s: only ps_1_1..ps_1_4 have it%s",
                     srcmod_name(s->mod), c->vname,
                     is_3x(c) ? "; vs_3_0 and ps_3_0 have - and _abs" : "; use - only");
        return;
    case ST_SRCMOD_DZ: case ST_SRCMOD_DW:
        if (!is_ps14(c) || (op != ST_OP_TEXLD && op != ST_OP_TEXCRD))
            st_error(c->ctx, loc, ST_E_SRCMOD_VERSION,
                     "source modifier %s only applies to the source of texld/texcrd in ps_1_4",
                     srcmod_name(s->mod));
        return;
    case ST_SRCMOD_ABS: case ST_SRCMOD_ABSNEG:
        if (!is_3x(c))
            st_error(c->ctx, loc, ST_E_SRCMOD_VERSION,
                     "source modifier _abs is not available in %s: only vs_3_0 and ps_3_0 "
                     "have it; use the abs instruction",
                     c->vname);
        return;
    case ST_SRCMOD_NOT:
        if (!(s->reg.file == ST_REG_CONSTBOOL || s->reg.file == ST_REG_PREDICATE) ||
            !(k == K_COND || k == K_PRED))
            st_error(c->ctx, loc, ST_E_SRCMOD_VERSION,
                     "'!' applies only to a b# or p0 condition of if, callnz or breakp");
        return;
    }
}

/* Swizzle rules that depend on the version (ps_1_x, ps_2_0). */
static void check_version_swizzle(struct chk *c, const struct st_instr *in, enum st_opcode op,
                                  const struct st_src *s, enum src_kind k)
{
    char sb[8];
    struct st_loc loc = src_loc(s, in);
    uint8_t z = s->swizzle;
    if (!is_ps(c) || z == ST_SWIZZLE_IDENTITY)
        return;
    if (k == K_SAMPLER || k == K_SAMPLER_SOFT || k == K_LABEL || k == K_AL || k == K_INT ||
        k == K_COND || k == K_PRED)
        return; /* checked with the operand kind */
    if ((c->ver == V20 || c->ver == V2X) &&
        (op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB))
        return; /* the coordinate takes no swizzle at all: see check_texld2 */
    if ((st_opinfo[op].flags & OPF_MATRIX) || op == ST_OP_CRS)
        return; /* see check_special */
    if (is_ps13(c)) {
        bool ok = z == ST_SWIZZLE(3, 3, 3, 3) || z == ST_SWIZZLE(2, 2, 2, 2);
        if (k == K_TEX1X || k == K_CONST)
            ok = false;
        else if (z == ST_SWIZZLE(2, 2, 2, 2) && in->has_dst &&
                 (in->dst.writemask & 0xf) != 0x8) {
            /* The blue replicate feeds the alpha pipe only. */
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                     "the .b (.z) replicate needs a .a (.w) writemask in %s", c->vname);
            return;
        }
        if (!ok)
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                     "swizzle %s is not available in %s: %s", swz_text(s, sb), c->vname,
                     k == K_TEX1X ? "texture instruction sources take no swizzle"
                                  : "only .b (.z) and .a (.w) replicate swizzles are allowed");
        return;
    }
    if (is_ps14(c)) {
        if (op == ST_OP_TEXLD || op == ST_OP_TEXCRD) {
            if (z != ST_SWIZZLE(0, 1, 2, 2) && z != ST_SWIZZLE(0, 1, 3, 3))
                st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                         "swizzle %s is not allowed on the %s source in ps_1_4: use none, "
                         ".xyz or .xyw",
                         swz_text(s, sb), opname(op));
            return;
        }
        if (!swz_is_replicate(z))
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                     "swizzle %s is not available in ps_1_4: only replicate swizzles "
                     "(.r, .g, .b, .a) are allowed",
                     swz_text(s, sb));
        return;
    }
    if (c->ver == V20) {
        if (swz_is_replicate(z) || z == ST_SWIZZLE(1, 2, 0, 3) || z == ST_SWIZZLE(2, 0, 1, 3) ||
            z == ST_SWIZZLE(3, 2, 1, 0))
            return;
        st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                 "swizzle %s is not available in ps_2_0: allowed are none, .yzxw, .zxyw, .wzyx "
                 "and replicates (.x, .y, .z, .w); ps_2_x has arbitrary swizzles",
                 swz_text(s, sb));
    }
}

static void check_src(struct chk *c, const struct st_instr *in, enum st_opcode op, unsigned i,
                      bool op_specific)
{
    const struct st_src *s = &in->src[i];
    struct st_loc loc = src_loc(s, in);
    char nb[24], sb[8];
    enum src_kind k = op_specific ? src_kind_of(c, op, i) : K_VALUE;
    unsigned rows = 0;
    if (op_specific && i == 1 && (st_opinfo[op].flags & OPF_MATRIX))
        rows = op == ST_OP_M4x4 || op == ST_OP_M3x4 ? 4 : op == ST_OP_M3x2 ? 2 : 3;

    if (!check_reg_exists(c, &s->reg, s->reg.loc.line ? s->reg.loc : loc, rows, op))
        return;
    check_reladdr(c, &s->reg, s->reg.loc.line ? s->reg.loc : loc);

    enum st_regfile f = s->reg.file;
    switch (k) {
    case K_VALUE:
        if (!value_readable(c, f))
            st_error(c->ctx, loc, ST_E_SRC_REG, "%s cannot be a source of %s: %s",
                     regname(&s->reg, nb), opname(op), not_readable_reason(c, f));
        break;
    case K_SAMPLER:
        if (f != ST_REG_SAMPLER)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "the second source of %s must be a sampler s#; found %s", opname(op),
                     regname(&s->reg, nb));
        else if (s->swizzle != ST_SWIZZLE_IDENTITY && !is_3x(c))
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                     "sampler swizzles need ps_3_0; %s takes s# without a swizzle", c->vname);
        break;
    case K_SAMPLER_SOFT:
        if (f != ST_REG_SAMPLER)
            st_warning(c->ctx, loc, ST_E_OPERAND_KIND,
                       "the second source of %s should be a sampler s#; found %s (assemblers "
                       "accept it, runtimes reject it)",
                       opname(op), regname(&s->reg, nb));
        break;
    case K_LABEL:
        if (f != ST_REG_LABEL)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND, "%s needs a label l# here; found %s",
                     opname(op), regname(&s->reg, nb));
        break;
    case K_AL:
        if (f != ST_REG_LOOP)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "loop's first operand must be aL (loop aL, i#); found %s",
                     regname(&s->reg, nb));
        break;
    case K_INT:
        if (f != ST_REG_CONSTINT)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "%s needs an integer constant i# here; found %s", opname(op),
                     regname(&s->reg, nb));
        break;
    case K_COND:
        if (f != ST_REG_CONSTBOOL && f != ST_REG_PREDICATE)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "%s needs a boolean constant b# or the predicate p0 here; found %s%s",
                     opname(op), regname(&s->reg, nb),
                     op == ST_OP_IF ? " (comparisons are written if_gt src0, src1)" : "");
        break;
    case K_PRED:
        if (f != ST_REG_PREDICATE)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND, "%s needs the predicate p0; found %s",
                     opname(op), regname(&s->reg, nb));
        break;
    case K_CONST:
        if (f != ST_REG_CONST)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "%s's second source must be a constant c# (the eye vector); found %s",
                     opname(op), regname(&s->reg, nb));
        break;
    case K_TEX1X:
        if (f != ST_REG_TEXTURE)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND,
                     "the source of %s must be a texture register t#; found %s", opname(op),
                     regname(&s->reg, nb));
        break;
    case K_TEX14:
        /* Wine's tests assemble texld r5, c0 ("validation fails"): warn. */
        if (f != ST_REG_TEXTURE && f != ST_REG_TEMP)
            st_warning(c->ctx, loc, ST_E_OPERAND_KIND,
                       "the source of texld in ps_1_4 should be t# or r#; found %s (runtimes "
                       "reject it)",
                       regname(&s->reg, nb));
        else if (f == ST_REG_TEMP && c->in_phase1)
            st_error(c->ctx, loc, ST_E_PHASE_RULE,
                     "texld reads %s in the first phase; before 'phase' its source must be t#",
                     regname(&s->reg, nb));
        break;
    case K_TEXCRD:
        if (f != ST_REG_TEXTURE)
            st_warning(c->ctx, loc, ST_E_OPERAND_KIND,
                       "the source of texcrd should be a texture register t#; found %s "
                       "(runtimes reject it)",
                       regname(&s->reg, nb));
        break;
    }

    /* ps_1_4: color inputs exist only in the second phase. */
    if (is_ps14(c) && f == ST_REG_INPUT && c->in_phase1)
        st_error(c->ctx, loc, ST_E_PHASE_RULE,
                 "%s is read in the first phase; in ps_1_4 v# are available only after 'phase'",
                 regname(&s->reg, nb));

    /* Swizzles on scalar-like operands. */
    if (s->swizzle != ST_SWIZZLE_IDENTITY || s->swizzle_len) {
        bool nonid = s->swizzle != ST_SWIZZLE_IDENTITY;
        if ((f == ST_REG_CONSTBOOL || f == ST_REG_CONSTINT || f == ST_REG_LABEL ||
             f == ST_REG_LOOP) && nonid)
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE, "%s takes no swizzle",
                     regname(&s->reg, nb));
        else if (f == ST_REG_PREDICATE && (k == K_COND || k == K_PRED) && s->swizzle_len &&
                 !swz_is_replicate(s->swizzle))
            st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                     "the p0 condition of %s needs a replicate swizzle (p0.x, p0.y, p0.z or "
                     "p0.w); found %s",
                     opname(op), swz_text(s, sb));
    }

    check_srcmod(c, in, op, s, k);
    if (op_specific)
        check_version_swizzle(c, in, op, s, k);

    /* Replicate swizzles for scalar sources, when a swizzle was written. */
    bool scalar = false;
    if (op_specific) {
        if (op == ST_OP_SINCOS)
            scalar = i == 0;
        else if (st_opinfo[op].flags & OPF_SCALAR_SRC)
            scalar = true;
        else if (op == ST_OP_IFC || op == ST_OP_BREAKC)
            scalar = true;
        else if (op == ST_OP_DP2ADD)
            scalar = i == 2;
    }
    if (scalar && s->swizzle_len && !swz_is_replicate(s->swizzle))
        st_error(c->ctx, loc, ST_E_SWIZZLE_RULE,
                 "%s needs a replicate swizzle on this source (.x, .y, .z or .w); found %s",
                 opname(op), swz_text(s, sb));
}

/*
 * Read-port limits of vertex shaders: one c# and one v# per instruction
 * (the "# Read ports" column of the vs register tables).  A warning only:
 * Wine's assembler tests read two v# in one vs_1_1 add.
 */
static void check_read_ports(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    /* sincos's two extra sources are fixed constants, read as a pair. */
    if (!is_vs(c) || in->nsrc < 2 || op == ST_OP_SINCOS)
        return;
    static const enum st_regfile files[2] = {ST_REG_CONST, ST_REG_INPUT};
    for (int f = 0; f < 2; f++) {
        const struct st_src *first = NULL;
        for (unsigned i = 0; i < in->nsrc && i < 5; i++) {
            const struct st_src *s = &in->src[i];
            if (s->reg.file != files[f])
                continue;
            if (!first) {
                first = s;
                continue;
            }
            bool same = s->reg.index == first->reg.index && !s->reg.rel == !first->reg.rel;
            if (same && s->reg.rel && first->reg.rel)
                same = s->reg.rel->file == first->reg.rel->file &&
                       s->reg.rel->component == first->reg.rel->component;
            if (!same) {
                char a[24], b[24];
                st_warning(c->ctx, src_loc(s, in), ST_E_SRC_REG,
                         "%s reads two %s registers (%s and %s); %s has one %s read port per "
                         "instruction",
                         opname(op), filename(files[f], 0), regname(&first->reg, a),
                         regname(&s->reg, b), c->vname, filename(files[f], 0));
                break;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Destinations                                                        */

static bool dst_writable(const struct chk *c, enum st_regfile f)
{
    switch (f) {
    case ST_REG_TEMP:
        return true;
    case ST_REG_RASTOUT: case ST_REG_ATTROUT: case ST_REG_TEXCRDOUT: case ST_REG_OUTPUT:
        return is_vs(c);
    case ST_REG_COLOROUT: case ST_REG_DEPTHOUT:
        return is_ps(c);
    case ST_REG_TEXTURE:
        return is_ps13(c);
    default:
        return false;
    }
}

static const char *not_writable_reason(const struct chk *c, enum st_regfile f)
{
    switch (f) {
    case ST_REG_INPUT: return "input registers are read-only";
    case ST_REG_CONST: return "float constants are set with def";
    case ST_REG_CONSTINT: return "integer constants are set with defi";
    case ST_REG_CONSTBOOL: return "boolean constants are set with defb";
    case ST_REG_SAMPLER: return "samplers are only declared (dcl_2d s#)";
    case ST_REG_LOOP: return "aL is set by loop";
    case ST_REG_LABEL: return "labels are not writable";
    case ST_REG_MISC: return "vPos and vFace are read-only";
    case ST_REG_PREDICATE: return "p0 is written by setp";
    case ST_REG_ADDR:
        return c->ver == V11 ? "a0 is written by mov" : "a0 is written by mova";
    case ST_REG_TEXTURE:
        return is_ps14(c) ? "in ps_1_4 t# are read-only; texld and texcrd write r#"
                          : "t# are read-only texture coordinates in ps_2_0 and later";
    default: return "it cannot be written";
    }
}

static void check_writemask(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    const struct st_dst *d = &in->dst;
    uint8_t m = d->writemask & 0xf;
    struct st_loc loc = dst_loc(d, in);
    char mb[8];
    if (m == 0) {
        st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "empty writemask");
        return;
    }
    if (m == 0xf)
        return; /* full mask: also what "no writemask" looks like */
    mask_text(m, mb);
    if (is_ps13(c)) {
        if (st_opinfo[op].flags & OPF_TEX1X)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                     "%s writes the whole t# register: no writemask allowed in %s", opname(op),
                     c->vname);
        else if (m != 0x7 && m != 0x8)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                     "writemask %s is not available in %s: use .rgb, .a or none", mb, c->vname);
        return;
    }
    switch (op) {
    case ST_OP_SINCOS:
        if (m != 0x1 && m != 0x2 && m != 0x3)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                     "sincos writes .x (cos), .y (sin) or .xy; writemask %s is not allowed", mb);
        break;
    case ST_OP_CRS:
        if (m & 0x8)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                     "crs writes only .x, .y and .z; writemask %s includes .w", mb);
        break;
    case ST_OP_M3x2:
        if (m != 0x3)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "m3x2 writes .xy; writemask %s is not allowed",
                     mb);
        break;
    case ST_OP_M3x3: case ST_OP_M4x3:
        if (m != 0x7)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "%s writes .xyz; writemask %s is not allowed",
                     opname(op), mb);
        break;
    case ST_OP_M4x4: case ST_OP_M3x4:
        st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                 "%s writes all four components; writemask %s is not allowed", opname(op), mb);
        break;
    case ST_OP_BEM:
        if (m != 0x3)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "bem writes .rg (.xy); writemask %s is not allowed",
                     mb);
        break;
    default:
        break;
    }
    if (d->reg.file == ST_REG_RASTOUT && d->reg.index != ST_RASTOUT_POS && m != 0x1 &&
        m != 0x2 && m != 0x4 && m != 0x8)
        st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                 "%s is a scalar output: write one component; writemask %s is not allowed",
                 st_regfile_name(d->reg.file, d->reg.index), mb);
    if (d->reg.file == ST_REG_ADDR && c->ver == V11 && is_vs(c) && m != 0x1)
        st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "vs_1_1 has only a0.x; writemask %s is not allowed",
                 mb);
}

/* The destination of an ordinary (non-declaration) instruction. */
static void check_dst(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    const struct st_dst *d = &in->dst;
    struct st_loc loc = dst_loc(d, in);
    char nb[24];
    if (!check_reg_exists(c, &d->reg, d->reg.loc.line ? d->reg.loc : loc, 0, op))
        return;
    enum st_regfile f = d->reg.file;

    if (d->reg.rel) {
        if (!(is_vs(c) && is_3x(c) && f == ST_REG_OUTPUT))
            st_error(c->ctx, loc, ST_E_RELADDR_RULE,
                     "destination %s cannot be relatively addressed: only vs_3_0's o# can",
                     regname(&d->reg, nb));
        else
            check_reladdr(c, &d->reg, loc);
    }

    bool ok;
    switch (op) {
    case ST_OP_MOVA:
        ok = f == ST_REG_ADDR;
        if (!ok)
            st_error(c->ctx, loc, ST_E_DST_REG, "mova writes the address register a0; found %s",
                     regname(&d->reg, nb));
        break;
    case ST_OP_SETP:
        ok = f == ST_REG_PREDICATE;
        if (!ok)
            st_error(c->ctx, loc, ST_E_DST_REG, "setp writes the predicate p0; found %s",
                     regname(&d->reg, nb));
        break;
    case ST_OP_TEXKILL: {
        /* The operand is read: texture coordinates (1_x), temps, v# in 3_0. */
        if (is_ps13(c))
            ok = f == ST_REG_TEXTURE;
        else if (c->ver == V30)
            ok = f == ST_REG_TEMP || f == ST_REG_INPUT;
        else
            ok = f == ST_REG_TEMP || f == ST_REG_TEXTURE;
        if (!ok)
            st_error(c->ctx, loc, ST_E_OPERAND_KIND, "texkill in %s takes %s; found %s",
                     c->vname,
                     is_ps13(c) ? "a texture register t#"
                     : c->ver == V30 ? "r# or v#" : "r# or t#",
                     regname(&d->reg, nb));
        break;
    }
    default:
        if (is_ps13(c) && (st_opinfo[op].flags & OPF_TEX1X)) {
            ok = f == ST_REG_TEXTURE;
            if (!ok)
                st_error(c->ctx, loc, ST_E_DST_REG,
                         "%s writes a texture register t#; found %s", opname(op),
                         regname(&d->reg, nb));
            break;
        }
        if ((is_ps14(c) && (op == ST_OP_TEXLD || op == ST_OP_TEXCRD || op == ST_OP_TEXDEPTH ||
                            op == ST_OP_BEM)) ||
            (is_ps(c) && !is_ps1x(c) && is_texld_family(op))) {
            ok = f == ST_REG_TEMP;
            if (!ok)
                st_error(c->ctx, loc, ST_E_DST_REG, "%s writes a temporary register r#; found %s",
                         opname(op), regname(&d->reg, nb));
            else if (op == ST_OP_TEXDEPTH && d->reg.index != 5)
                st_error(c->ctx, loc, ST_E_OPERAND_KIND, "texdepth works on r5 only; found %s",
                         regname(&d->reg, nb));
            break;
        }
        if (f == ST_REG_ADDR && is_vs(c)) {
            ok = c->ver == V11 && op == ST_OP_MOV;
            if (!ok)
                st_error(c->ctx, loc, ST_E_DST_REG, "a0 cannot be written by %s: %s",
                         opname(op), not_writable_reason(c, f));
            break;
        }
        ok = dst_writable(c, f);
        if (!ok)
            st_error(c->ctx, loc, ST_E_DST_REG, "%s cannot be written: %s", regname(&d->reg, nb),
                     not_writable_reason(c, f));
        break;
    }
    if (ok)
        check_writemask(c, in, op);
}

/* ------------------------------------------------------------------ */
/* Instruction modifiers                                               */

static void check_instr_mods(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    struct st_loc ml = mod_loc(in);
    const struct st_opinfo *oi = &st_opinfo[op];
    bool has_result = oi->ndst > 0 && op != ST_OP_TEXKILL && op != ST_OP_DCL &&
                      op != ST_OP_DEF && op != ST_OP_DEFI && op != ST_OP_DEFB;

    if (oi->flags & OPF_DECL) {
        /* dcl/def modifiers are checked with the declaration. */
    } else {
        if (in->dstmod & ST_DSTMOD_SAT) {
            if (!has_result)
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION, "%s takes no _sat modifier",
                         opname(op));
            else if (is_vs(c) && c->ver < V30)
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                         "_sat is not available in %s: vertex shaders have it from vs_3_0",
                         c->vname);
        }
        if (in->dstmod & ST_DSTMOD_PP) {
            if (is_vs(c))
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                         "_pp is a pixel shader modifier; vertex shaders always use full precision");
            else if (is_ps1x(c))
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                         "_pp is not available in %s: pixel shaders have it from ps_2_0",
                         c->vname);
            else if (!has_result)
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION, "%s takes no _pp modifier",
                         opname(op));
        }
        if (in->dstmod & ST_DSTMOD_CENTROID) {
            if (is_vs(c) || is_ps1x(c) || !is_texld_family(op))
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                         "_centroid applies only to dcl and texld* in ps_2_0 and later");
        }
        if (in->shift) {
            if (!is_ps1x(c))
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                         "result shift (_x2, _x4, _x8, _d2, _d4, _d8) is not available in %s: "
                         "only ps_1_1..ps_1_4 have it",
                         c->vname);
            else if (!has_result)
                st_error(c->ctx, ml, ST_E_DSTMOD_VERSION, "%s takes no result shift",
                         opname(op));
        }
    }

    bool wants_cmp = op == ST_OP_IFC || op == ST_OP_BREAKC || op == ST_OP_SETP;
    if (in->cmp != ST_CMP_NONE && !wants_cmp)
        st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                 "comparison _%s applies only to if, break and setp", st_compare_name(in->cmp));
    else if (wants_cmp && in->cmp == ST_CMP_NONE)
        st_error(c->ctx, in->loc, ST_E_OPERAND_KIND,
                 "%s needs a comparison: %s_gt, _lt, _ge, _le, _eq or _ne",
                 op == ST_OP_SETP ? "setp" : op == ST_OP_IFC ? "if with two sources" : "break with two sources",
                 op == ST_OP_SETP ? "setp" : op == ST_OP_IFC ? "if" : "break");

    if (in->coissue && !is_ps1x(c))
        st_error(c->ctx, in->loc, ST_E_COISSUE_RULE,
                 "coissue '+' is not available in %s: only ps_1_1..ps_1_4 pair instructions",
                 c->vname);

    if (in->predicated) {
        if (!is_2x_or_3(c)) {
            st_error(c->ctx, in->pred.loc.line ? in->pred.loc : in->loc, ST_E_PREDICATE_RULE,
                     "predication is not available in %s: it needs vs_2_x, vs_3_0, ps_2_x or "
                     "ps_3_0",
                     c->vname);
        } else {
            struct st_loc pl = in->pred.loc.line ? in->pred.loc : in->loc;
            char nb[24];
            if (in->pred.reg.file != ST_REG_PREDICATE)
                st_error(c->ctx, pl, ST_E_PREDICATE_RULE,
                         "an instruction is predicated on p0; found %s",
                         regname(&in->pred.reg, nb));
            else if (in->pred.reg.index != 0)
                st_error(c->ctx, pl, ST_E_REG_INDEX, "register %s out of range: %s has p0 only",
                         regname(&in->pred.reg, nb), c->vname);
            if (in->pred.mod != ST_SRCMOD_NONE && in->pred.mod != ST_SRCMOD_NOT)
                st_error(c->ctx, pl, ST_E_PREDICATE_RULE,
                         "the predicate takes only '!' as a modifier");
            if ((oi->flags & (OPF_DECL | OPF_FLOW)) || op == ST_OP_PHASE)
                st_error(c->ctx, pl, ST_E_PREDICATE_RULE,
                         "%s cannot be predicated%s", opname(op),
                         op == ST_OP_BREAK || op == ST_OP_BREAKC
                             ? ": use breakp p0.x"
                             : op == ST_OP_CALL ? ": use callnz l#, p0.x" : "");
        }
    }
}

/* ------------------------------------------------------------------ */
/* Declarations                                                        */

static void check_dcl(struct chk *c, const struct st_instr *in)
{
    const struct st_dst *d = &in->dst;
    struct st_loc loc = dst_loc(d, in);
    struct st_loc ml = mod_loc(in);
    char nb[24], mb[8];
    if (!in->has_dst)
        return; /* reported as an operand count */
    if (!check_reg_exists(c, &d->reg, d->reg.loc.line ? d->reg.loc : loc, 0, ST_OP_DCL))
        return;
    enum st_regfile f = d->reg.file;

    /* Modifiers. */
    if (is_vs(c)) {
        if (in->dstmod || in->shift)
            st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                     "vertex shader declarations take no modifiers (_pp, _centroid, _sat)");
    } else {
        if (in->dstmod & ST_DSTMOD_SAT)
            st_error(c->ctx, ml, ST_E_DSTMOD_VERSION, "dcl takes no _sat modifier");
        if (in->shift)
            st_error(c->ctx, ml, ST_E_DSTMOD_VERSION,
                     "dcl takes no result shift; only _pp and _centroid are allowed");
        if ((in->dstmod & (ST_DSTMOD_CENTROID | ST_DSTMOD_PP)) && f == ST_REG_MISC)
            st_error(c->ctx, ml, ST_E_DSTMOD_VERSION, "%s takes no modifiers",
                     regname(&d->reg, nb));
    }
    if (in->predicated || in->coissue)
        return; /* reported with the instruction modifiers */

    if (d->reg.rel) {
        st_error(c->ctx, loc, ST_E_DCL_RULE, "a declaration names one register, not %s[...]",
                 st_regfile_name(f, 0));
        return;
    }

    bool has_usage = !in->dcl_bare && in->sampler_type == ST_SAMPLER_NONE;
    if (f == ST_REG_SAMPLER) {
        if (in->sampler_type == ST_SAMPLER_NONE)
            st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                     "dcl of %s needs a texture type: dcl_2d, dcl_cube or dcl_volume",
                     regname(&d->reg, nb));
        if (d->writemask != 0xf)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "a sampler declaration takes no writemask");
        return;
    }
    if (in->sampler_type != ST_SAMPLER_NONE) {
        st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                 "a texture type (dcl_2d, dcl_cube, dcl_volume) declares a sampler s#; found %s",
                 regname(&d->reg, nb));
        return;
    }
    if (has_usage && in->usage_index > 15)
        st_error(c->ctx, in->loc, ST_E_DCL_RULE, "usage index %u out of range: 0..15",
                 (unsigned)in->usage_index);
    if (has_usage && (unsigned)in->usage >= ST_USAGE_COUNT)
        st_error(c->ctx, in->loc, ST_E_DCL_RULE, "unknown usage");

    switch (f) {
    case ST_REG_INPUT:
        if (is_vs(c) || c->ver == V30) {
            if (!has_usage)
                st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                         "%s input declarations need a usage, e.g. dcl_%s %s", c->vname,
                         is_vs(c) ? "position" : "texcoord0", regname(&d->reg, nb));
        } else if (has_usage) {
            st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                     "%s declares inputs without a usage: write dcl %s", c->vname,
                     regname(&d->reg, nb));
        }
        break;
    case ST_REG_TEXTURE:
        if (has_usage)
            st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                     "%s declares texture coordinates without a usage: write dcl %s", c->vname,
                     regname(&d->reg, nb));
        break;
    case ST_REG_OUTPUT:
        if (!has_usage)
            st_error(c->ctx, in->loc, ST_E_DCL_RULE,
                     "vs_3_0 output declarations need a usage, e.g. dcl_texcoord0 %s",
                     regname(&d->reg, nb));
        break;
    case ST_REG_MISC:
        if (has_usage)
            st_error(c->ctx, in->loc, ST_E_DCL_RULE, "%s is declared without a usage: dcl %s",
                     regname(&d->reg, nb), regname(&d->reg, nb));
        else if (d->reg.index == ST_MISC_POS && d->writemask != 0xf && d->writemask != 0x1 &&
                 d->writemask != 0x2 && d->writemask != 0x3)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE,
                     "vPos is declared with .x, .y or .xy; writemask %s is not allowed",
                     mask_text(d->writemask, mb));
        else if (d->reg.index == ST_MISC_FACE && d->writemask != 0xf)
            st_error(c->ctx, loc, ST_E_WRITEMASK_RULE, "vFace is declared without a writemask");
        break;
    default:
        st_error(c->ctx, loc, ST_E_DCL_RULE,
                 "%s cannot be declared: %s declares %s", regname(&d->reg, nb), c->vname,
                 is_vs(c) ? (is_3x(c) ? "inputs v#, outputs o# and samplers s#" : "inputs v#")
                 : c->ver == V30 ? "inputs v#, vPos, vFace and samplers s#"
                                 : "texture coordinates t#, colors v# and samplers s#");
        break;
    }
}

static void check_def(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    const struct st_dst *d = &in->dst;
    struct st_loc loc = dst_loc(d, in);
    char nb[24];
    if (!in->has_dst)
        return;
    enum st_regfile want = op == ST_OP_DEF ? ST_REG_CONST
                           : op == ST_OP_DEFI ? ST_REG_CONSTINT : ST_REG_CONSTBOOL;
    if (d->reg.file != want) {
        st_error(c->ctx, loc, ST_E_DEF_RULE, "%s defines %s constants; found %s%s", opname(op),
                 want == ST_REG_CONST ? "float c#" : want == ST_REG_CONSTINT ? "integer i#" : "boolean b#",
                 regname(&d->reg, nb),
                 d->reg.file == ST_REG_CONST ? " (use def)"
                 : d->reg.file == ST_REG_CONSTINT ? " (use defi)"
                 : d->reg.file == ST_REG_CONSTBOOL ? " (use defb)" : "");
        return;
    }
    if (!check_reg_exists(c, &d->reg, d->reg.loc.line ? d->reg.loc : loc, 0, op))
        return;
    if (d->reg.rel) {
        st_error(c->ctx, loc, ST_E_DEF_RULE, "%s takes a plain register, not a relative address",
                 opname(op));
        return;
    }
    if (d->writemask != 0xf)
        st_error(c->ctx, loc, ST_E_DEF_RULE, "%s defines the whole register: no writemask",
                 opname(op));
    if (in->dstmod || in->shift)
        st_error(c->ctx, mod_loc(in), ST_E_DSTMOD_VERSION, "%s takes no modifiers", opname(op));
    if (d->reg.index >= CHK_ENCODABLE)
        return;
    struct st_loc *seen = want == ST_REG_CONST ? c->def_c
                          : want == ST_REG_CONSTINT ? c->def_i : c->def_b;
    struct st_loc *first = &seen[d->reg.index];
    if (first->line) {
        /* Wine's tests define c0 twice (test_fetch4); runtimes keep the last. */
        st_warning(c->ctx, loc, ST_E_DUP_DEF,
                   "%s is defined again (first at line %u); the later value replaces it",
                   regname(&d->reg, nb), (unsigned)first->line);
    } else {
        *first = loc.line ? loc : (struct st_loc){1, 1};
    }
}

/* ------------------------------------------------------------------ */
/* Flow control and labels                                             */

static struct blk *top_block(struct chk *c)
{
    if (c->nblocks == 0 || c->nblocks > MAX_BLOCKS)
        return c->nblocks ? &c->blocks[MAX_BLOCKS - 1] : NULL;
    return &c->blocks[c->nblocks - 1];
}

static const char *blk_name(enum blk_kind k)
{
    return k == BLK_IF ? "if" : k == BLK_LOOP ? "loop" : "rep";
}

static const char *blk_end(enum blk_kind k)
{
    return k == BLK_IF ? "endif" : k == BLK_LOOP ? "endloop" : "endrep";
}

static void push_block(struct chk *c, enum blk_kind k, const struct st_instr *in)
{
    if (c->nblocks < MAX_BLOCKS)
        c->blocks[c->nblocks] = (struct blk){.kind = k, .loc = in->loc};
    c->nblocks++;
    if (k == BLK_IF) {
        c->if_depth++;
        if (c->lim->max_if_depth && c->if_depth == (unsigned)c->lim->max_if_depth + 1)
            st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                     "if blocks nested %u deep; %s allows %u", c->if_depth, c->vname,
                     (unsigned)c->lim->max_if_depth);
    } else {
        c->loop_depth++;
        if (k == BLK_LOOP)
            c->aloop_depth++;
        if (c->lim->max_loop_depth && c->loop_depth == (unsigned)c->lim->max_loop_depth + 1)
            st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                     "loop/rep blocks nested %u deep; %s allows %u", c->loop_depth, c->vname,
                     (unsigned)c->lim->max_loop_depth);
    }
}

static void pop_block(struct chk *c)
{
    struct blk *b = top_block(c);
    if (!b)
        return;
    if (b->kind == BLK_IF)
        c->if_depth--;
    else {
        c->loop_depth--;
        if (b->kind == BLK_LOOP)
            c->aloop_depth--;
    }
    c->nblocks--;
}

static void close_block(struct chk *c, const struct st_instr *in, enum blk_kind k)
{
    struct blk *b = top_block(c);
    if (!b) {
        st_error(c->ctx, in->loc, ST_E_FLOW_NESTING, "%s without %s", blk_end(k), blk_name(k));
        return;
    }
    if (b->kind != k) {
        st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                 "%s closes the %s opened at line %u; it needs %s first", blk_end(k),
                 blk_name(b->kind), (unsigned)b->loc.line, blk_end(b->kind));
        /* Recover: if a matching block is further out, close down to it. */
        unsigned n = c->nblocks < MAX_BLOCKS ? c->nblocks : MAX_BLOCKS;
        bool found = false;
        for (unsigned i = n; i-- > 0;)
            if (c->blocks[i].kind == k) {
                found = true;
                break;
            }
        if (!found)
            return;
        while ((b = top_block(c)) && b->kind != k)
            pop_block(c);
    }
    pop_block(c);
}

/* Reports blocks still open at a point where none may be. */
static void report_open_blocks(struct chk *c, const char *where)
{
    while (c->nblocks) {
        struct blk *b = top_block(c);
        st_error(c->ctx, b->loc, ST_E_FLOW_NESTING, "%s without %s%s", blk_name(b->kind),
                 blk_end(b->kind), where);
        pop_block(c);
    }
}

static void check_flow(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    if (c->lim->max_static_flow &&
        (op == ST_OP_IF || op == ST_OP_ELSE || op == ST_OP_LOOP || op == ST_OP_REP ||
         op == ST_OP_CALL || op == ST_OP_CALLNZ) &&
        ++c->static_flow == (unsigned)c->lim->max_static_flow + 1)
        st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                 "static flow-control instruction number %u; %s allows %u (if, else, loop, "
                 "rep, call and callnz count one each)",
                 c->static_flow, c->vname, (unsigned)c->lim->max_static_flow);
    switch (op) {
    case ST_OP_IF: case ST_OP_IFC:
        push_block(c, BLK_IF, in);
        break;
    case ST_OP_LOOP:
        push_block(c, BLK_LOOP, in);
        break;
    case ST_OP_REP:
        push_block(c, BLK_REP, in);
        break;
    case ST_OP_ELSE: {
        struct blk *b = top_block(c);
        if (!b || b->kind != BLK_IF)
            st_error(c->ctx, in->loc, ST_E_FLOW_NESTING, "else without if%s",
                     b ? " (inside a loop or rep block)" : "");
        else if (b->seen_else)
            st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                     "second else for the if at line %u", (unsigned)b->loc.line);
        else
            b->seen_else = true;
        break;
    }
    case ST_OP_ENDIF: close_block(c, in, BLK_IF); break;
    case ST_OP_ENDLOOP: close_block(c, in, BLK_LOOP); break;
    case ST_OP_ENDREP: close_block(c, in, BLK_REP); break;
    case ST_OP_BREAK: case ST_OP_BREAKC: case ST_OP_BREAKP:
        if (c->loop_depth == 0)
            st_error(c->ctx, in->loc, ST_E_FLOW_NESTING,
                     "%s outside a loop or rep block", opname(op));
        break;
    case ST_OP_RET:
        if (c->nblocks == 0) {
            if (c->in_sub)
                c->in_sub = false;
            else if (!c->main_ended)
                c->main_ended = true;
            c->reported_after_ret = false;
        }
        break;
    case ST_OP_LABEL: {
        if (c->nblocks)
            report_open_blocks(c, " before the label");
        if (c->in_sub)
            st_error(c->ctx, in->loc, ST_E_LABEL_RULE,
                     "subroutine l%u (line %u) must end with ret before the next label",
                     (unsigned)c->sub_label, (unsigned)c->sub_loc.line);
        else if (!c->main_ended)
            st_error(c->ctx, in->loc, ST_E_LABEL_RULE,
                     "label before the end of the main program: subroutines follow the main "
                     "program's ret");
        c->main_ended = true;
        c->in_sub = true;
        c->reported_after_ret = false;
        c->sub_loc = in->loc;
        if (in->nsrc >= 1 && in->src[0].reg.file == ST_REG_LABEL) {
            uint32_t n = in->src[0].reg.index;
            c->sub_label = n;
            if (n < MAX_LABELS) {
                if (c->label_def[n].line)
                    st_error(c->ctx, src_loc(&in->src[0], in), ST_E_LABEL_RULE,
                             "label l%u is defined twice (first at line %u)", (unsigned)n,
                             (unsigned)c->label_def[n].line);
                else
                    c->label_def[n] = in->src[0].loc.line ? in->src[0].loc : in->loc;
            }
        }
        break;
    }
    case ST_OP_CALL: case ST_OP_CALLNZ:
        if (in->nsrc >= 1 && in->src[0].reg.file == ST_REG_LABEL) {
            uint32_t n = in->src[0].reg.index;
            if (n < MAX_LABELS && !c->label_use[n].line)
                c->label_use[n] = src_loc(&in->src[0], in);
        }
        break;
    default:
        break;
    }
}

/* Code after the main program's ret must be inside a subroutine. */
static void check_placement(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    if (!c->main_ended || c->in_sub || op == ST_OP_LABEL)
        return;
    if (op == ST_OP_DEF || op == ST_OP_DEFI || op == ST_OP_DEFB || op == ST_OP_DCL)
        return;
    if (!c->reported_after_ret)
        st_error(c->ctx, in->loc, ST_E_LABEL_RULE,
                 "%s after the main program's ret: code there must start with label l#",
                 opname(op));
    c->reported_after_ret = true;
}

/* ------------------------------------------------------------------ */
/* ps_1_x texture instructions, ps_1_4 phases, coissue                 */

static bool pad_continues(int kind, int count, enum st_opcode op)
{
    if (kind == 2)
        return op == ST_OP_TEXM3x2TEX || op == ST_OP_TEXM3x2DEPTH;
    if (count == 1)
        return op == ST_OP_TEXM3x3PAD;
    return op == ST_OP_TEXM3x3TEX || op == ST_OP_TEXM3x3SPEC || op == ST_OP_TEXM3x3VSPEC ||
           op == ST_OP_TEXM3x3;
}

static const char *pad_expect(int kind, int count)
{
    if (kind == 2)
        return "texm3x2tex or texm3x2depth";
    if (count == 1)
        return "a second texm3x3pad";
    return "texm3x3tex, texm3x3spec, texm3x3vspec or texm3x3";
}

static void check_tex1x(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    bool tex = is_tex_block_op(c, op);
    uint32_t dreg = in->has_dst && in->dst.reg.file == ST_REG_TEXTURE ? in->dst.reg.index : 99;
    uint32_t sreg = in->nsrc >= 1 && in->src[0].reg.file == ST_REG_TEXTURE
                        ? in->src[0].reg.index : 99;

    /* Matrix sequences: pads, then the instruction that completes them. */
    if (c->pad_kind) {
        if (is_neutral_op(op))
            return;
        if (!pad_continues(c->pad_kind, c->pad_count, op)) {
            st_error(c->ctx, in->loc, ST_E_TEX_RULE, "%s at line %u must be followed by %s",
                     opname(c->pad_first->op), (unsigned)c->pad_first->loc.line,
                     pad_expect(c->pad_kind, c->pad_count));
            c->pad_kind = 0;
        } else {
            if (dreg != c->pad_dst + 1 && dreg != 99)
                st_error(c->ctx, dst_loc(&in->dst, in), ST_E_TEX_RULE,
                         "%s must write t%u, the register after the previous one (t%u)",
                         opname(op), (unsigned)c->pad_dst + 1, (unsigned)c->pad_dst);
            if (sreg != c->pad_src && sreg != 99)
                st_error(c->ctx, src_loc(&in->src[0], in), ST_E_TEX_RULE,
                         "%s must read the same source as the texm3x%dpad before it (t%u)",
                         opname(op), c->pad_kind, (unsigned)c->pad_src);
            c->pad_count++;
            c->pad_dst = dreg;
            if (op != ST_OP_TEXM3x3PAD)
                c->pad_kind = 0;
        }
    } else if (op == ST_OP_TEXM3x2TEX || op == ST_OP_TEXM3x2DEPTH) {
        st_error(c->ctx, in->loc, ST_E_TEX_RULE, "%s must follow a texm3x2pad", opname(op));
    } else if (op == ST_OP_TEXM3x3TEX || op == ST_OP_TEXM3x3SPEC || op == ST_OP_TEXM3x3VSPEC ||
               op == ST_OP_TEXM3x3) {
        st_error(c->ctx, in->loc, ST_E_TEX_RULE, "%s must follow two texm3x3pad instructions",
                 opname(op));
    }
    if (!c->pad_kind && (op == ST_OP_TEXM3x2PAD || op == ST_OP_TEXM3x3PAD)) {
        c->pad_kind = op == ST_OP_TEXM3x2PAD ? 2 : 3;
        c->pad_count = 1;
        c->pad_dst = dreg;
        c->pad_src = sreg;
        c->pad_first = in;
    }

    if (is_neutral_op(op))
        return;
    if (tex) {
        if (c->arith_seen)
            st_error(c->ctx, in->loc, ST_E_TEX_RULE,
                     "texture instruction %s after arithmetic: in %s all texture instructions "
                     "come first",
                     opname(op), c->vname);
        if (dreg < 8 && op != ST_OP_TEXKILL) {
            if (c->tex_written[dreg].line)
                st_error(c->ctx, dst_loc(&in->dst, in), ST_E_TEX_RULE,
                         "t%u is written by a second texture instruction (first at line %u)",
                         (unsigned)dreg, (unsigned)c->tex_written[dreg].line);
            else
                c->tex_written[dreg] = in->loc.line ? in->loc : (struct st_loc){1, 1};
        }
        /* A validation rule only: Wine's tests assemble texreg2ar t0, t1. */
        if (op != ST_OP_TEXKILL && sreg != 99 && dreg != 99 && sreg >= dreg &&
            (st_opinfo[op].flags & OPF_TEX1X) && in->nsrc >= 1)
            st_warning(c->ctx, src_loc(&in->src[0], in), ST_E_TEX_RULE,
                       "%s t%u reads t%u: the source should be a lower-numbered texture "
                       "register (runtimes reject this order)",
                       opname(op), (unsigned)dreg, (unsigned)sreg);
    } else {
        c->arith_seen = true;
    }
}

static void check_ps14(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    if (op == ST_OP_PHASE) {
        if (c->phase_seen)
            st_error(c->ctx, in->loc, ST_E_PHASE_RULE, "second phase: ps_1_4 has two phases, "
                                                       "separated by one phase instruction");
        c->phase_seen = true;
        c->in_phase1 = false;
        c->arith_in_phase = false;
        return;
    }
    if (is_neutral_op(op))
        return;
    if (is_tex_block_op(c, op)) {
        if (c->arith_in_phase)
            st_error(c->ctx, in->loc, ST_E_TEX_RULE,
                     "%s after arithmetic in the same phase: ps_1_4 texture instructions come "
                     "first in each phase",
                     opname(op));
        if (op == ST_OP_TEXDEPTH && c->in_phase1)
            st_error(c->ctx, in->loc, ST_E_PHASE_RULE,
                     "texdepth belongs to the second phase (after 'phase')");
    } else {
        c->arith_in_phase = true;
    }
}

static void check_coissue(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    if (!in->coissue || !is_ps1x(c))
        return;
    const struct st_instr *p = c->prev;
    char a[8], b[8];
    if (!p) {
        st_error(c->ctx, in->loc, ST_E_COISSUE_RULE,
                 "'+' pairs an instruction with the one before it; there is none");
        return;
    }
    if (is_tex_block_op(c, op) || is_neutral_op(op) || is_tex_block_op(c, p->op) ||
        is_neutral_op(p->op)) {
        st_error(c->ctx, in->loc, ST_E_COISSUE_RULE,
                 "only two arithmetic instructions can be coissued; %s",
                 is_tex_block_op(c, op) || is_neutral_op(op)
                     ? "this one is not"
                     : "the one before is not");
        return;
    }
    if (p->coissue) {
        st_error(c->ctx, in->loc, ST_E_COISSUE_RULE,
                 "only two instructions can be coissued; the one before is already paired");
        return;
    }
    if (!in->has_dst || !p->has_dst)
        return;
    uint8_t m1 = p->dst.writemask & 0xf, m2 = in->dst.writemask & 0xf;
    bool ok = (m1 == 0x8 && m2 && !(m2 & 0x8)) || (m2 == 0x8 && m1 && !(m1 & 0x8));
    if (!ok)
        st_error(c->ctx, in->loc, ST_E_COISSUE_RULE,
                 "coissued instructions must split color and alpha: one writes .a, the other "
                 ".rgb (or part of it); here they write %s and %s",
                 m1 == 0xf ? ".rgba" : mask_text(m1, a),
                 m2 == 0xf ? ".rgba" : mask_text(m2, b));
}

/* ------------------------------------------------------------------ */
/* Rules of single instructions                                        */

static bool same_reg(const struct st_reg *a, const struct st_reg *b)
{
    return a->file == b->file && a->index == b->index && !a->rel && !b->rel;
}

/* texld/texldp/texldb of ps_2_0 and ps_2_x ("texld - ps_2_0 and up"). */
static void check_texld2(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    const struct st_src *s = &in->src[0];
    char nb[24], sb[8];
    if (in->has_dst && (in->dst.writemask & 0xf) != 0xf && in->dst.reg.file == ST_REG_TEMP)
        st_error(c->ctx, dst_loc(&in->dst, in), ST_E_WRITEMASK_RULE,
                 "%s writes all four components in %s: no writemask", opname(op), c->vname);
    if (s->reg.file != ST_REG_TEXTURE && s->reg.file != ST_REG_TEMP)
        st_error(c->ctx, src_loc(s, in), ST_E_OPERAND_KIND,
                 "the coordinate of %s in %s must be t# or r#; found %s", opname(op), c->vname,
                 regname(&s->reg, nb));
    if (s->mod != ST_SRCMOD_NONE && s->mod != ST_SRCMOD_NOT)
        st_error(c->ctx, src_loc(s, in), ST_E_SRCMOD_VERSION,
                 "the coordinate of %s takes no source modifier in %s", opname(op), c->vname);
    if (s->swizzle != ST_SWIZZLE_IDENTITY)
        st_error(c->ctx, src_loc(s, in), ST_E_SWIZZLE_RULE,
                 "the coordinate of %s takes no swizzle in %s; found %s (ps_3_0 allows one)",
                 opname(op), c->vname, swz_text(s, sb));
}

/* m3x2..m4x4 and crs: the operand restrictions of their reference pages. */
static void check_special(struct chk *c, const struct st_instr *in, enum st_opcode op)
{
    char nb[24], sb[8];
    if (st_opinfo[op].flags & OPF_MATRIX) {
        const struct st_src *m = &in->src[1];
        if (m->swizzle != ST_SWIZZLE_IDENTITY)
            st_error(c->ctx, src_loc(m, in), ST_E_SWIZZLE_RULE,
                     "the matrix operand of %s takes no swizzle; found %s", opname(op),
                     swz_text(m, sb));
        if (m->mod == ST_SRCMOD_NEG || m->mod == ST_SRCMOD_ABSNEG)
            st_error(c->ctx, src_loc(m, in), ST_E_SRCMOD_VERSION,
                     "the matrix operand of %s cannot be negated", opname(op));
        if (in->has_dst && same_reg(&in->dst.reg, &in->src[0].reg))
            st_error(c->ctx, dst_loc(&in->dst, in), ST_E_OPERAND_KIND,
                     "%s cannot write %s, the vector it reads: use another destination",
                     opname(op), regname(&in->dst.reg, nb));
    }
    if (op == ST_OP_CRS) {
        if (in->has_dst && in->dst.reg.file != ST_REG_TEMP)
            st_error(c->ctx, dst_loc(&in->dst, in), ST_E_DST_REG,
                     "crs writes a temporary register r#; found %s", regname(&in->dst.reg, nb));
        for (unsigned i = 0; i < 2; i++) {
            const struct st_src *s = &in->src[i];
            if (s->swizzle != ST_SWIZZLE_IDENTITY)
                st_error(c->ctx, src_loc(s, in), ST_E_SWIZZLE_RULE,
                         "the sources of crs take no swizzle; found %s", swz_text(s, sb));
            if (in->has_dst && same_reg(&in->dst.reg, &s->reg))
                st_error(c->ctx, src_loc(s, in), ST_E_OPERAND_KIND,
                         "crs cannot read %s, its own destination", regname(&s->reg, nb));
        }
    }
    if (op == ST_OP_SINCOS && in->nsrc == 3) {
        /* The two constants are D3DSINCOSCONST1/2; Wine's assembler test
         * passes temps, which assemblers accept: a warning. */
        for (unsigned i = 1; i < 3; i++)
            if (in->src[i].reg.file != ST_REG_CONST)
                st_warning(c->ctx, src_loc(&in->src[i], in), ST_E_OPERAND_KIND,
                           "sincos's src%u should be a c# holding D3DSINCOSCONST%u; "
                           "found %s",
                           i, i, regname(&in->src[i].reg, nb));
    }
    if (op == ST_OP_FRC && is_vs(c) && c->ver == V11 && in->has_dst) {
        uint8_t m = in->dst.writemask & 0xf;
        if (m != 0xf && m != 0x1 && m != 0x2 && m != 0x3)
            st_error(c->ctx, dst_loc(&in->dst, in), ST_E_WRITEMASK_RULE,
                     "frc in vs_1_1 writes .x, .y or .xy; writemask %s is not allowed",
                     mask_text(m, sb));
    }
    if (op == ST_OP_DP3 && is_ps13(c) && in->has_dst && (in->dst.writemask & 0xf) == 0x8)
        st_error(c->ctx, dst_loc(&in->dst, in), ST_E_WRITEMASK_RULE,
                 "dp3 in %s writes .rgb or .rgba; writemask .a is not allowed", c->vname);

    /* ps_1_1-1_3 texture instructions take no source modifier except
     * _bx2 (texm* in ps_1_1, every texture instruction in ps_1_2/1_3). */
    if (is_ps13(c) && (st_opinfo[op].flags & OPF_TEX1X)) {
        bool texm = op == ST_OP_TEXM3x2PAD || op == ST_OP_TEXM3x2TEX || op == ST_OP_TEXM3x3PAD ||
                    op == ST_OP_TEXM3x3TEX || op == ST_OP_TEXM3x3SPEC ||
                    op == ST_OP_TEXM3x3VSPEC || op == ST_OP_TEXM3x3 || op == ST_OP_TEXM3x2DEPTH;
        for (unsigned i = 0; i < in->nsrc && i < 5; i++) {
            enum st_srcmod m = in->src[i].mod;
            if (m == ST_SRCMOD_NONE || (m == ST_SRCMOD_SIGN && (texm || c->ver >= V12)))
                continue;
            st_error(c->ctx, src_loc(&in->src[i], in), ST_E_SRCMOD_VERSION,
                     "texture instruction sources take no source modifier in %s%s", c->vname,
                     c->ver >= V12 ? " except _bx2" : " (texm* sources may use _bx2)");
        }
    }

    /* vs_3_0: a shader reads all of its c# with _abs or none of them. */
    if (is_vs(c) && c->ver == V30) {
        for (unsigned i = 0; i < in->nsrc && i < 5; i++) {
            const struct st_src *s = &in->src[i];
            if (s->reg.file != ST_REG_CONST)
                continue;
            bool abs = s->mod == ST_SRCMOD_ABS || s->mod == ST_SRCMOD_ABSNEG;
            struct st_loc *mine = abs ? &c->const_abs_loc : &c->const_noabs_loc;
            struct st_loc *other = abs ? &c->const_noabs_loc : &c->const_abs_loc;
            if (other->line)
                st_error(c->ctx, src_loc(s, in), ST_E_SRCMOD_VERSION,
                         "%s is read %s _abs, but line %u reads c# %s it: a vs_3_0 shader "
                         "reads all c# with _abs or none",
                         regname(&s->reg, nb), abs ? "with" : "without", (unsigned)other->line,
                         abs ? "without" : "with");
            else if (!mine->line)
                *mine = src_loc(s, in);
        }
    }
}

/* Declaring the same register (components) twice. */
static void check_dup_dcl(struct chk *c, const struct st_instr *in)
{
    const struct st_reg *r = &in->dst.reg;
    char nb[24];
    struct st_loc here = dst_loc(&in->dst, in);
    uint8_t m = in->dst.writemask & 0xf;
    uint8_t *masks = NULL;
    struct st_loc *locs = NULL;
    unsigned n = 0;
    switch (r->file) {
    case ST_REG_INPUT: masks = c->dcl_input; locs = c->dcl_input_loc; n = 16; break;
    case ST_REG_OUTPUT: masks = c->dcl_output; locs = c->dcl_output_loc; n = 12; break;
    case ST_REG_TEXTURE: masks = c->dcl_texture; locs = c->dcl_texture_loc; n = 8; break;
    case ST_REG_SAMPLER: locs = c->dcl_sampler_loc; n = 16; break;
    case ST_REG_MISC: locs = c->dcl_misc_loc; n = 2; break;
    default: return;
    }
    if (r->index >= n || r->rel)
        return;
    bool clash = masks ? (masks[r->index] & m) != 0 : locs[r->index].line != 0;
    if (clash)
        st_error(c->ctx, here, ST_E_DCL_RULE, "%s is declared twice (first at line %u)",
                 regname(r, nb), (unsigned)locs[r->index].line);
    if (!locs[r->index].line)
        locs[r->index] = here.line ? here : (struct st_loc){1, 1};
    if (masks)
        masks[r->index] |= m;
}

static void record_call(struct chk *c, const struct st_instr *in)
{
    if (in->nsrc < 1 || in->src[0].reg.file != ST_REG_LABEL ||
        in->src[0].reg.index >= MAX_LABELS)
        return;
    if (c->ncalls == c->calls_cap) {
        size_t cap = c->calls_cap ? c->calls_cap * 2 : 16;
        struct call_site *p = realloc(c->calls, cap * sizeof(*p));
        if (!p)
            return; /* the limit check is skipped rather than failing */
        c->calls = p;
        c->calls_cap = cap;
    }
    c->calls[c->ncalls++] = (struct call_site){
        .caller = c->in_sub ? c->sub_label : MAIN_ROUTINE,
        .callee = in->src[0].reg.index,
        .loc = src_loc(&in->src[0], in)};
}

/*
 * The call graph: height(r) is the deepest chain of nested calls starting
 * in routine r (memoised); a routine met again while its own height is
 * being computed is recursion.
 */
struct call_walk {
    struct chk *c;
    uint8_t *state;   /* per label: 0 new, 1 in progress, 2 done */
    uint16_t *height; /* per label, valid when done */
};

static unsigned routine_height(struct call_walk *w, uint32_t routine)
{
    struct chk *c = w->c;
    unsigned h = 0;
    for (size_t i = 0; i < c->ncalls; i++) {
        const struct call_site *cs = &c->calls[i];
        if (cs->caller != routine || !c->label_def[cs->callee].line)
            continue;
        unsigned sub;
        if (w->state[cs->callee] == 1) {
            st_error(c->ctx, cs->loc, ST_E_LABEL_RULE,
                     "call to l%u is recursive: subroutines cannot call themselves, directly "
                     "or through others",
                     (unsigned)cs->callee);
            continue;
        }
        if (w->state[cs->callee] == 0) {
            w->state[cs->callee] = 1;
            w->height[cs->callee] = (uint16_t)routine_height(w, cs->callee);
            w->state[cs->callee] = 2;
        }
        sub = w->height[cs->callee];
        if (sub + 1 > h)
            h = sub + 1;
    }
    return h;
}

static void check_calls(struct chk *c)
{
    if (!c->ncalls)
        return;
    uint8_t *state = calloc(MAX_LABELS, 1);
    uint16_t *height = calloc(MAX_LABELS, sizeof(*height));
    if (!state || !height) {
        free(state);
        free(height);
        return;
    }
    struct call_walk w = {.c = c, .state = state, .height = height};
    unsigned limit = c->ver == V20 ? 1 : 4;
    (void)routine_height(&w, MAIN_ROUTINE);
    /* Report the first call of the main program whose chain is too deep. */
    for (size_t i = 0; i < c->ncalls; i++) {
        const struct call_site *cs = &c->calls[i];
        if (cs->caller != MAIN_ROUTINE || state[cs->callee] != 2)
            continue;
        unsigned depth = height[cs->callee] + 1u;
        if (depth > limit) {
            st_error(c->ctx, cs->loc, ST_E_FLOW_NESTING,
                     "calls nested %u deep from this call; %s allows %u", depth, c->vname,
                     limit);
            break;
        }
    }
    /* Subroutines never reached from main still must not recurse. */
    for (size_t i = 0; i < c->ncalls; i++) {
        uint32_t r = c->calls[i].caller;
        if (r != MAIN_ROUTINE && state[r] == 0) {
            state[r] = 1;
            height[r] = (uint16_t)routine_height(&w, r);
            state[r] = 2;
        }
    }
    free(state);
    free(height);
}

/* ------------------------------------------------------------------ */
/* One instruction                                                     */

static unsigned expected_nsrc(const struct chk *c, enum st_opcode op)
{
    if (op == ST_OP_SINCOS)
        return c->ver == V30 ? 1 : 3;
    if (op == ST_OP_TEXLD)
        return is_ps14(c) ? 1 : 2;
    return st_opinfo[op].nsrc;
}

static void check_instr(struct chk *c, const struct st_instr *in)
{
    if ((unsigned)in->op >= ST_OP_COUNT) {
        st_error(c->ctx, in->loc, ST_E_OPCODE_VERSION, "unknown instruction");
        return;
    }
    enum st_opcode op = effective_op(in);
    const struct st_opinfo *oi = &st_opinfo[op];
    uint16_t lo = is_vs(c) ? oi->vs_min : oi->ps_min;
    uint16_t hi = is_vs(c) ? oi->vs_max : oi->ps_max;

    if (lo == VNONE || c->ver < lo || c->ver > hi) {
        char r[48];
        range_str(c->type, lo, hi, r, sizeof(r));
        if ((op == ST_OP_IFC || op == ST_OP_BREAKC) && in->cmp != ST_CMP_NONE)
            st_error(c->ctx, in->loc, ST_E_OPCODE_VERSION,
                     "%s_%s (%s) is not available in %s; it exists in %s",
                     op == ST_OP_IFC ? "if" : "break", st_compare_name(in->cmp), oi->name,
                     c->vname, r);
        else
            st_error(c->ctx, in->loc, ST_E_OPCODE_VERSION,
                     "instruction %s is not available in %s; it exists in %s", oi->name,
                     c->vname, r);
        /* Keep the block structure so its end does not report again. */
        if (op == ST_OP_IF || op == ST_OP_IFC || op == ST_OP_ELSE || op == ST_OP_ENDIF ||
            op == ST_OP_LOOP || op == ST_OP_ENDLOOP || op == ST_OP_REP || op == ST_OP_ENDREP)
            check_flow(c, in, op);
        c->prev = in;
        return;
    }

    check_placement(c, in, op);
    check_instr_mods(c, in, op);

    /* Operand counts. */
    bool counts_ok = true;
    unsigned want_src = expected_nsrc(c, op);
    bool want_dst = oi->ndst > 0;
    if (in->has_dst != want_dst) {
        counts_ok = false;
        st_error(c->ctx, in->has_dst ? dst_loc(&in->dst, in) : in->loc, ST_E_OPERAND_COUNT,
                 want_dst ? "%s needs a destination operand" : "%s takes no destination operand",
                 oi->name);
    }
    if (in->nsrc != want_src) {
        counts_ok = false;
        char extra[96] = "";
        if (op == ST_OP_SINCOS)
            snprintf(extra, sizeof(extra), " in %s%s", c->vname,
                     want_src == 3 ? " (sincos dst, src, c#, c#)" : " (sincos dst, src)");
        else if (op == ST_OP_TEXLD)
            snprintf(extra, sizeof(extra), " in %s%s", c->vname,
                     want_src == 1 ? " (texld r#, t#)" : " (texld dst, coord, s#)");
        else if (want_src == 0 && oi->ndst)
            snprintf(extra, sizeof(extra), " (%s dst)", oi->name);
        struct st_loc l = in->nsrc > want_src && want_src < 5 ? src_loc(&in->src[want_src], in)
                                                              : in->loc;
        st_error(c->ctx, l, ST_E_OPERAND_COUNT, "%s takes %u source operand%s%s; found %u",
                 oi->name, want_src, want_src == 1 ? "" : "s", extra, in->nsrc);
    }

    /* Destination. */
    if (op == ST_OP_DCL)
        check_dcl(c, in);
    else if (op == ST_OP_DEF || op == ST_OP_DEFI || op == ST_OP_DEFB)
        check_def(c, in, op);
    else if (in->has_dst && want_dst)
        check_dst(c, in, op);

    /* Sources; operands beyond the expected count were reported above. */
    unsigned n = in->nsrc < want_src ? in->nsrc : want_src;
    if (n > 5)
        n = 5;
    for (unsigned i = 0; i < n; i++)
        check_src(c, in, op, i, true);
    if (counts_ok)
        check_read_ports(c, in, op);

    /* Instruction-specific rules. */
    if (counts_ok) {
        if (op == ST_OP_CND && is_ps13(c)) {
            const struct st_src *s = &in->src[0];
            /* A validation rule: Wine's assembler tests write cnd r0, r1, ... */
            if (!(s->reg.file == ST_REG_TEMP && s->reg.index == 0 &&
                  s->swizzle == ST_SWIZZLE(3, 3, 3, 3)))
                st_warning(c->ctx, src_loc(s, in), ST_E_OPERAND_KIND,
                           "in %s cnd's condition should be r0.a (runtimes reject others)",
                           c->vname);
        }
        if (is_ps(c) && (c->ver == V20 || c->ver == V2X) &&
            (op == ST_OP_TEXLD || op == ST_OP_TEXLDP || op == ST_OP_TEXLDB))
            check_texld2(c, in, op);
        check_special(c, in, op);
        if (op == ST_OP_DCL && in->has_dst)
            check_dup_dcl(c, in);
        if (op == ST_OP_CALL || op == ST_OP_CALLNZ)
            record_call(c, in);
        check_flow(c, in, op);
    }

    if (is_ps13(c))
        check_tex1x(c, in, op);
    if (is_ps14(c))
        check_ps14(c, in, op);
    check_coissue(c, in, op);
    c->prev = in;
}

/* ------------------------------------------------------------------ */
/* Entry point                                                         */

static bool setup(struct chk *c, const struct st_shader *sh)
{
    c->type = sh->version.type;
    uint16_t v = sh->version.ver;
    vername(c->type, v, c->vname);
    if (c->type == ST_VS) {
        if (v <= V11) { c->slot = SLOT_VS11; c->ver = V11; }
        else if (v == V20) { c->slot = SLOT_VS20; c->ver = V20; }
        else if (v == V2X) { c->slot = SLOT_VS2X; c->ver = V2X; }
        else if (v == V30) { c->slot = SLOT_VS30; c->ver = V30; }
        else return false;
    } else {
        if (v <= V11) { c->slot = SLOT_PS11; c->ver = V11; }
        else if (v == V12) { c->slot = SLOT_PS12; c->ver = V12; }
        else if (v == V13) { c->slot = SLOT_PS13; c->ver = V13; }
        else if (v == V14) { c->slot = SLOT_PS14; c->ver = V14; }
        else if (v == V20) { c->slot = SLOT_PS20; c->ver = V20; }
        else if (v == V2X) { c->slot = SLOT_PS2X; c->ver = V2X; }
        else if (v == V30) { c->slot = SLOT_PS30; c->ver = V30; }
        else return false;
    }
    c->lim = &chk_limits[c->slot];
    return true;
}

bool st_check(struct st_ctx *ctx, struct st_shader *sh)
{
    if (!sh)
        return false;
    if (sh->dialect != ST_D3D9)
        return true; /* ARB programs have their own rules (not this file) */
    unsigned errors_before = st_error_count(ctx);

    struct chk *c = calloc(1, sizeof(*c));
    if (!c) {
        st_error(ctx, (struct st_loc){0, 0}, ST_E_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    c->ctx = ctx;
    if (!setup(c, sh)) {
        char vb[16];
        st_error(ctx, sh->version.loc, ST_E_BAD_VERSION, "unsupported shader version %s",
                 vername(sh->version.type, sh->version.ver, vb));
        free(c);
        return false;
    }

    if (is_ps14(c)) {
        for (const struct st_instr *in = sh->first; in; in = in->next)
            if (in->op == ST_OP_PHASE)
                c->has_phase = true;
        c->in_phase1 = c->has_phase;
    }

    for (const struct st_instr *in = sh->first; in; in = in->next) {
        if (st_error_limit_reached(ctx) || !st_poll_at(ctx, in->loc, 1))
            break;
        check_instr(c, in);
    }

    if (!st_error_limit_reached(ctx)) {
        report_open_blocks(c, "");
        if (c->pad_kind && c->pad_first)
            st_error(ctx, c->pad_first->loc, ST_E_TEX_RULE, "%s must be followed by %s",
                     opname(c->pad_first->op), pad_expect(c->pad_kind, c->pad_count));
        if (c->in_sub)
            st_error(ctx, c->sub_loc, ST_E_LABEL_RULE, "subroutine l%u does not end with ret",
                     (unsigned)c->sub_label);
        for (unsigned n = 0; n < MAX_LABELS; n++)
            if (c->label_use[n].line && !c->label_def[n].line)
                /* Wine's tests assemble a lone "call l2047": warn only. */
                st_warning(ctx, c->label_use[n], ST_E_LABEL_RULE,
                           "call to undefined label l%u (runtimes reject the shader)", n);
        check_calls(c);
    }

    free(c->calls);
    free(c);
    return st_error_count(ctx) == errors_before;
}
