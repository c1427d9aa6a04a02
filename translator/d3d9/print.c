/*
 * print.c — canonical Direct3D 9 assembly from an st_shader.
 *
 * The text is what st_parse_d3d9 reads back to the same AST: version with
 * underscores, lowercase opcodes, suffixes in one fixed order (comparison,
 * _sat, _pp, _centroid, shift), write masks and swizzles in their canonical
 * spelling (translator.h helpers), floats with enough digits to round-trip.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

static void print_version(const struct st_version *v, struct st_buf *out)
{
    const char *t = v->type == ST_VS ? "vs" : "ps";
    if (v->ver == ST_VER_2X)
        st_buf_printf(out, "%s_2_x\n", t);
    else
        st_buf_printf(out, "%s_%u_%u\n", t, (unsigned)(v->ver >> 8), (unsigned)(v->ver & 0xff));
}

/* Files written without a number (oPos, oDepth, aL, vFace, ...). */
static bool file_has_index(enum st_regfile f)
{
    switch (f) {
    case ST_REG_RASTOUT:
    case ST_REG_DEPTHOUT:
    case ST_REG_LOOP:
    case ST_REG_MISC:
        return false;
    default:
        return true;
    }
}

static void print_reladdr(const struct st_reladdr *rel, struct st_buf *out)
{
    if (rel->file == ST_REG_LOOP)
        st_buf_printf(out, "aL");
    else
        st_buf_printf(out, "a%u", rel->index);
    if (rel->has_component)
        st_buf_printf(out, ".%c", "xyzw"[rel->component & 3]);
}

static void print_reg(const struct st_reg *r, struct st_buf *out)
{
    const char *name = st_regfile_name(r->file, r->index);
    if (!file_has_index(r->file)) {
        st_buf_printf(out, "%s", name);
        if (r->rel) {
            st_buf_putc(out, '[');
            print_reladdr(r->rel, out);
            st_buf_putc(out, ']');
        }
        return;
    }
    if (r->rel && r->bracket_only) {
        /* "c[a0.x + 5]": the number lives inside the brackets. */
        st_buf_printf(out, "%s[", name);
        print_reladdr(r->rel, out);
        if (r->index)
            st_buf_printf(out, " + %u", r->index);
        st_buf_putc(out, ']');
        return;
    }
    st_buf_printf(out, "%s%u", name, r->index);
    if (r->rel) {
        st_buf_putc(out, '[');
        print_reladdr(r->rel, out);
        st_buf_putc(out, ']');
    }
}

static void print_dst(const struct st_dst *d, struct st_buf *out)
{
    char mask[6];
    print_reg(&d->reg, out);
    st_writemask_str(d->writemask, mask);
    st_buf_printf(out, "%s", mask);
}

static void print_src(const struct st_src *s, struct st_buf *out)
{
    const char *pre = "", *post = "";
    switch (s->mod) {
    case ST_SRCMOD_NONE: break;
    case ST_SRCMOD_NEG: pre = "-"; break;
    case ST_SRCMOD_BIAS: post = "_bias"; break;
    case ST_SRCMOD_BIASNEG: pre = "-"; post = "_bias"; break;
    case ST_SRCMOD_SIGN: post = "_bx2"; break;
    case ST_SRCMOD_SIGNNEG: pre = "-"; post = "_bx2"; break;
    case ST_SRCMOD_COMP: pre = "1 - "; break;
    case ST_SRCMOD_X2: post = "_x2"; break;
    case ST_SRCMOD_X2NEG: pre = "-"; post = "_x2"; break;
    case ST_SRCMOD_DZ: post = "_dz"; break;
    case ST_SRCMOD_DW: post = "_dw"; break;
    case ST_SRCMOD_ABS: post = "_abs"; break;
    case ST_SRCMOD_ABSNEG: pre = "-"; post = "_abs"; break;
    case ST_SRCMOD_NOT: pre = "!"; break;
    }
    char swz[6];
    st_swizzle_str(s->swizzle, s->swizzle_len, swz);
    st_buf_printf(out, "%s", pre);
    print_reg(&s->reg, out);
    st_buf_printf(out, "%s%s", post, swz);
}

/* Shortest text that reads back as the same float and still lexes as a
 * float literal ("1" would be an integer token: print "1.0"). */
static void print_float(float f, struct st_buf *out)
{
    char buf[48];
    if (!isfinite(f)) {
        /* The parser never produces these; keep the output parseable. */
        snprintf(buf, sizeof(buf), "%s", isnan(f) ? "0.0" : f > 0 ? "3.40282347e+38" : "-3.40282347e+38");
        st_buf_printf(out, "%s", buf);
        return;
    }
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, (double)f);
        float back = strtof(buf, NULL);
        if (back == f && signbit(back) == signbit(f))
            break;
    }
    /* ('.', not the host's decimal point: st_compile and st_run run in the
     * C locale, driver.c) */
    if (!strpbrk(buf, ".e"))
        strcat(buf, ".0");
    st_buf_printf(out, "%s", buf);
}

static void print_opname(const struct st_instr *ins, struct st_buf *out)
{
    switch (ins->op) {
    case ST_OP_IFC: st_buf_printf(out, "if"); break;
    case ST_OP_BREAKC: st_buf_printf(out, "break"); break;
    default: st_buf_printf(out, "%s", st_opinfo[ins->op].name); break;
    }
    if (ins->op == ST_OP_DCL && !ins->dcl_bare) {
        static const char *const samplers[] = {"", "2d", "cube", "volume"};
        if (ins->sampler_type != ST_SAMPLER_NONE)
            st_buf_printf(out, "_%s", samplers[ins->sampler_type & 3]);
        else if (ins->usage < ST_USAGE_COUNT)
            st_buf_printf(out, "_%s", st_usage_names[ins->usage]);
        if (ins->sampler_type == ST_SAMPLER_NONE && ins->usage_index_written)
            st_buf_printf(out, "%u", ins->usage_index);
    }
    if (ins->cmp != ST_CMP_NONE)
        st_buf_printf(out, "_%s", st_compare_name(ins->cmp));
    if (ins->dstmod & ST_DSTMOD_SAT)
        st_buf_printf(out, "_sat");
    if (ins->dstmod & ST_DSTMOD_PP)
        st_buf_printf(out, "_pp");
    if (ins->dstmod & ST_DSTMOD_CENTROID)
        st_buf_printf(out, "_centroid");
    if (ins->shift > 0)
        st_buf_printf(out, "_x%d", 1 << ins->shift);
    else if (ins->shift < 0)
        st_buf_printf(out, "_d%d", 1 << -ins->shift);
}

static void print_instr(const struct st_instr *ins, struct st_buf *out)
{
    if (ins->coissue)
        st_buf_putc(out, '+');
    if (ins->predicated) {
        st_buf_putc(out, '(');
        print_src(&ins->pred, out);
        st_buf_printf(out, ") ");
    }
    print_opname(ins, out);

    const char *sep = " ";
    if (ins->has_dst) {
        st_buf_printf(out, "%s", sep);
        print_dst(&ins->dst, out);
        sep = ", ";
    }
    switch (ins->op) {
    case ST_OP_DEF:
        for (int i = 0; i < 4; i++) {
            st_buf_printf(out, "%s", sep);
            print_float(ins->imm.f[i], out);
            sep = ", ";
        }
        break;
    case ST_OP_DEFI:
        for (int i = 0; i < 4; i++) {
            st_buf_printf(out, "%s%d", sep, (int)ins->imm.i[i]);
            sep = ", ";
        }
        break;
    case ST_OP_DEFB:
        st_buf_printf(out, "%s%s", sep, ins->imm.b ? "true" : "false");
        break;
    default:
        for (unsigned i = 0; i < ins->nsrc && i < 5; i++) {
            st_buf_printf(out, "%s", sep);
            print_src(&ins->src[i], out);
            sep = ", ";
        }
        break;
    }
    st_buf_putc(out, '\n');
}

void st_print_asm(const struct st_shader *sh, struct st_buf *out)
{
    if (!sh)
        return;
    print_version(&sh->version, out);
    for (const struct st_instr *ins = sh->first; ins; ins = ins->next)
        print_instr(ins, out);
}
