/*
 * markers.c — reading the marker calls of ST_LOWER_VECTOR on LLVM IR
 * (translator.h names them): which marker a call is, and the i32
 * operands that carry its fixed fields.  Shared by the passes and by the
 * merge stage, with a small per-pass cache so that a fixed point does not
 * compare callee names again and again.
 */
#include <string.h>

#include <llvm-c/Core.h>

#include "passes.h"

bool st_llvm_marker(struct st_mk_cache *c, LLVMValueRef v, struct st_marker *m)
{
    memset(m, 0, sizeof(*m));
    if (!v || !LLVMIsACallInst(v))
        return false;
    LLVMValueRef fn = LLVMGetCalledValue(v);
    if (!fn || !LLVMIsAFunction(fn))
        return false;
    if (c)
        for (unsigned k = 0; k < c->n; k++)
            if (c->fn[k] == fn) {
                *m = c->mk[k];
                return m->kind != ST_MK_NONE;
            }
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    bool ok = st_marker_decode(name, len, m);
    if (c && c->n < sizeof(c->fn) / sizeof(c->fn[0])) {
        c->fn[c->n] = fn;
        c->mk[c->n] = *m;
        c->n++;
    }
    return ok;
}

int32_t st_llvm_marker_int(LLVMValueRef call, unsigned k)
{
    LLVMValueRef a = LLVMGetOperand(call, k);
    return a && LLVMIsAConstantInt(a) ? (int32_t)LLVMConstIntGetSExtValue(a) : 0;
}

uint8_t st_llvm_marker_reads(const struct st_marker *m, LLVMValueRef call, unsigned k,
                             uint8_t demand)
{
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    switch (m->kind) {
    case ST_MK_SAT: case ST_MK_SHIFT: case ST_MK_MOD:
        return demand;
    case ST_MK_OSTORE: case ST_MK_OSTORE_REL:
        return (uint8_t)(st_llvm_marker_int(call, nargs - 1) & 0xf);
    case ST_MK_OP: {
        struct st_op_reads_q q = {m->op, k, demand, {0, 1, 2, 3}, 3, 0};
        bool is_void = LLVMGetTypeKind(LLVMTypeOf(call)) == LLVMVoidTypeKind;
        if (is_void)
            q.written = 0xf;
        switch (m->op) {
        case ST_OP_ARB_SWZ: {
            int32_t sel = st_llvm_marker_int(call, 1);
            for (unsigned l = 0; l < 4; l++)
                q.swz_sel[l] = (uint8_t)((sel >> (3 * l)) & 7);
            break;
        }
        case ST_OP_TEXLD: case ST_OP_TEXLDP: case ST_OP_TEXLDB: case ST_OP_TEXLDL:
        case ST_OP_TEXLDD:
            q.tex_dims = (unsigned)st_llvm_marker_int(call, nargs - 1);
            break;
        case ST_OP_ARB_TEX: case ST_OP_ARB_TXP: case ST_OP_ARB_TXB:
            q.tex_target = (unsigned)st_llvm_marker_int(call, nargs - 1);
            break;
        default:
            break;
        }
        return st_op_reads(&q);
    }
    default:
        return 0xf;
    }
}
