/*
 * arb_print.c — canonical ARB program text, and the ARB instruction table.
 *
 * Canonical form: the header, the options (one line each, fixed order),
 * every declaration in program order, then the instructions, then END.
 * Declarations are printed before all instructions (ARB only requires a
 * name to be declared before its use, so this is always legal); bindings
 * use their canonical spelling; constants are printed as four-component
 * vectors with the shortest decimal text that reads back as the same float.
 * Parsing this text builds the same tables in the same order, so printing
 * it again gives the same text (tests/test_arb.c checks this fixed point).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator.h"

const struct st_arb_opinfo st_arb_opinfo[] = {
#define ARB(nm, o, v, f, ops, t) {nm, ST_OP_##o, v, f, ops, t},
#include "arb_opcodes.def"
#undef ARB
};
const unsigned st_arb_num_opinfo = sizeof(st_arb_opinfo) / sizeof(st_arb_opinfo[0]);

const char *st_arb_opcode_name(enum st_opcode op)
{
    for (unsigned i = 0; i < st_arb_num_opinfo; i++)
        if (st_arb_opinfo[i].op == op)
            return st_arb_opinfo[i].name;
    return NULL;
}

const char *st_arb_tex_target_name(enum st_arb_tex_target t)
{
    static const char *const names[] = {"1D", "2D", "3D", "CUBE", "RECT",
                                        "SHADOW1D", "SHADOW2D", "SHADOWRECT"};
    return (unsigned)t < 8 ? names[t] : "?";
}

/* Shortest "%.Ng" that reads back as the same float. */
static void put_float(struct st_buf *b, float f)
{
    char tmp[32];
    /* the range first: converting a float outside long's range is undefined */
    if (f > -1e9f && f < 1e9f && f == (float)(long)f && !(f == 0.0f && signbit(f))) {
        st_buf_printf(b, "%ld", (long)f); /* integers as integers: "10", not "1e+01" */
        return;
    }
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, (double)f);
        if (strtof(tmp, NULL) == f)
            break;
    }
    st_buf_printf(b, "%s", tmp);
}

static void put_vector(struct st_buf *b, const float v[4])
{
    st_buf_putc(b, '{');
    for (int i = 0; i < 4; i++) {
        if (i)
            st_buf_printf(b, ", ");
        put_float(b, v[i]);
    }
    st_buf_putc(b, '}');
}

static void put_param(struct st_buf *b, const struct st_arb_param *p)
{
    if (p->kind == ST_ARB_PARAM_CONST)
        put_vector(b, p->value);
    else
        st_buf_printf(b, "%s", p->binding);
}

/* Matrix row bindings end in ".row[N]": the base and N, or false. */
static bool matrix_row(const struct st_arb_param *p, size_t *base_len, unsigned *row)
{
    if (p->kind != ST_ARB_PARAM_STATE || strncmp(p->binding, "state.matrix.", 13) != 0)
        return false;
    const char *r = strstr(p->binding, ".row[");
    if (!r || r[5] < '0' || r[5] > '3' || r[6] != ']' || r[7] != '\0')
        return false;
    *base_len = (size_t)(r - p->binding);
    *row = (unsigned)(r[5] - '0');
    return true;
}

/* The items of an array, consecutive env/local numbers and matrix rows
 * folded into ranges. */
static void put_array_items(struct st_buf *b, const struct st_arb_program *a,
                            const struct st_arb_array *arr)
{
    uint32_t i = 0;
    while (i < arr->count) {
        const struct st_arb_param *p = &a->params[arr->first + i];
        uint32_t run = 1;
        if (i)
            st_buf_printf(b, ", ");
        if (p->kind == ST_ARB_PARAM_ENV || p->kind == ST_ARB_PARAM_LOCAL) {
            while (i + run < arr->count && a->params[arr->first + i + run].kind == p->kind &&
                   a->params[arr->first + i + run].index == p->index + run)
                run++;
            const char *what = p->kind == ST_ARB_PARAM_ENV ? "env" : "local";
            if (run == 1)
                st_buf_printf(b, "program.%s[%u]", what, p->index);
            else
                st_buf_printf(b, "program.%s[%u..%u]", what, p->index, p->index + run - 1);
        } else {
            size_t blen, bl2;
            unsigned row, r2;
            if (matrix_row(p, &blen, &row)) {
                while (i + run < arr->count &&
                       matrix_row(&a->params[arr->first + i + run], &bl2, &r2) && bl2 == blen &&
                       strncmp(a->params[arr->first + i + run].binding, p->binding, blen) == 0 &&
                       r2 == row + run)
                    run++;
            }
            if (run == 1)
                put_param(b, p);
            else
                st_buf_printf(b, "%.*s.row[%u..%u]", (int)blen, p->binding, row, row + run - 1);
        }
        i += run;
    }
}

static void put_register(struct st_buf *b, const struct st_arb_program *a, const struct st_reg *reg,
                         const struct st_arb_operand *ao)
{
    if (ao->var) {
        st_buf_printf(b, "%s", ao->var);
        if (ao->array >= 0) {
            if (reg->rel) {
                st_buf_printf(b, "[%s.x", reg->rel->index < a->num_addrs ? a->addrs[reg->rel->index] : "?");
                if (ao->offset > 0)
                    st_buf_printf(b, " + %d", ao->offset);
                else if (ao->offset < 0)
                    st_buf_printf(b, " - %d", -ao->offset);
                st_buf_putc(b, ']');
            } else {
                st_buf_printf(b, "[%d]", ao->offset);
            }
        }
        return;
    }
    switch (reg->file) {
    case ST_REG_INPUT:
        st_buf_printf(b, "%s", reg->index < a->num_inputs ? a->inputs[reg->index].binding : "?");
        break;
    case ST_REG_OUTPUT:
        st_buf_printf(b, "%s", reg->index < a->num_outputs ? a->outputs[reg->index].binding : "?");
        break;
    case ST_REG_CONST:
        if (reg->index < a->num_params)
            put_param(b, &a->params[reg->index]);
        break;
    case ST_REG_TEMP:
        st_buf_printf(b, "%s", reg->index < a->num_temps ? a->temps[reg->index] : "?");
        break;
    case ST_REG_ADDR:
        st_buf_printf(b, "%s", reg->index < a->num_addrs ? a->addrs[reg->index] : "?");
        break;
    default:
        st_buf_printf(b, "?");
        break;
    }
}

static void put_src(struct st_buf *b, const struct st_arb_program *a, const struct st_src *s,
                    const struct st_arb_operand *ao)
{
    if (s->mod == ST_SRCMOD_NEG)
        st_buf_putc(b, '-');
    put_register(b, a, &s->reg, ao);
    if (s->swizzle_len == 1) {
        st_buf_printf(b, ".%c", "xyzw"[ST_SWZ_LANE(s->swizzle, 0)]);
    } else if (s->swizzle_len) {
        st_buf_putc(b, '.');
        for (int i = 0; i < 4; i++)
            st_buf_putc(b, "xyzw"[ST_SWZ_LANE(s->swizzle, i)]);
    }
}

static const char *const option_names[] = {
    "ARB_position_invariant", "ARB_fog_exp", "ARB_fog_exp2", "ARB_fog_linear",
    "ARB_precision_hint_fastest", "ARB_precision_hint_nicest", "ARB_draw_buffers",
    "ARB_fragment_program_shadow", "ARB_fragment_coord_origin_upper_left",
    "ARB_fragment_coord_pixel_center_integer",
};

void st_print_arb(const struct st_shader *sh, struct st_buf *out)
{
    const struct st_arb_program *a = sh->arb;
    if (!a)
        return;
    st_buf_printf(out, "!!ARB%s1.0\n", sh->version.type == ST_VS ? "vp" : "fp");
    for (unsigned i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++)
        if (a->options & (1u << i))
            st_buf_printf(out, "OPTION %s;\n", option_names[i]);

    for (unsigned i = 0; i < a->num_decls; i++) {
        const struct st_arb_decl *d = &a->decls[i];
        switch (d->kind) {
        case ST_ARB_DECL_TEMP:
            st_buf_printf(out, "TEMP %s;\n", d->name);
            break;
        case ST_ARB_DECL_ADDRESS:
            st_buf_printf(out, "ADDRESS %s;\n", d->name);
            break;
        case ST_ARB_DECL_ATTRIB:
            st_buf_printf(out, "ATTRIB %s = %s;\n", d->name, a->inputs[d->index].binding);
            break;
        case ST_ARB_DECL_OUTPUT:
            st_buf_printf(out, "OUTPUT %s = %s;\n", d->name, a->outputs[d->index].binding);
            break;
        case ST_ARB_DECL_PARAM:
            st_buf_printf(out, "PARAM %s = ", d->name);
            put_param(out, &a->params[d->index]);
            st_buf_printf(out, ";\n");
            break;
        case ST_ARB_DECL_ARRAY: {
            const struct st_arb_array *arr = &a->arrays[d->index];
            if (arr->size_written)
                st_buf_printf(out, "PARAM %s[%u] = { ", d->name, arr->count);
            else
                st_buf_printf(out, "PARAM %s[] = { ", d->name);
            put_array_items(out, a, arr);
            st_buf_printf(out, " };\n");
            break;
        }
        case ST_ARB_DECL_ALIAS:
            st_buf_printf(out, "ALIAS %s = %s;\n", d->name, a->decls[d->index].name);
            break;
        }
    }

    for (const struct st_instr *in = sh->first; in; in = in->next) {
        const struct st_arb_instr *ai = in->arb;
        const char *name = st_arb_opcode_name(in->op);
        st_buf_printf(out, "%s%s", name ? name : "?", (in->dstmod & ST_DSTMOD_SAT) ? "_SAT" : "");
        bool first = true;
        if (in->has_dst) {
            char mask[6];
            st_buf_putc(out, ' ');
            put_register(out, a, &in->dst.reg, &ai->dst);
            if (in->op == ST_OP_ARB_ARL) {
                st_buf_printf(out, ".x");
            } else {
                st_writemask_str(in->dst.writemask, mask);
                st_buf_printf(out, "%s", mask);
            }
            first = false;
        }
        for (unsigned i = 0; i < in->nsrc; i++) {
            st_buf_printf(out, first ? " " : ", ");
            first = false;
            if (in->src[i].reg.file == ST_REG_SAMPLER)
                st_buf_printf(out, "texture[%u]", in->src[i].reg.index);
            else
                put_src(out, a, &in->src[i], &ai->src[i]);
        }
        if (in->op == ST_OP_ARB_SWZ) {
            for (int i = 0; i < 4; i++) {
                const char *sel = ai->swz_sel[i] == ST_ARB_SWZ_ZERO  ? "0"
                                  : ai->swz_sel[i] == ST_ARB_SWZ_ONE ? "1"
                                                                     : NULL;
                st_buf_printf(out, ", %s", (ai->swz_neg >> i) & 1 ? "-" : "");
                if (sel)
                    st_buf_printf(out, "%s", sel);
                else
                    st_buf_putc(out, "xyzw"[ai->swz_sel[i] & 3]);
            }
        }
        if (in->op == ST_OP_ARB_TEX || in->op == ST_OP_ARB_TXP || in->op == ST_OP_ARB_TXB)
            st_buf_printf(out, ", %s", st_arb_tex_target_name(ai->tex_target));
        st_buf_printf(out, ";\n");
    }
    st_buf_printf(out, "END\n");
}
