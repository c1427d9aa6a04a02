/* gensim/msg.c — the shared-function messages of the Gen9 ABI subset.
 *
 * Descriptor fields follow docs/gen9-target.md sections 4 and 5 (Mesa
 * brw_eu.h / brw_inst.h field layout, IGA decodes): desc 28:25 mlen,
 * 24:20 rlen, 19 header present; ExDesc 3:0 SFID, 5 EOT, 9:6 src1 length
 * of split sends.  The payload of a send is src0's mlen GRFs followed (for
 * sends/sendsc) by src1's GRFs; each message decodes that byte string.
 * Unsupported messages stop the run with a message naming the line.
 */
#include "gensim.h"

#include <stdio.h>
#include <string.h>

#define GRF 32

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

typedef struct msg {
    gensim_thread *t;
    const gensim_inst *in;
    uint32_t desc, exdesc;
    unsigned sfid, mlen, rlen, src1_len, header, eot, total;
    uint32_t mask;             /* enabled channels, bit i = channel group+i */
    uint8_t payload[31 * GRF]; /* src0 part then src1 part */
    char cberr[200];
} msg;

/* dword `dw` of payload GRF `reg` */
static uint32_t pl(const msg *m, unsigned reg, unsigned dw)
{
    return rd32(m->payload + reg * GRF + dw * 4);
}

static void resp32(msg *m, unsigned reg, unsigned dw, uint32_t v)
{
    wr32(m->t->grf + (m->in->dst.reg + reg) * GRF + dw * 4, v);
}

static int cb_fail(msg *m, const char *what)
{
    return gensim__fail(m->t, m->in, "%s callback failed: %s", what,
                        m->cberr[0] ? m->cberr : "(no message)");
}

/* ---- render target write ---------------------------------------------- */

static int rt_write(msg *m)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    unsigned type = (m->desc >> 14) & 0x1f;
    if (type != 12)
        return gensim__fail(t, in, "render cache message type %u is not modelled (only 12, render target write)", type);
    if (m->rlen)
        return gensim__fail(t, in, "render target write must have response length 0");
    gensim_rt_write w;
    memset(&w, 0, sizeof w);
    w.line = in->line;
    w.bti = m->desc & 0xff;
    w.subtype = (m->desc >> 8) & 7;
    w.slot_group_high = (m->desc >> 11) & 1;
    w.last_rt = (m->desc >> 12) & 1;
    w.eot = m->eot;
    w.header_present = m->header;
    switch (w.subtype) {
    case 0: w.simd = 16; break;
    case 4: w.simd = 8; break;
    case 2: case 3: w.simd = 8; w.dual_source = 1; break;
    default:
        return gensim__fail(t, in, "render target write subtype %u (replicated) is not modelled", w.subtype);
    }
    if (in->exec_size != w.simd)
        return gensim__fail(t, in, "render target write subtype %u is SIMD%u but the send is (%u)",
                            w.subtype, w.simd, in->exec_size);
    if (w.slot_group_high != (in->group >= 16))
        return gensim__fail(t, in, "slot group select (desc bit 11 = %u) disagrees with channel group M%u",
                            w.slot_group_high, in->group);
    w.first_pixel = in->group;
    unsigned per = w.simd / 8, r = 0;
    uint32_t mask = m->mask;
    if (m->header) {
        for (unsigned d = 0; d < 16; d++)
            w.header[d] = pl(m, d / 8, d % 8);
        w.rt_index = w.header[2];
        w.has_src0_alpha = (w.header[0] >> 11) & 1;
        if ((w.header[0] >> 14) & 1)
            return gensim__fail(t, in, "computed stencil in render target writes is not modelled");
        /* header dword 15 low word = pixel mask of this half (0-15) */
        uint32_t hm = w.header[15] & 0xffff;
        mask &= hm >> (in->group % 16);
        r = 2;
    }
    w.has_omask = t->cfg.rt_has_omask != 0;
    w.has_depth = t->cfg.rt_has_depth != 0;
    unsigned expect = r + (w.has_src0_alpha ? per : 0) + (w.has_omask ? 1 : 0) + 4 * per +
                      (w.dual_source ? 4 * per : 0) + (w.has_depth ? per : 0);
    if (expect != m->total)
        return gensim__fail(t, in, "render target write payload is %u GRFs but the layout (header %u, src0 alpha %u, oMask %u, %s colour, depth %u) needs %u",
                            m->total, m->header, w.has_src0_alpha, w.has_omask,
                            w.dual_source ? "dual" : "single", w.has_depth, expect);
    w.mask = mask;
    if (w.has_src0_alpha) {
        for (unsigned i = 0; i < w.simd; i++)
            w.src0_alpha[i] = pl(m, r + i / 8, i % 8);
        r += per;
    }
    if (w.has_omask) {
        for (unsigned i = 0; i < w.simd; i++) {
            unsigned word = (w.simd == 8 ? in->group % 16 : 0) + i;
            const uint8_t *p = m->payload + r * GRF + word * 2;
            w.omask[i] = (uint16_t)(p[0] | p[1] << 8);
        }
        r += 1;
    }
    for (unsigned c = 0; c < 4; c++)
        for (unsigned i = 0; i < w.simd; i++)
            w.color[c][i] = pl(m, r + c * per + i / 8, i % 8);
    r += 4 * per;
    if (w.dual_source) {
        for (unsigned c = 0; c < 4; c++)
            for (unsigned i = 0; i < w.simd; i++)
                w.color1[c][i] = pl(m, r + c * per + i / 8, i % 8);
        r += 4 * per;
    }
    if (w.has_depth)
        for (unsigned i = 0; i < w.simd; i++)
            w.depth[i] = pl(m, r + i / 8, i % 8);
    if (!t->cfg.cb.rt_write)
        return gensim__fail(t, in, "render target write but no rt_write callback");
    if (t->cfg.cb.rt_write(t->cfg.cb.user, &w, m->cberr, sizeof m->cberr))
        return cb_fail(m, "rt_write");
    return 0;
}

/* ---- URB ---------------------------------------------------------------- */

static int urb_write(msg *m)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    unsigned opcode = m->desc & 0xf;
    if (opcode != 7)
        return gensim__fail(t, in, "URB opcode %u is not modelled (only 7, SIMD8 write)", opcode);
    if (!m->header)
        return gensim__fail(t, in, "URB SIMD8 write needs the header-present bit (handles GRF)");
    if (in->exec_size != 8)
        return gensim__fail(t, in, "URB SIMD8 write must be a (8) send");
    if (m->rlen)
        return gensim__fail(t, in, "URB write must have response length 0");
    gensim_urb_write w;
    memset(&w, 0, sizeof w);
    w.line = in->line;
    w.global_offset = (m->desc >> 4) & 0x7ff;
    w.has_channel_mask = (m->desc >> 15) & 1;
    w.has_per_slot_offset = (m->desc >> 17) & 1;
    w.eot = m->eot;
    w.mask = m->mask;
    unsigned r = 1;
    for (unsigned n = 0; n < 8; n++)
        w.handle[n] = pl(m, 0, n);
    if (w.has_per_slot_offset) {
        for (unsigned n = 0; n < 8; n++)
            w.per_slot_offset[n] = pl(m, r, n);
        r++;
    }
    if (w.has_channel_mask) {
        for (unsigned n = 0; n < 8; n++)
            w.channel_mask[n] = pl(m, r, n);
        r++;
    }
    if (m->total < r + 1 || m->total - r > 8)
        return gensim__fail(t, in, "URB SIMD8 write carries %d data GRFs (1-8 allowed)", (int)m->total - (int)r);
    w.ndata = m->total - r;
    for (unsigned k = 0; k < w.ndata; k++)
        for (unsigned n = 0; n < 8; n++)
            w.data[k][n] = pl(m, r + k, n);
    if (!t->cfg.cb.urb_write)
        return gensim__fail(t, in, "URB write but no urb_write callback");
    if (t->cfg.cb.urb_write(t->cfg.cb.user, &w, m->cberr, sizeof m->cberr))
        return cb_fail(m, "urb_write");
    return 0;
}

/* ---- sampler ------------------------------------------------------------ */

static int max_params(unsigned type)
{
    switch (type) {
    case 0: return 3;            /* sample u,v,r */
    case 1: case 2: return 4;    /* sample_b/sample_l: bias|lod,u,v,r */
    case 3: return 4;            /* sample_c: ref,u,v,r */
    case 4: return 9;            /* sample_d */
    case 5: case 6: return 5;    /* sample_b_c / sample_l_c: ref,bias|lod,u,v,r */
    case 7: return 4;            /* ld u,v,lod,r (Gen9 order) */
    case 24: return 3;           /* sample_lz */
    case 25: return 4;           /* sample_c_lz */
    case 26: return 3;           /* ld_lz */
    default: return -1;
    }
}

static int sampler(msg *m)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    gensim_sample_msg s;
    memset(&s, 0, sizeof s);
    s.line = in->line;
    s.bti = m->desc & 0xff;
    s.sampler = (m->desc >> 8) & 0xf;
    s.msg_type = (m->desc >> 12) & 0x1f;
    unsigned mode = (m->desc >> 17) & 3;
    if ((m->desc >> 29) & 1)
        return gensim__fail(t, in, "sampler SIMD-mode extension bit 29 is not modelled");
    if ((m->desc >> 30) & 1)
        return gensim__fail(t, in, "sampler 16-bit return format is not modelled");
    if (mode == 1)
        s.simd = 8;
    else if (mode == 2)
        s.simd = 16;
    else
        return gensim__fail(t, in, "sampler SIMD mode %u is not modelled (1 = SIMD8, 2 = SIMD16)", mode);
    if (in->exec_size != s.simd)
        return gensim__fail(t, in, "sampler message is SIMD%u but the send is (%u)", s.simd, in->exec_size);
    int maxp = max_params(s.msg_type);
    if (maxp < 0)
        return gensim__fail(t, in, "sampler message type %u is not modelled", s.msg_type);
    if (s.msg_type == 4 && s.simd == 16)
        return gensim__fail(t, in, "sample_d is SIMD8 only on Gen9");
    if (m->total > 11)
        return gensim__fail(t, in, "sampler message of %u GRFs exceeds 11", m->total);
    unsigned per = s.simd / 8, r = 0;
    s.channels_returned = 0xf;
    s.header_present = m->header;
    if (m->header) {
        for (unsigned d = 0; d < 8; d++)
            s.header[d] = pl(m, 0, d);
        s.channels_returned = ~(s.header[2] >> 12) & 0xf;
        r = 1;
    }
    if ((m->total - r) % per)
        return gensim__fail(t, in, "sampler payload of %u GRFs is not whole parameters", m->total - r);
    s.nparams = (m->total - r) / per;
    if ((int)s.nparams > maxp || s.nparams == 0)
        return gensim__fail(t, in, "sampler message type %u takes 1-%d parameters, got %u", s.msg_type, maxp, s.nparams);
    unsigned ncomp = 0;
    for (unsigned c = 0; c < 4; c++)
        ncomp += (s.channels_returned >> c) & 1;
    /* Without a header the sampler writes R, G, B, A in order and stops at
     * the response length: a shorter rlen (whole channels) drops trailing
     * channels, as Mesa's brw relies on for components never read. */
    if (!m->header && m->rlen && m->rlen < ncomp * per && m->rlen % per == 0) {
        ncomp = m->rlen / per;
        s.channels_returned = (1u << ncomp) - 1;
    }
    if (m->rlen != ncomp * per)
        return gensim__fail(t, in, "sampler response length %u, but %u channels x %u GRFs are returned", m->rlen, ncomp, per);
    if (in->dst.file != GS_F_GRF)
        return gensim__fail(t, in, "sampler message needs a GRF destination");
    for (unsigned k = 0; k < s.nparams; k++)
        for (unsigned i = 0; i < s.simd; i++)
            s.param[k][i] = pl(m, r + k * per + i / 8, i % 8);
    s.mask = m->mask;
    s.first_channel = in->group;
    uint32_t res[4][16];
    memset(res, 0, sizeof res);
    if (!t->cfg.cb.sample)
        return gensim__fail(t, in, "sampler message but no sample callback");
    if (t->cfg.cb.sample(t->cfg.cb.user, &s, res, m->cberr, sizeof m->cberr))
        return cb_fail(m, "sample");
    unsigned slot = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!((s.channels_returned >> c) & 1))
            continue;
        for (unsigned i = 0; i < s.simd; i++)
            resp32(m, slot * per + i / 8, i % 8, (s.mask >> i & 1) ? res[c][i] : t->cfg.undef_bits);
        slot++;
    }
    return 0;
}

/* ---- data port: block and untyped messages ------------------------------ */

static uint8_t *memory_for(msg *m, unsigned bti, size_t *size, const char **what)
{
    gensim_thread *t = m->t;
    if (m->sfid == 0xA && (bti == 253 || bti == 255)) {
        *size = t->cfg.scratch_size;
        *what = "scratch";
        return t->cfg.scratch;
    }
    *what = "surface";
    if (!t->cfg.cb.surface)
        return NULL;
    return t->cfg.cb.surface(t->cfg.cb.user, m->sfid, bti, size);
}

static int scratch_block(msg *m)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    unsigned write = (m->desc >> 17) & 1;
    if ((m->desc >> 16) & 1)
        return gensim__fail(t, in, "scratch block message with the OWord/DWord bit is not modelled");
    unsigned nregs = 1u << ((m->desc >> 12) & 3);
    size_t off = (size_t)(m->desc & 0xfff) * 32;
    if (!m->header)
        return gensim__fail(t, in, "scratch block message needs a header");
    if (!t->cfg.scratch || off + nregs * GRF > t->cfg.scratch_size)
        return gensim__fail(t, in, "scratch access of bytes %zu-%zu is outside the %zu-byte scratch space",
                            off, off + nregs * GRF - 1, t->cfg.scratch_size);
    if (write) {
        if (m->total != 1 + nregs)
            return gensim__fail(t, in, "scratch block write of %u GRFs needs a payload of %u GRFs, got %u", nregs, 1 + nregs, m->total);
        memcpy(t->cfg.scratch + off, m->payload + GRF, nregs * GRF);
    } else {
        if (m->rlen != nregs || m->total != 1)
            return gensim__fail(t, in, "scratch block read of %u GRFs needs mlen 1 and rlen %u", nregs, nregs);
        if (in->dst.file != GS_F_GRF)
            return gensim__fail(t, in, "scratch read needs a GRF destination");
        memcpy(t->grf + in->dst.reg * GRF, t->cfg.scratch + off, nregs * GRF);
    }
    return 0;
}

static int oword_block(msg *m, int write)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    unsigned bsize = (m->desc >> 8) & 7, nregs;
    switch (bsize) {
    case 0: case 1: nregs = 1; break; /* 1 OWord, the low or high half of a GRF */
    case 2: nregs = 1; break;
    case 3: nregs = 2; break;
    case 4: nregs = 4; break;
    default:
        return gensim__fail(t, in, "OWord block size %u is not modelled (0-4 = 1 low, 1 high, 2, 4, 8 OWords)", bsize);
    }
    /* bytes moved, and where they sit in the data GRF */
    size_t bytes = bsize <= 1 ? 16 : nregs * GRF, at = bsize == 1 ? 16 : 0;
    if (!m->header)
        return gensim__fail(t, in, "OWord block message needs a header");
    unsigned bti = m->desc & 0xff;
    size_t off = (size_t)pl(m, 0, 2) * 16, size = 0;
    const char *what;
    uint8_t *mem = memory_for(m, bti, &size, &what);
    if (!mem)
        return gensim__fail(t, in, "no %s for binding table index %u", what, bti);
    if (off + bytes > size)
        return gensim__fail(t, in, "OWord block access of bytes %zu-%zu is outside the %zu-byte %s",
                            off, off + bytes - 1, size, what);
    if (write) {
        if (m->total != 1 + nregs)
            return gensim__fail(t, in, "OWord block write of %u GRFs needs a payload of %u GRFs, got %u", nregs, 1 + nregs, m->total);
        memcpy(mem + off, m->payload + GRF + at, bytes);
    } else {
        if (m->rlen != nregs || m->total != 1)
            return gensim__fail(t, in, "OWord block read of %u GRFs needs mlen 1 and rlen %u (got %u, %u)", nregs, nregs, m->total, m->rlen);
        if (in->dst.file != GS_F_GRF)
            return gensim__fail(t, in, "OWord block read needs a GRF destination");
        uint8_t *d = t->grf + in->dst.reg * GRF;
        if (bytes < GRF) /* the other half of a 1-OWord read's GRF: not defined here */
            memset(d, 0xff, GRF);
        memcpy(d + at, mem + off, bytes);
    }
    return 0;
}

static int untyped(msg *m, int write)
{
    gensim_thread *t = m->t;
    const gensim_inst *in = m->in;
    unsigned mode = (m->desc >> 12) & 3, simd;
    if (mode == 1)
        simd = 16;
    else if (mode == 2)
        simd = 8;
    else
        return gensim__fail(t, in, "untyped surface SIMD mode %u is not modelled", mode);
    if (in->exec_size != simd)
        return gensim__fail(t, in, "untyped surface message is SIMD%u but the send is (%u)", simd, in->exec_size);
    unsigned disabled = (m->desc >> 8) & 0xf, ncomp = 0;
    for (unsigned c = 0; c < 4; c++)
        ncomp += !((disabled >> c) & 1);
    unsigned per = simd / 8, r = m->header ? 1 : 0;
    unsigned expect = r + per + (write ? ncomp * per : 0);
    if (m->total != expect)
        return gensim__fail(t, in, "untyped surface %s payload is %u GRFs, expected %u", write ? "write" : "read", m->total, expect);
    if (!write && m->rlen != ncomp * per)
        return gensim__fail(t, in, "untyped surface read response length %u, expected %u", m->rlen, ncomp * per);
    unsigned bti = m->desc & 0xff;
    size_t size = 0;
    const char *what;
    uint8_t *mem = memory_for(m, bti, &size, &what);
    if (!mem)
        return gensim__fail(t, in, "no surface for binding table index %u", bti);
    /* buffer surfaces are bounds-checked: reads outside return 0 and
     * writes outside are dropped */
    for (unsigned i = 0; i < simd; i++) {
        uint32_t addr = pl(m, r + i / 8, i % 8);
        unsigned slot = 0;
        for (unsigned c = 0; c < 4; c++) {
            if ((disabled >> c) & 1)
                continue;
            size_t a = (size_t)addr + 4 * c;
            int on = (m->mask >> i) & 1;
            if (write) {
                if (on && a + 4 <= size)
                    wr32(mem + a, pl(m, r + per + slot * per + i / 8, i % 8));
            } else {
                uint32_t v = on ? (a + 4 <= size ? rd32(mem + a) : 0) : t->cfg.undef_bits;
                resp32(m, slot * per + i / 8, i % 8, v);
            }
            slot++;
        }
    }
    return 0;
}

/* ---- dispatch ------------------------------------------------------------ */

static uint32_t addr32(const gensim_thread *t, unsigned sub)
{
    /* a0 sub-registers are words; a descriptor takes two of them */
    if (2 * sub + 4 > sizeof t->addr)
        return 0;
    return rd32(t->addr + 2 * sub);
}

int gensim__send(gensim_thread *t, const gensim_inst *in, uint32_t mask)
{
    msg m;
    memset(&m, 0, sizeof m);
    m.t = t;
    m.in = in;
    m.desc = in->desc_is_reg ? addr32(t, in->desc_reg) : in->desc;
    m.exdesc = in->exdesc_is_reg ? addr32(t, in->exdesc_reg) : in->exdesc;
    m.sfid = m.exdesc & 0xf;
    m.mlen = (m.desc >> 25) & 0xf;
    m.rlen = (m.desc >> 20) & 0x1f;
    m.header = (m.desc >> 19) & 1;
    m.eot = (in->opts & GS_OPT_EOT) || ((m.exdesc >> 5) & 1);
    int split = in->op == GS_OP_SENDS || in->op == GS_OP_SENDSC;
    m.src1_len = split ? (m.exdesc >> 6) & 0xf : 0;
    m.mask = mask;
    if (m.mlen == 0)
        return gensim__fail(t, in, "send with message length 0");
    if (in->src[0].reg + m.mlen > GENSIM_GRF_COUNT)
        return gensim__fail(t, in, "payload r%u..r%u runs past r127", in->src[0].reg, in->src[0].reg + m.mlen - 1);
    if (split && m.src1_len && (in->src[1].file != GS_F_GRF || in->src[1].reg + m.src1_len > GENSIM_GRF_COUNT))
        return gensim__fail(t, in, "src1 payload of %u GRFs is not inside r0-r127", m.src1_len);
    if (m.rlen && in->dst.file != GS_F_GRF)
        return gensim__fail(t, in, "response length %u but the destination is null", m.rlen);
    if (m.rlen && in->dst.reg + m.rlen > GENSIM_GRF_COUNT)
        return gensim__fail(t, in, "response r%u..r%u runs past r127", in->dst.reg, in->dst.reg + m.rlen - 1);
    if (m.eot) {
        /* PRM: the EOT payload must be in r112-r127 */
        if (in->src[0].reg < 112 || (split && m.src1_len && in->src[1].reg < 112))
            return gensim__fail(t, in, "EOT message payload must be in r112-r127");
        if (m.rlen)
            return gensim__fail(t, in, "EOT message cannot have a response");
    }
    m.total = m.mlen + m.src1_len;
    memcpy(m.payload, t->grf + in->src[0].reg * GRF, m.mlen * GRF);
    if (m.src1_len)
        memcpy(m.payload + m.mlen * GRF, t->grf + in->src[1].reg * GRF, m.src1_len * GRF);

    if (t->cfg.cb.observe_send) {
        gensim_send_info si;
        memset(&si, 0, sizeof si);
        si.line = in->line;
        si.op = in->op;
        si.desc = m.desc;
        si.exdesc = m.exdesc;
        si.sfid = m.sfid;
        si.mlen = m.mlen;
        si.rlen = m.rlen;
        si.src1_len = m.src1_len;
        si.header_present = m.header;
        si.eot = m.eot;
        si.exec_size = in->exec_size;
        si.group = in->group;
        si.mask = mask;
        si.src0_reg = in->src[0].reg;
        si.src1_reg = split ? in->src[1].reg : 0;
        si.dst_reg = in->dst.file == GS_F_GRF ? in->dst.reg : 0;
        si.payload0 = m.payload;
        si.payload1 = m.src1_len ? m.payload + m.mlen * GRF : NULL;
        t->cfg.cb.observe_send(t->cfg.cb.user, &si);
    }

    int rc;
    unsigned type = (m.desc >> 14) & 0x1f;
    switch (m.sfid) {
    case 0x5:
        rc = rt_write(&m);
        break;
    case 0x6:
        rc = urb_write(&m);
        break;
    case 0x2:
        rc = sampler(&m);
        break;
    case 0xA:
        if ((m.desc >> 18) & 1)
            rc = scratch_block(&m);
        else if (type == 0)
            rc = oword_block(&m, 0);
        else if (type == 8)
            rc = oword_block(&m, 1);
        else
            rc = gensim__fail(t, in, "data cache message type %u is not modelled", type);
        break;
    case 0x9:
        if (type == 0)
            rc = oword_block(&m, 0);
        else
            rc = gensim__fail(t, in, "constant cache message type %u is not modelled", type);
        break;
    case 0xC:
        if (type == 1)
            rc = untyped(&m, 0);
        else if (type == 9)
            rc = untyped(&m, 1);
        else
            rc = gensim__fail(t, in, "data cache 1 message type %u is not modelled", type);
        break;
    case 0x7:
        if (!m.eot)
            rc = gensim__fail(t, in, "thread spawner messages other than end of thread are not modelled");
        else
            rc = 0;
        break;
    default:
        rc = gensim__fail(t, in, "messages to SFID 0x%X (descriptor 0x%08X) are not modelled", m.sfid, m.desc);
        break;
    }
    if (rc)
        return rc;
    if (m.eot)
        t->ended = 1;
    return 0;
}
