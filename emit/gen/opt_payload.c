/*
 * gen/opt_payload.c — values computed in the payload of the message that
 * sends them (Mesa's LOAD_PAYLOAD coalescing): the selector builds every
 * message payload (sampler parameters, render target colours, URB slots)
 * as a block vreg filled by one mov per part; when the value copied is a
 * vreg of its own, every reference to it is renamed into the block part,
 * so the instructions that compute it write the payload register and the
 * mov goes.
 *
 * requires: a selected program before allocation, after the other passes
 *           (the values are final: no copy left to propagate)
 * invalidates: def/use lists (vregs renamed into blocks), instruction indices
 *
 * A mov into block part (B, off) is coalesced when it is the only
 * definition of that part, copies a whole divergent dword vreg V at the
 * kernel's width (raw: no modifier, no conversion, every channel, no
 * predicate), B is read by messages only, V is not redefined between the
 * mov and the message, and V went into no other block (wherever V lives,
 * as the end-of-thread payload always took it; on the retry that keeps
 * block ranges, only inside the block's range).
 * After renaming, V's definitions write the part and its later readers
 * read it there; nothing else writes the part, so it holds V for as long
 * as V lives, and the block (one allocation unit) lives as long as its
 * longest part.  A
 * value sent twice keeps its copies; a SIMD32 value sent by two SIMD16
 * messages is two values by now (gen/opt_split.c), each copied whole by a
 * 16-channel mov of its channel group.  Register classes follow: a part of an end-of-thread
 * payload lives in r112-r127 with its block.  A message's response (an
 * untyped read of constants) copied whole, GRF by GRF in order, into
 * consecutive parts and read by nothing else is renamed the same way: the
 * message writes the payload and its movs go.  A response of one part (a
 * sampler message trimmed to R) is coalesced as any value is.
 *
 * URB slots read in place: a VUE slot whose four components are copies of
 * four consecutive payload registers (a vertex attribute passed through) is
 * written by a split send of its own, the handles (r1) and those registers
 * as they are, instead of four movs into the message; the rest of the
 * message keeps its slots (the end-of-thread write keeps at least one,
 * copied into r112-r127).  When it is the second of two slots, the message
 * itself becomes the split send (header and first slot, then the
 * registers): a pass-through costs no message of its own.  When the
 * end-of-thread write carries only pass-throughs, it trades places with
 * the last earlier write of computed slots (eot_trade), so no slot is
 * copied into r112-r127 but the header.
 *
 * Payloads sent twice: a payload that is only a copy of (part of) another
 * block is not built; its messages read that block (shared_payloads).
 *
 * Copies that stay: at SIMD8, an instruction (ALU or math) with the copy
 * of its result into the neighbouring GRF is one (W) SIMD16 instruction,
 * its sources read twice (replicated_results; two copies or like
 * operations into neighbouring GRFs pair in gen/opt_pair.c).  At SIMD16, a value gathered from two
 * SIMD8 responses (sample_d) is read where the responses arrived by
 * readers split in halves, when that saves instructions (split_gathers).
 * A sampler payload whose first parameter is still a copy sends it from
 * where it is, as src0 of a split send (first_param_in_place).
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"

static bool raw_copy(const struct gen_program *p, const struct gen_inst *m)
{
    /* every channel of the kernel, or of one SIMD32 half (gen/opt_split.c) */
    bool width = (m->exec == p->simd && !m->group) ||
                 (p->simd == 32 && m->exec == 16 && (m->group == 0 || m->group == 16));
    if (m->op != GOP_MOV || m->sat || m->cmod || m->pred != GP_NONE || m->nomask || !width ||
        m->dst.kind != GO_VREG || m->src[0].kind != GO_VREG)
        return false;
    const struct gen_opnd *s = &m->src[0];
    if (s->neg || s->abs || s->off || (s->region != GR_AUTO && s->region != GR_VEC))
        return false;
    bool f = m->dst.type == GT_F && s->type == GT_F;
    bool d = (m->dst.type == GT_D || m->dst.type == GT_UD) && (s->type == GT_D || s->type == GT_UD);
    return f || d;
}

static bool message_only_uses(const struct gen_program *p, const struct gen_du *du, uint32_t b)
{
    for (uint32_t q = du->use_start[b]; q < du->use_start[b + 1]; q++)
        if (!gen_op_info[p->inst[du->use_list[q].inst].op].send)
            return false;
    return du->use_start[b + 1] > du->use_start[b];
}

/* The message reading block b after instruction m (its first use past m). */
static int32_t reader_after(const struct gen_du *du, uint32_t b, uint32_t m)
{
    for (uint32_t q = du->use_start[b]; q < du->use_start[b + 1]; q++)
        if (du->use_list[q].inst > m)
            return (int32_t)du->use_list[q].inst;
    return -1;
}

/* The payload register address of slot part (b, off) when its only
 * definition is a raw copy of a per-channel payload register; -1 otherwise. */
static int64_t part_source(const struct gen_program *p, const struct gen_du *du, uint32_t b,
                           uint32_t off, uint32_t *def)
{
    int64_t src = -1;
    unsigned found = 0;
    for (uint32_t q = du->def_start[b]; q < du->def_start[b + 1]; q++) {
        uint32_t j = du->def_list[q];
        const struct gen_inst *i = &p->inst[j];
        uint32_t lo = i->dst.off, hi = lo + gen_dst_bytes(p, i);
        if (!(lo < off + GEN_GRF_SIZE && off < hi))
            continue;
        found++;
        const struct gen_opnd *s = &i->src[0];
        if (i->op != GOP_MOV || lo != off || i->exec != 8 || i->group || i->pred != GP_NONE ||
            i->sat || i->cmod || i->nomask || s->kind != GO_FIXED || s->region != GR_VEC ||
            s->neg || s->abs || s->off % GEN_GRF_SIZE || s->type != i->dst.type)
            return -1;
        src = s->off;
        *def = j;
    }
    return found == 1 ? src : -1;
}

/* Def/use facts and a cleared "dead" flag per instruction (plus one), or
 * NULL with p->oom set (the facts freed). */
static bool *du_and_dead(struct gen_program *p, struct gen_du *du)
{
    if (!gen_du_build(p, du))
        return NULL;
    bool *dead = calloc(p->ninst + 1, sizeof(*dead));
    if (!dead) {
        gen_du_free(du);
        p->oom = true;
    }
    return dead;
}

/* The other half: the instructions marked dead removed (when something
 * changed), the facts and the array freed; returns `changed`. */
static bool drop_dead(struct gen_program *p, struct gen_du *du, bool *dead, bool changed)
{
    if (changed)
        gen_remove_marked(p, dead);
    free(dead);
    gen_du_free(du);
    return changed;
}

/* What urb_in_place knows of one URB write: its data block and slots, and
 * which slots are four consecutive payload registers copied in. */
struct urb_msg {
    uint32_t b, hdr, g;  /* data block, its header bytes (0: split send), first slot */
    unsigned ns, moved;  /* slots, slots in place */
    bool in_place[2];
    uint32_t src[2], defs[2][4];
};

static bool urb_msg_of(const struct gen_program *p, const struct gen_du *du, uint32_t k,
                       struct urb_msg *u)
{
    const struct gen_inst *m = &p->inst[k];
    if (!gen_op_info[m->op].send || m->sfid != 6 || m->pred != GP_NONE)
        return false;
    bool split = m->op == GOP_SENDS;
    const struct gen_opnd *data = split ? &m->src[1] : &m->src[0];
    if (data->kind != GO_VREG || data->off || !p->vreg[data->vreg].no_spill)
        return false;
    u->b = data->vreg;
    u->hdr = split ? 0 : GEN_GRF_SIZE;
    u->ns = split ? m->src1len / 4u : (m->mlen - 1u) / 4u;
    u->g = (m->desc >> 4) & 0x7ffu;
    if (u->ns < 1 || u->ns > 2 || (split ? m->src1len : m->mlen - 1u) != 4u * u->ns ||
        du->use_start[u->b + 1] - du->use_start[u->b] != 1)
        return false;
    u->moved = 0;
    for (unsigned j = 0; j < u->ns; j++) {
        int64_t a0 = -1;
        bool ok = true;
        for (unsigned c = 0; c < 4 && ok; c++) {
            int64_t a = part_source(p, du, u->b, u->hdr + (4 * j + c) * GEN_GRF_SIZE, &u->defs[j][c]);
            if (c == 0)
                a0 = a;
            ok = a >= 0 && a == a0 + (int64_t)c * GEN_GRF_SIZE &&
                 a + GEN_GRF_SIZE <= (int64_t)GEN_FILE_BYTES;
        }
        u->in_place[j] = ok;
        u->src[j] = (uint32_t)a0;
        u->moved += ok;
    }
    return true;
}

/*
 * The end of the thread must send from r112-r127, so a slot it carries is
 * copied there.  When every slot of the last write passes an attribute
 * through, and an earlier split write (header r1) carries only computed
 * slots, the two trade places: the earlier one becomes the end of the
 * thread (its slots computed in r112-r127 behind a copy of the header,
 * which the last write copied anyway) and the pass-through goes in place.
 * Returns the earlier write's index, or -1.
 */
static int32_t eot_trade(const struct gen_program *p, const struct gen_du *du, uint32_t *eot)
{
    if (p->keep_block_ranges)
        return -1;
    int32_t w = -1;
    for (uint32_t k = 0; k < p->ninst; k++) {
        const struct gen_inst *m = &p->inst[k];
        if (m->op == GOP_SENDS && m->sfid == 6 && !m->eot)
            w = (int32_t)k;
        if (m->op != GOP_SEND || !m->eot)
            continue;
        struct urb_msg u, v;
        if (w < 0 || !urb_msg_of(p, du, k, &u) || u.moved != u.ns ||
            !urb_msg_of(p, du, (uint32_t)w, &v) || v.moved ||
            p->inst[w].src[0].kind != GO_FIXED || p->inst[w].src[0].off != 1 * GEN_GRF_SIZE ||
            p->vreg[v.b].grf_hi < GEN_EOT_FIRST_GRF)
            return -1;
        *eot = k;
        return w;
    }
    return -1;
}

/* h: the URB handles (r1) copied NoMask into GRF 0 of block b, the header
 * of a URB write that sends b (urb_in_place's new instructions). */
static void header_copy(struct gen_inst *h, uint32_t b)
{
    memset(h, 0, sizeof(*h));
    h->op = GOP_MOV;
    h->exec = 8;
    h->nomask = true;
    h->jip = h->uip = -1;
    h->dst = gen_vr(b, 0, GT_UD);
    h->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
}

/*
 * The traded write: w (a split send of header r1 and block B) ends the
 * thread in place of the write at k, whose slots all went in place.  B
 * grows by a GRF in front for a copy of the header and moves to
 * r112-r127; the header copy into k's block old_b goes with k.
 */
static void eot_from(struct gen_program *p, const struct gen_du *du, uint32_t w, uint32_t k,
                     uint32_t old_b, struct gen_inst *extra, uint32_t *extra_at, unsigned *nextra,
                     bool *dead)
{
    const struct gen_inst *W = &p->inst[w];
    uint32_t b = W->src[1].vreg, g = (W->desc >> 4) & 0x7ffu;
    unsigned ns = W->src1len / 4u;
    for (uint32_t q = du->def_start[b]; q < du->def_start[b + 1]; q++)
        p->inst[du->def_list[q]].dst.off += GEN_GRF_SIZE;
    for (uint32_t q = du->def_start[old_b]; q < du->def_start[old_b + 1]; q++)
        if (p->inst[du->def_list[q]].dst.off < GEN_GRF_SIZE)
            dead[du->def_list[q]] = true;
    header_copy(&extra[*nextra], b);
    extra_at[(*nextra)++] = k;
    struct gen_inst *e = &extra[*nextra];
    *e = *W;
    e->op = GOP_SEND;
    e->src[0] = gen_vr(b, 0, GT_UD);
    e->src[1] = gen_opnd_none();
    e->mlen = (uint8_t)(1 + 4 * ns);
    e->src1len = 0;
    e->exdesc = 6;
    e->eot = true;
    e->desc = gen_desc(e->mlen, 0, true, 7u | (g << 4));
    extra_at[(*nextra)++] = k;
    dead[w] = true;
    p->vreg[b].size += GEN_GRF_SIZE;
    p->vreg[b].grf_lo = GEN_EOT_FIRST_GRF;
}

/* Rewrites the URB writes whose slots pass payload registers through. */
static bool urb_in_place(struct gen_program *p)
{
    if (p->layout.stage != ST_VS || p->simd != 8)
        return false;
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    unsigned n = p->ninst;
    bool *dead = calloc(n + 1, sizeof(*dead));
    struct gen_inst *extra = malloc((2 * n + 3) * sizeof(*extra)); /* new sends */
    uint32_t *extra_at = malloc((2 * n + 3) * sizeof(*extra_at));
    unsigned nextra = 0;
    bool changed = false;
    if (!dead || !extra || !extra_at) {
        p->oom = true;
        goto out;
    }
    uint32_t eot_at = 0;
    int32_t trade = eot_trade(p, &du, &eot_at);
    for (unsigned k = 0; k < n; k++) {
        struct gen_inst *m = &p->inst[k];
        struct urb_msg u;
        if ((int32_t)k == trade || !urb_msg_of(p, &du, k, &u))
            continue;
        bool split = m->op == GOP_SENDS;
        uint32_t b = u.b, hdr = u.hdr, g = u.g;
        unsigned ns = u.ns, moved = u.moved;
        bool *in_place = u.in_place;
        const uint32_t *src = u.src;
        /* the end of the thread keeps a slot of its own, copied, unless
         * an earlier write takes its place */
        bool traded = trade >= 0 && k == eot_at;
        if (m->eot && moved == ns && !traded) {
            in_place[ns - 1] = false;
            moved--;
        }
        if (!moved)
            continue;
        if (split && !m->eot && ns == 2 && !in_place[0] && in_place[1] &&
            m->src[0].kind == GO_FIXED && m->src[0].off == 1 * GEN_GRF_SIZE) {
            /* (header r1) + (slot a, slot b) with slot b passed through:
             * rather than a message of its own for b, the first payload
             * becomes a copy of the header and slot a, and b the second
             * one: one mov for one message */
            for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++) {
                struct gen_inst *i = &p->inst[du.def_list[q]];
                if (i->dst.off < 4 * GEN_GRF_SIZE)
                    i->dst.off += GEN_GRF_SIZE;
            }
            header_copy(&extra[nextra], b);
            extra_at[nextra++] = k;
            m->src[0] = gen_vr(b, 0, GT_UD);
            m->src[1] = gen_fixed(src[1], GT_UD, GR_VEC);
            m->mlen = 5;
            m->src1len = 4;
            m->exdesc = 6u | (4u << 6);
            m->desc = gen_desc(m->mlen, 0, true, 7u | (g << 4));
            p->vreg[b].size = 5 * GEN_GRF_SIZE;
            for (unsigned c = 0; c < 4; c++)
                dead[u.defs[1][c]] = true;
            changed = true;
            continue;
        }
        for (unsigned j = 0; j < ns; j++) {
            if (!in_place[j])
                continue;
            struct gen_inst *w = &extra[nextra];
            memset(w, 0, sizeof(*w));
            w->op = GOP_SENDS;
            w->exec = 8;
            w->jip = w->uip = -1;
            w->dst = gen_null(GT_UD);
            w->src[0] = gen_fixed(1 * GEN_GRF_SIZE, GT_UD, GR_VEC);
            w->src[1] = gen_fixed(src[j], GT_UD, GR_VEC);
            w->sfid = 6;
            w->mlen = 1;
            w->src1len = 4;
            w->exdesc = 6u | (4u << 6);
            w->desc = gen_desc(1, 0, true, 7u | ((g + j) << 4));
            extra_at[nextra++] = k;
            for (unsigned c = 0; c < 4; c++)
                dead[u.defs[j][c]] = true;
        }
        unsigned left = ns - moved;
        if (!left) {
            dead[k] = true; /* a write that went entirely in place */
            if (traded)
                eot_from(p, &du, (uint32_t)trade, k, b, extra, extra_at, &nextra, dead);
        } else {
            if (in_place[0]) {
                /* the second slot moves down to the first and the message starts one later */
                for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++) {
                    struct gen_inst *i = &p->inst[du.def_list[q]];
                    if (!dead[du.def_list[q]] && i->dst.off >= hdr + 4 * GEN_GRF_SIZE)
                        i->dst.off -= 4 * GEN_GRF_SIZE;
                }
                g++;
            }
            if (split) {
                m->src1len = (uint8_t)(4 * left);
                m->exdesc = 6u | ((4u * left) << 6);
            } else {
                m->mlen = (uint8_t)(1 + 4 * left);
            }
            m->desc = gen_desc(m->mlen, 0, true, 7u | (g << 4));
            p->vreg[b].size = hdr + 4 * left * GEN_GRF_SIZE;
        }
        changed = true;
    }
    if (changed) {
        struct gen_inst *out = malloc((n + nextra + 1) * sizeof(*out));
        if (!out) {
            p->oom = true;
            goto out;
        }
        unsigned w = 0, e = 0;
        for (unsigned k = 0; k < n; k++) {
            while (e < nextra && extra_at[e] == k)
                out[w++] = extra[e++];
            if (!dead[k])
                out[w++] = p->inst[k];
        }
        free(p->inst);
        p->inst = out;
        p->ninst = w;
        p->cap_inst = n + nextra + 1;
    }
out:
    free(dead);
    free(extra);
    free(extra_at);
    gen_du_free(&du);
    return changed;
}

/* The most GRFs of a message response renamed into a payload, less one. */
enum { MAX_RESP_PARTS = 7 };

/*
 * m copies part 0 of V, a message's response (its one definition a send
 * writing all of it), into (B, off): are V's other parts copied by raw
 * movs into (B, off + their offset), each of them once, in one straight
 * stretch with m, V unchanged from its send until the last copy?  Those
 * movs go into also[].
 */
static bool whole_response_copied(const struct gen_program *p, const struct gen_du *du, uint32_t b,
                                  uint32_t m, uint32_t *also, unsigned *nalso)
{
    const struct gen_inst *mi = &p->inst[m];
    uint32_t v = mi->src[0].vreg, size = 4u * mi->exec, n = p->vreg[v].size / size;
    *nalso = 0;
    if (du->def_start[v + 1] - du->def_start[v] != 1)
        return false;
    uint32_t d = du->def_list[du->def_start[v]];
    const struct gen_inst *s = &p->inst[d];
    if (!gen_op_info[s->op].send || s->pred != GP_NONE || s->dst.off ||
        (uint32_t)s->rlen * GEN_GRF_SIZE != p->vreg[v].size || d > m)
        return false;
    for (uint32_t part = 1; part < n; part++) {
        uint32_t found = UINT32_MAX;
        for (uint32_t q = du->def_start[b]; q < du->def_start[b + 1]; q++) {
            uint32_t j = du->def_list[q];
            const struct gen_inst *c = &p->inst[j];
            if (c->op != GOP_MOV || c->src[0].kind != GO_VREG || c->src[0].vreg != v ||
                c->src[0].off != part * size)
                continue;
            struct gen_inst raw = *c; /* raw_copy() but at an offset of V */
            raw.src[0].off = 0;
            if (found != UINT32_MAX || !raw_copy(p, &raw) || c->exec != mi->exec ||
                c->group != mi->group ||
                c->dst.off != mi->dst.off + part * size || c->dst.type != mi->dst.type)
                return false;
            found = j;
        }
        if (found == UINT32_MAX || !gen_du_same_block(du, d, found) || !gen_du_same_block(du, m, found))
            return false;
        also[(*nalso)++] = found;
    }
    /* V read by the copies only: it becomes B's parts, which nothing else may read
     * as V, and the send writes them all */
    return du->use_start[v + 1] - du->use_start[v] == n;
}

/* V is a message's response of one GRF part (a sampler message trimmed to
 * R, gen/opt_dce.c): its one definition the send writing all of it.  Such a
 * block is a value like any other; its copy into a payload coalesces as
 * one (the send writes the part, V's other readers read it there). */
static bool one_part_response(const struct gen_program *p, const struct gen_du *du, uint32_t v)
{
    if (du->def_start[v + 1] - du->def_start[v] != 1)
        return false;
    const struct gen_inst *s = &p->inst[du->def_list[du->def_start[v]]];
    return gen_op_info[s->op].send && s->pred == GP_NONE && !s->dst.off && !s->spill &&
           !s->fill && (uint32_t)s->rlen * GEN_GRF_SIZE == p->vreg[v].size;
}

/*
 * A payload copied whole from another block: every definition of B is a
 * raw copy of block S at one distance (S + delta + off into B + off), the
 * copies cover B once, and S keeps those bytes from each copy to each
 * message reading B (in one basic block).  The messages read S + delta
 * instead and the copies go: a second sampler message at the coordinates
 * of a first (a base texture and a normal map at t0) sends the first's
 * payload again.  S's range grows to the last such message, so not on the
 * retry that keeps block ranges unless S is read there anyway, and S must
 * lie in the GRFs B's messages need (an end-of-thread payload).
 */
static bool shared_payloads(struct gen_program *p)
{
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    bool changed = false;
    for (uint32_t b = 0; b < p->nvreg; b++) {
        const struct gen_vreg *B = &p->vreg[b];
        uint32_t nd = du.def_start[b + 1] - du.def_start[b];
        if (!B->no_spill || !nd || !message_only_uses(p, &du, b) || B->size % GEN_GRF_SIZE)
            continue;
        uint32_t src = UINT32_MAX, covered = 0, first = UINT32_MAX, last_copy = 0;
        int64_t delta = 0;
        bool ok = true;
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1] && ok; q++) {
            uint32_t m = du.def_list[q];
            const struct gen_inst *mi = &p->inst[m];
            struct gen_inst raw = *mi; /* raw_copy() but at an offset of S */
            raw.src[0].off = 0;
            ok = raw_copy(p, &raw) && p->vreg[mi->src[0].vreg].no_spill && mi->src[0].vreg != b;
            if (!ok)
                break;
            int64_t d = (int64_t)mi->src[0].off - (int64_t)mi->dst.off;
            if (src == UINT32_MAX) {
                src = mi->src[0].vreg;
                delta = d;
            }
            uint32_t bytes = gen_dst_bytes(p, mi);
            ok = mi->src[0].vreg == src && d == delta && delta >= 0 &&
                 mi->dst.off + bytes <= B->size && (mi->dst.off | bytes) % GEN_GRF_SIZE == 0 &&
                 !(covered >> (mi->dst.off / GEN_GRF_SIZE) & ((1u << bytes / GEN_GRF_SIZE) - 1));
            if (ok && B->size / GEN_GRF_SIZE <= 31)
                covered |= ((1u << bytes / GEN_GRF_SIZE) - 1) << mi->dst.off / GEN_GRF_SIZE;
            else
                ok = false;
            first = m < first ? m : first;
            last_copy = m > last_copy ? m : last_copy;
        }
        if (!ok || covered != (1u << B->size / GEN_GRF_SIZE) - 1)
            continue;
        const struct gen_vreg *S = &p->vreg[src];
        if ((uint64_t)delta + B->size > S->size || S->grf_lo < B->grf_lo || S->grf_hi > B->grf_hi)
            continue;
        uint32_t last_use = 0, s_last = 0;
        for (uint32_t q = du.use_start[b]; q < du.use_start[b + 1] && ok; q++) {
            uint32_t k = du.use_list[q].inst;
            last_use = k > last_use ? k : last_use;
            ok = gen_du_same_block(&du, first, k) && k > last_copy;
            for (uint32_t r = du.def_start[b]; r < du.def_start[b + 1] && ok; r++) {
                uint32_t m = du.def_list[r];
                const struct gen_inst *mi = &p->inst[m];
                ok = gen_du_unchanged(p, &du, src, mi->src[0].off, gen_dst_bytes(p, mi), m, k);
            }
        }
        for (uint32_t q = du.use_start[src]; q < du.use_start[src + 1]; q++)
            s_last = du.use_list[q].inst > s_last ? du.use_list[q].inst : s_last;
        if (!ok || (p->keep_block_ranges && s_last < last_use))
            continue;
        for (uint32_t q = du.use_start[b]; q < du.use_start[b + 1]; q++) {
            struct gen_inst *k = &p->inst[du.use_list[q].inst];
            struct gen_opnd *o = &k->src[du.use_list[q].slot];
            if (o->kind == GO_VREG && o->vreg == b) {
                o->vreg = src;
                o->off += (uint32_t)delta;
            }
        }
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++)
            dead[du.def_list[q]] = true;
        changed = true;
    }
    return drop_dead(p, &du, dead, changed);
}

/* The bytes of vreg v an operand of instruction i reads or writes, as
 * [*lo, *hi); a form not modelled here covers the whole vreg. */
static void opnd_bytes(const struct gen_program *p, const struct gen_inst *i, unsigned s,
                       const struct gen_opnd *o, uint32_t *lo, uint32_t *hi)
{
    const struct gen_vreg *V = &p->vreg[o->vreg];
    unsigned ts = gen_type_size((enum gen_type)o->type), n = i->exec ? i->exec : 1;
    *lo = o->off;
    if (s == 0) {
        *hi = o->off + gen_dst_bytes(p, i);
        return;
    }
    if (gen_op_info[i->op].send) {
        unsigned len = i->op == GOP_SENDS && s == 2 ? i->src1len : i->mlen;
        *hi = o->off + len * GEN_GRF_SIZE;
        return;
    }
    bool plain = i->op != GOP_PLN && i->op != GOP_MOVI && i->op != GOP_BCAST;
    if (plain && (o->region == GR_SCALAR || (o->region == GR_AUTO && V->uniform)))
        *hi = o->off + ts;
    else if (plain && (o->region == GR_VEC || o->region == GR_AUTO))
        *hi = o->off + n * ts;
    else
        *lo = 0, *hi = V->size;
}

/* Does instruction i touch bytes [off, off + size) of vreg x?  With
 * `same` (the instruction that will write them), a read of exactly those
 * bytes, one element per channel as the write, does not count: an ALU
 * instruction reads its sources before it writes. */
static bool touches(const struct gen_program *p, const struct gen_inst *i, uint32_t x, uint32_t off,
                    uint32_t size, bool same)
{
    const struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
    for (unsigned s = 0; s < 4; s++) {
        const struct gen_opnd *o = ops[s];
        if (o->kind != GO_VREG || o->vreg != x)
            continue;
        uint32_t lo, hi;
        opnd_bytes(p, i, s, o, &lo, &hi);
        if (!(lo < off + size && off < hi))
            continue;
        if (same && s > 0 && lo == off && hi == off + size &&
            (o->region == GR_VEC || o->region == GR_AUTO))
            continue;
        return true;
    }
    return false;
}

enum { IN_PLACE_WINDOW = 64 };

/*
 * Values computed where they are copied to: `mov X.part, T` (a raw copy
 * of every channel, as above) where T has one definition d, earlier in the
 * same basic block and at most IN_PLACE_WINDOW instructions back, read by
 * this mov alone, and nothing between d and the mov reads or writes those
 * bytes of X: d writes X.part itself and the mov goes.  This is the case
 * the coalescing above leaves: a block that instructions other than
 * messages read (ps_1_x's r0 is the colour payload, read by the shader as
 * it computes the colour), or a part written more than once.  d may read
 * X.part itself, element for element as it writes it (`mad.sat r0, t3,
 * v1, r0`): the ALU reads its sources first.  The window keeps the work
 * linear in the program.
 */
static bool copies_in_place(struct gen_program *p)
{
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    unsigned n = p->ninst;
    bool changed = false;
    for (uint32_t m = 0; m < n; m++) {
        const struct gen_inst *mi = &p->inst[m];
        if (!raw_copy(p, mi) || mi->src[0].off)
            continue;
        uint32_t x = mi->dst.vreg, t = mi->src[0].vreg, off = mi->dst.off;
        uint32_t size = 4u * mi->exec;
        const struct gen_vreg *X = &p->vreg[x], *T = &p->vreg[t];
        int32_t d = gen_du_single_def(p, &du, t);
        if (x == t || X->uniform || d < 0 || (uint32_t)d >= m || m - (uint32_t)d > IN_PLACE_WINDOW ||
            du.use_start[t + 1] - du.use_start[t] != 1 || !gen_du_same_block(&du, (uint32_t)d, m) ||
            off + size > X->size || T->grf_lo > X->grf_lo || T->grf_hi < X->grf_hi)
            continue;
        struct gen_inst *di = &p->inst[d];
        if (dead[d] || di->exec != mi->exec || di->group != mi->group || di->nomask != mi->nomask ||
            gen_op_info[di->op].send || di->op == GOP_MOVI || di->op == GOP_BCAST ||
            gen_type_size((enum gen_type)di->dst.type) != 4 ||
            di->dst.kind != GO_VREG || di->dst.off)
            continue;
        bool clear = !touches(p, di, x, off, size, true);
        for (uint32_t j = (uint32_t)d + 1; j < m && clear; j++)
            clear = dead[j] || !touches(p, &p->inst[j], x, off, size, false);
        if (!clear)
            continue;
        di->dst.vreg = x;
        di->dst.off = off;
        dead[m] = true;
        changed = true;
    }
    return drop_dead(p, &du, dead, changed);
}

/*
 * A payload that is only a copy of consecutive payload registers, in
 * order (a vertex attribute's u and v for a sampler message): the message
 * reads those registers as they are and the movs go.  The end of the
 * thread keeps its copy (it must send from r112-r127).
 */
static bool fixed_in_place(struct gen_program *p)
{
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    bool changed = false;
    for (uint32_t k = 0; k < p->ninst; k++) {
        struct gen_inst *m = &p->inst[k];
        if (!gen_op_info[m->op].send || m->eot)
            continue;
        for (unsigned s = 0; s < 2; s++) {
            struct gen_opnd *o = &m->src[s];
            uint32_t len = (s == 0 ? m->mlen : m->src1len) * GEN_GRF_SIZE;
            if (o->kind != GO_VREG || o->off || !len || !p->vreg[o->vreg].no_spill ||
                p->vreg[o->vreg].size != len || du.use_start[o->vreg + 1] - du.use_start[o->vreg] != 1)
                continue;
            uint32_t b = o->vreg, covered = 0; /* GRFs of the block defined, a bit each */
            int64_t base = -1;
            bool ok = du.def_start[b + 1] > du.def_start[b];
            for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1] && ok; q++) {
                const struct gen_inst *i = &p->inst[du.def_list[q]];
                const struct gen_opnd *f = &i->src[0];
                ok = i->op == GOP_MOV && i->exec == p->simd && !i->group && i->pred == GP_NONE &&
                     !i->sat && !i->cmod && !i->nomask && f->kind == GO_FIXED &&
                     f->region == GR_VEC && !f->neg && !f->abs && f->type == i->dst.type &&
                     gen_type_size(f->type) == 4 && du.def_list[q] < k;
                if (!ok)
                    break;
                int64_t at = (int64_t)f->off - i->dst.off;
                ok = (base < 0 || at == base) && at >= 0 && at % GEN_GRF_SIZE == 0 &&
                     i->dst.off % GEN_GRF_SIZE == 0;
                base = at;
                uint32_t g0 = i->dst.off / GEN_GRF_SIZE, ng = gen_dst_bytes(p, i) / GEN_GRF_SIZE;
                for (uint32_t g = g0; g < g0 + ng && ok; g++) {
                    ok = g < 32 && !(covered >> g & 1u);
                    covered |= 1u << (g & 31u);
                }
            }
            /* every GRF of the block defined once */
            if (!ok || len / GEN_GRF_SIZE > 31 || covered != (1u << (len / GEN_GRF_SIZE)) - 1u ||
                base + len > GEN_FILE_BYTES)
                continue;
            for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++)
                dead[du.def_list[q]] = true;
            *o = gen_fixed((uint32_t)base, o->type, GR_VEC);
            changed = true;
        }
    }
    return drop_dead(p, &du, dead, changed);
}

enum { PAIR_WINDOW = 16 };

/* Operand s as a pairing sees it: per channel in whole GRFs, or shared by
 * every channel (an immediate, a uniform, a scalar region). */
static bool pair_operand(const struct gen_program *p, const struct gen_opnd *s)
{
    if (gen_type_size(s->type) != 4)
        return false;
    if (gen_src_per_channel(p, s))
        return s->off % GEN_GRF_SIZE == 0;
    return s->kind == GO_IMM || ((s->kind == GO_VREG || s->kind == GO_FIXED) &&
                                 (s->region == GR_SCALAR || s->region == GR_AUTO));
}

/* A SIMD8 copy or two-source ALU operation (no flag written or read;
 * Align1 regions) of per-channel values, uniforms or immediates into a
 * whole GRF of a block (a message payload): what replicated_results may
 * run twice, and the copy it takes the place of. */
static bool pairable(const struct gen_program *p, const struct gen_inst *m)
{
    bool alu = m->op == GOP_MOV || m->op == GOP_ADD || m->op == GOP_MUL || m->op == GOP_AND ||
               m->op == GOP_OR || m->op == GOP_XOR || (m->op == GOP_SEL && m->cmod);
    if (!alu || m->exec != 8 || m->group || m->pred != GP_NONE || (m->cmod && m->op != GOP_SEL) ||
        m->nomask || m->dst.kind != GO_VREG || m->dst.off % GEN_GRF_SIZE ||
        gen_type_size(m->dst.type) != 4 || !p->vreg[m->dst.vreg].no_spill)
        return false; /* (no_spill: a block, parts at consecutive GRFs) */
    for (unsigned k = 0; k < gen_op_info[m->op].nsrc; k++)
        if (!pair_operand(p, &m->src[k]))
            return false;
    return m->op != GOP_MOV || (m->src[0].type == m->dst.type && !m->src[0].neg && !m->src[0].abs);
}

/* A SIMD8 instruction whose result a copy into the neighbouring GRF of its
 * block may share (replicated_results): a pairable one, or a float math
 * function of such operands (its second source may be absent). */
static bool replicable(const struct gen_program *p, const struct gen_inst *m)
{
    if (pairable(p, m))
        return true;
    if (m->op != GOP_MATH || m->math == GM_FDIV || m->exec != 8 || m->group ||
        m->pred != GP_NONE || m->cmod || m->nomask || m->dst.kind != GO_VREG ||
        m->dst.off % GEN_GRF_SIZE || m->dst.type != GT_F || !p->vreg[m->dst.vreg].no_spill)
        return false;
    for (unsigned k = 0; k < 2; k++)
        if (m->src[k].kind != GO_NONE && !pair_operand(p, &m->src[k]))
            return false;
    return true;
}

/* n copies m's whole result, unchanged, into the GRF before or after it in
 * the same block: `op A, ...; mov A +- 32, A` (a replicated output, `mov
 * oPos, r0.x`, after the instruction computing r0.x). */
static bool copies_result(const struct gen_program *p, const struct gen_inst *m,
                          const struct gen_inst *n)
{
    const struct gen_opnd *c = &n->src[0];
    int32_t dd = (int32_t)n->dst.off - (int32_t)m->dst.off;
    return n->op == GOP_MOV && !n->sat && !n->cmod && pairable(p, n) &&
           n->dst.vreg == m->dst.vreg && (dd == GEN_GRF_SIZE || dd == -GEN_GRF_SIZE) &&
           c->kind == GO_VREG && c->vreg == m->dst.vreg && c->off == m->dst.off &&
           c->type == m->dst.type && n->dst.type == m->dst.type &&
           (c->region == GR_AUTO || c->region == GR_VEC);
}

/*
 * An instruction and the copy of its whole result into the neighbouring
 * GRF of its block (a replicated output: `mov oPos, r0.x` after the
 * instruction computing r0.x): the instruction itself at `(W)` SIMD16 in
 * the copy's place, each per-channel source read twice (<0;8,1>,
 * GR_REP8; a scalar or an immediate stays as it is: Gen8+ lets a source
 * span one GRF under a two-GRF destination), and the copy goes.  NoMask
 * also writes the channels of vertices or pixels the thread does not run,
 * whose values matter nowhere; inside control flow the channels of
 * another path would be overwritten, so only outside it.  In between,
 * nothing may write the instruction's sources or touch its GRF.
 */
static bool replicated_results(struct gen_program *p)
{
    if (p->simd != 8)
        return false;
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    bool changed = false;
    unsigned depth = 0;
    for (uint32_t k = 0; k < p->ninst; k++) {
        const struct gen_inst *m = &p->inst[k];
        const struct gen_op_info *oi = &gen_op_info[m->op];
        depth = gen_nesting(depth, m);
        if (oi->flow || depth || dead[k] || !replicable(p, m))
            continue;
        uint32_t lo = m->dst.off, b = m->dst.vreg;
        for (uint32_t j = k + 1; j < p->ninst && j <= k + PAIR_WINDOW; j++) {
            struct gen_inst *n = &p->inst[j];
            if (gen_op_info[n->op].flow)
                break;
            int32_t dd = (int32_t)n->dst.off - (int32_t)lo;
            if (!dead[j] && copies_result(p, m, n)) {
                /* m's result twice: m itself at SIMD16 in n's place, each
                 * per-channel source read twice (<0;8,1>) */
                struct gen_inst w = *m;
                w.exec = 16;
                w.nomask = true;
                w.dst.off = dd < 0 ? n->dst.off : lo;
                for (unsigned s = 0; s < 3; s++)
                    if (w.src[s].kind != GO_NONE && gen_src_per_channel(p, &w.src[s]))
                        w.src[s].region = GR_REP8;
                *n = w;
                dead[k] = true;
                changed = true;
                break;
            }
            /* what lies between: m's sources unchanged, m's GRF untouched */
            bool blocked = touches(p, n, b, lo, GEN_GRF_SIZE, false);
            uint32_t wlo = n->dst.off, whi = wlo + gen_dst_bytes(p, n);
            for (unsigned s = 0; s < oi->nsrc && !blocked; s++) {
                const struct gen_opnd *a = &m->src[s];
                blocked = a->kind == GO_VREG && n->dst.kind == GO_VREG && n->dst.vreg == a->vreg &&
                          wlo < a->off + GEN_GRF_SIZE && a->off < whi;
            }
            if (blocked)
                break;
        }
    }
    return drop_dead(p, &du, dead, changed);
}

/* A SIMD8 copy of a float immediate into a whole GRF of a block (a
 * constant output component), its :vf byte, or -1. */
static int imm_part(const struct gen_program *p, const struct gen_inst *m)
{
    const struct gen_opnd *s = &m->src[0];
    if (m->op != GOP_MOV || m->exec != 8 || m->group || m->nomask || m->pred != GP_NONE ||
        m->sat || m->cmod || m->dst.kind != GO_VREG || m->dst.off % GEN_GRF_SIZE ||
        m->dst.type != GT_F || !p->vreg[m->dst.vreg].no_spill || s->kind != GO_IMM ||
        s->type != GT_F || s->neg || s->abs)
        return -1;
    return gen_vf_byte(s->imm);
}

/*
 * Four constants into four consecutive GRFs of a block (a constant colour
 * or position, `def c1, 1, 2, 3, 4; mov oPos, c1`), no two neighbours
 * equal (which gen/opt_pair.c joins), each one :vf byte: `(W) mov (4) q,
 * 0x..:vf` and two (W) SIMD16 movs reading two dwords of q each
 * (<1;8,0>), three instructions for four.  The movs found within
 * PAIR_WINDOW instructions, outside control flow, and nothing else in
 * between touching the four GRFs (they are written where the last two
 * movs were).
 */
static bool constant_quads(struct gen_program *p)
{
    if (p->simd != 8)
        return false;
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    bool changed = false;
    unsigned depth = 0;
    for (uint32_t k = 0; k < p->ninst && !p->oom; k++) {
        const struct gen_inst *m = &p->inst[k];
        depth = gen_nesting(depth, m);
        if (depth || dead[k] || imm_part(p, m) < 0)
            continue;
        uint32_t b = m->dst.vreg, lo = m->dst.off, at[4] = {k, 0, 0, 0};
        unsigned found = 1;
        int bytes[4] = {imm_part(p, m), -1, -1, -1};
        for (uint32_t j = k + 1; j < p->ninst && j <= k + PAIR_WINDOW && found < 4; j++) {
            const struct gen_inst *n = &p->inst[j];
            if (gen_op_info[n->op].flow || n->op == GOP_LABEL)
                break;
            int64_t g = ((int64_t)n->dst.off - lo) / GEN_GRF_SIZE;
            if (!dead[j] && n->dst.kind == GO_VREG && n->dst.vreg == b && g > 0 && g < 4 &&
                bytes[g] < 0 && imm_part(p, n) >= 0) {
                bytes[g] = imm_part(p, n);
                at[g] = j;
                found++;
            } else if (touches(p, n, b, lo, 4 * GEN_GRF_SIZE, false)) {
                break;
            }
        }
        if (found < 4 || bytes[0] == bytes[1] || bytes[1] == bytes[2] || bytes[2] == bytes[3])
            continue;
        /* the four in program order: the first becomes the :vf mov, the
         * last two the SIMD16 movs, the second goes */
        uint32_t ord[4] = {at[0], at[1], at[2], at[3]};
        for (unsigned x = 1; x < 4; x++)
            for (unsigned y = x; y > 0 && ord[y - 1] > ord[y]; y--) {
                uint32_t t = ord[y];
                ord[y] = ord[y - 1];
                ord[y - 1] = t;
            }
        uint32_t q = gen_new_vreg(p, 16, true);
        if (p->oom)
            break;
        struct gen_inst *v = &p->inst[ord[0]], *h0 = &p->inst[ord[2]], *h1 = &p->inst[ord[3]];
        struct gen_inst half = *m;
        half.exec = 16;
        half.nomask = true;
        half.src[0] = gen_vr(q, 0, GT_F);
        half.src[0].region = GR_SPLAT2;
        *h0 = half;
        h0->dst.off = lo;
        *h1 = half;
        h1->dst.off = lo + 2 * GEN_GRF_SIZE;
        h1->src[0].off = 8;
        v->exec = 4;
        v->nomask = true;
        v->dst = gen_vr(q, 0, GT_F);
        v->src[0] = gen_imm((uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
                                (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24,
                            GT_VF);
        dead[ord[1]] = true;
        changed = true;
    }
    return drop_dead(p, &du, dead, changed);
}

/* A SIMD16 per-channel operand whose halves are 32 bytes apart (what a
 * split instruction's second half reads 32 bytes on), or one every
 * channel shares (an immediate, a uniform, a scalar region). */
static bool halves_step(const struct gen_program *p, const struct gen_opnd *o, bool *step)
{
    *step = false;
    if (o->kind == GO_NONE || o->kind == GO_IMM || o->kind == GO_NULL)
        return true;
    if (o->type != GT_F && o->type != GT_D && o->type != GT_UD)
        return false;
    if (o->kind == GO_FIXED) {
        *step = o->region == GR_VEC;
        return o->region == GR_VEC || o->region == GR_SCALAR;
    }
    if (o->kind != GO_VREG)
        return false;
    bool uni = p->vreg[o->vreg].uniform;
    *step = !uni && (o->region == GR_AUTO || o->region == GR_VEC);
    return *step || (uni && (o->region == GR_AUTO || o->region == GR_SCALAR));
}

/* Instruction i may run as two SIMD8 halves (M0, M8), each operand read
 * or written 32 bytes on in the second. */
static bool splittable(const struct gen_program *p, const struct gen_inst *i)
{
    const struct gen_op_info *oi = &gen_op_info[i->op];
    if (i->exec != 16 || i->group || oi->send || oi->flow || i->nomask || i->op == GOP_PLN ||
        i->op == GOP_MOVI || i->op == GOP_BCAST)
        return false;
    bool st;
    const struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
    for (unsigned k = 0; k < 4; k++) {
        if (!halves_step(p, ops[k], &st) || (k == 0 && !st && i->dst.kind != GO_NULL))
            return false;
        /* the second half must not read what the first wrote: a source in
         * the destination's vreg only element for element */
        if (k > 0 && st && ops[k]->kind == GO_VREG && i->dst.kind == GO_VREG &&
            ops[k]->vreg == i->dst.vreg && ops[k]->off != i->dst.off)
            return false;
    }
    return true;
}

/* V (a SIMD16 value) is two raw SIMD8 copies of GRFs of message responses
 * (blocks written once, by their message): the copies, in def[2], and the
 * GRFs they read, in half[2]. */
static bool gathered(const struct gen_program *p, const struct gen_du *du, uint32_t v,
                     uint32_t def[2], struct gen_opnd half[2])
{
    const struct gen_vreg *V = &p->vreg[v];
    if (V->size != 64 || V->uniform || V->no_spill || V->spill_slot >= 0 ||
        du->def_start[v + 1] - du->def_start[v] != 2)
        return false;
    unsigned seen = 0;
    for (uint32_t q = du->def_start[v]; q < du->def_start[v + 1]; q++) {
        const struct gen_inst *m = &p->inst[du->def_list[q]];
        const struct gen_opnd *s = &m->src[0];
        unsigned h = m->group / 8u;
        if (m->op != GOP_MOV || m->exec != 8 || (m->group != 0 && m->group != 8) ||
            m->pred != GP_NONE || m->sat || m->cmod || m->nomask || m->dst.off != 32u * h ||
            s->kind != GO_VREG || s->neg || s->abs || s->off % GEN_GRF_SIZE ||
            (s->region != GR_VEC && s->region != GR_AUTO) || gen_type_size(s->type) != 4 ||
            gen_type_size(m->dst.type) != 4 || !p->vreg[s->vreg].no_spill || (seen >> h & 1u))
            return false;
        uint32_t r = s->vreg;
        if (du->def_start[r + 1] - du->def_start[r] != 1)
            return false;
        uint32_t w = du->def_list[du->def_start[r]];
        if (!gen_op_info[p->inst[w].op].send || w > du->def_list[q])
            return false;
        seen |= 1u << h;
        def[h] = du->def_list[q];
        half[h] = *s;
        half[h].region = GR_VEC;
        half[h].type = m->dst.type;
    }
    return seen == 3u;
}

/*
 * SIMD16 values gathered from two SIMD8 message responses (sample_d, which
 * Gen9 has only at SIMD8, sends one message per eight channels): when
 * every reader of such a value can run as two SIMD8 halves, the halves
 * read the responses where they arrived and the two copies go.  A reader
 * split costs one instruction, a value's copies are two: done when the
 * copies removed outnumber the readers split.
 */
static bool split_gathers(struct gen_program *p)
{
    /* (the responses are read later: not on the retry that keeps block ranges) */
    if (p->simd != 16 || p->keep_block_ranges)
        return false;
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    unsigned nv = p->nvreg, n = p->ninst, copies = 0, readers = 0;
    bool changed = false;
    uint32_t *defs = malloc((2 * nv + 1) * sizeof(*defs));
    struct gen_opnd *halves = malloc((2 * nv + 1) * sizeof(*halves));
    bool *take = calloc(nv + 1, sizeof(*take)), *split = calloc(n + 1, sizeof(*split));
    if (!defs || !halves || !take || !split) {
        p->oom = true;
        goto out;
    }
    for (uint32_t v = 0; v < nv; v++) {
        if (!gathered(p, &du, v, &defs[2 * v], &halves[2 * v]))
            continue;
        bool ok = du.use_start[v + 1] > du.use_start[v];
        for (uint32_t q = du.use_start[v]; q < du.use_start[v + 1] && ok; q++) {
            const struct gen_inst *u = &p->inst[du.use_list[q].inst];
            bool st;
            ok = splittable(p, u) && u->dst.vreg != v;
            for (unsigned k = 0; k < 3 && ok; k++)
                if (u->src[k].kind == GO_VREG && u->src[k].vreg == v)
                    ok = halves_step(p, &u->src[k], &st) && st && u->src[k].off == 0;
        }
        if (!ok)
            continue;
        take[v] = true;
        copies += 2;
        for (uint32_t q = du.use_start[v]; q < du.use_start[v + 1]; q++)
            if (!split[du.use_list[q].inst]) {
                split[du.use_list[q].inst] = true;
                readers++;
            }
    }
    if (copies <= readers)
        goto out;
    struct gen_inst *out = malloc((2 * n + 1) * sizeof(*out));
    if (!out) {
        p->oom = true;
        goto out;
    }
    for (uint32_t v = 0; v < nv; v++)
        if (take[v])
            dead[defs[2 * v]] = dead[defs[2 * v + 1]] = true;
    unsigned w = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (dead[k])
            continue;
        if (!split[k]) {
            out[w++] = p->inst[k];
            continue;
        }
        for (unsigned h = 0; h < 2; h++) {
            struct gen_inst *i = &out[w++];
            *i = p->inst[k];
            i->exec = 8;
            i->group = (uint8_t)(8 * h);
            struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
            for (unsigned o = 0; o < 4; o++) {
                bool st;
                if (o > 0 && ops[o]->kind == GO_VREG && take[ops[o]->vreg]) {
                    *ops[o] = (struct gen_opnd){.kind = halves[2 * ops[o]->vreg + h].kind,
                                                .type = ops[o]->type,
                                                .region = GR_VEC,
                                                .neg = ops[o]->neg,
                                                .abs = ops[o]->abs,
                                                .vreg = halves[2 * ops[o]->vreg + h].vreg,
                                                .off = halves[2 * ops[o]->vreg + h].off};
                } else if (halves_step(p, ops[o], &st) && st) {
                    ops[o]->off += 32u * h;
                }
            }
        }
    }
    free(p->inst);
    p->inst = out;
    p->ninst = w;
    p->cap_inst = 2 * n + 1;
    changed = true;
out:
    free(defs);
    free(halves);
    free(take);
    free(split);
    free(dead);
    gen_du_free(&du);
    return changed;
}

/*
 * A sampler payload whose first parameter stays a copy (a SIMD16 value
 * sent as two SIMD8 halves, a coordinate another message also reads): a
 * split send reads that parameter where it is (src0, its GRFs) and the
 * rest of the payload as src1, and the copy goes (Mesa's brw does this
 * for sample_d).  Not for the end of the thread (r112-r127 only).
 */
static bool first_param_in_place(struct gen_program *p)
{
    struct gen_du du;
    bool *dead = du_and_dead(p, &du);
    if (!dead)
        return false;
    bool changed = false;
    for (uint32_t k = 0; k < p->ninst; k++) {
        struct gen_inst *m = &p->inst[k];
        if (m->op != GOP_SEND || m->eot || m->sfid != 2 || m->mlen < 2 ||
            m->src[0].kind != GO_VREG || m->src[0].off)
            continue;
        uint32_t b = m->src[0].vreg;
        if (!p->vreg[b].no_spill || p->vreg[b].size != m->mlen * GEN_GRF_SIZE ||
            du.use_start[b + 1] - du.use_start[b] != 1)
            continue;
        /* part 0: one raw copy of a per-channel value, whole GRFs */
        int32_t d0 = -1;
        uint32_t psize = 0;
        bool ok = true;
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1] && ok; q++) {
            const struct gen_inst *i = &p->inst[du.def_list[q]];
            if (i->dst.off != 0)
                continue;
            ok = d0 < 0;
            d0 = (int32_t)du.def_list[q];
            psize = gen_dst_bytes(p, i);
        }
        if (!ok || d0 < 0 || psize % GEN_GRF_SIZE || psize >= p->vreg[b].size)
            continue;
        const struct gen_inst *c = &p->inst[d0];
        const struct gen_opnd *v = &c->src[0];
        if (c->op != GOP_MOV || c->pred != GP_NONE || c->sat || c->cmod || c->nomask ||
            v->neg || v->abs || v->type != c->dst.type || gen_type_size(v->type) != 4 ||
            v->off % GEN_GRF_SIZE || !gen_src_per_channel(p, v) || c->exec != m->exec ||
            c->group != m->group)
            continue;
        /* no other definition overlaps part 0, and the value is the same at the message */
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1] && ok; q++)
            ok = du.def_list[q] == (uint32_t)d0 || p->inst[du.def_list[q]].dst.off >= psize;
        if (!ok || (v->kind == GO_VREG &&
                    !gen_du_unchanged(p, &du, v->vreg, v->off, psize, (uint32_t)d0, k)))
            continue;
        /* on the retry that keeps block ranges, no block read later */
        if (p->keep_block_ranges && v->kind == GO_VREG && p->vreg[v->vreg].no_spill)
            continue;
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++)
            if (du.def_list[q] != (uint32_t)d0)
                p->inst[du.def_list[q]].dst.off -= psize;
        dead[d0] = true;
        unsigned g = psize / GEN_GRF_SIZE;
        m->op = GOP_SENDS;
        m->src[1] = gen_vr(b, 0, m->src[0].type);
        m->src[0] = *v;
        m->src[0].region = GR_VEC;
        m->src[0].type = m->src[1].type;
        m->src1len = (uint8_t)(m->mlen - g);
        m->mlen = (uint8_t)g;
        m->exdesc = (m->exdesc & 0xfu) | ((uint32_t)m->src1len << 6);
        m->desc = (m->desc & ~(0xfu << 25)) | ((uint32_t)g << 25);
        p->vreg[b].size -= psize;
        changed = true;
    }
    return drop_dead(p, &du, dead, changed);
}

bool gen_opt_payload(struct gen_program *p)
{
    bool moved = urb_in_place(p);
    if (!p->oom && fixed_in_place(p))
        moved = true;
    if (p->oom)
        return moved;
    struct gen_du du;
    if (!gen_du_build(p, &du))
        return false;
    unsigned nv = p->nvreg, n = p->ninst;
    uint32_t *into = malloc((nv + 1) * sizeof(*into)); /* V -> block + 1, 0: none */
    uint32_t *into_off = malloc((nv + 1) * sizeof(*into_off));
    bool *dead = calloc(n + 1, sizeof(*dead));
    if (!into || !into_off || !dead) {
        free(into);
        free(into_off);
        free(dead);
        gen_du_free(&du);
        p->oom = true;
        return false;
    }
    memset(into, 0, (nv + 1) * sizeof(*into));
    bool changed = false;
    for (uint32_t b = 0; b < nv; b++) {
        const struct gen_vreg *B = &p->vreg[b];
        if (!B->no_spill || !message_only_uses(p, &du, b))
            continue;
        for (uint32_t q = du.def_start[b]; q < du.def_start[b + 1]; q++) {
            uint32_t m = du.def_list[q];
            const struct gen_inst *mi = &p->inst[m];
            if (!raw_copy(p, mi))
                continue;
            uint32_t v = mi->src[0].vreg, off = mi->dst.off, size = 4u * mi->exec;
            const struct gen_vreg *V = &p->vreg[v];
            /* a message's response copied whole, part by part in order, into
             * consecutive parts of B: the message writes B instead (the
             * copies are m and the movs found here, all removed) */
            uint32_t also[MAX_RESP_PARTS];
            unsigned nalso = 0;
            if (V->no_spill && V->size > size && V->size % size == 0 &&
                V->size / size <= MAX_RESP_PARTS + 1u) {
                if (!whole_response_copied(p, &du, b, m, also, &nalso))
                    continue;
                size = V->size;
            } else if ((V->no_spill && !one_part_response(p, &du, v)) || V->size != size ||
                       V->size != gen_vreg_dsize(p, V) || mi->group != gen_vreg_first_ch(V)) {
                continue;
            }
            if (v == b || V->uniform || V->spill_slot >= 0 || into[v] || off % GEN_GRF_SIZE ||
                off + size > B->size)
                continue;
            /* V's grf range must allow the block's (EOT blocks: r112-r127) */
            if (V->grf_lo > B->grf_lo || V->grf_hi < B->grf_hi)
                continue;
            /* the only definition of the part */
            bool alone = true;
            for (uint32_t r = du.def_start[b]; r < du.def_start[b + 1]; r++) {
                uint32_t j = du.def_list[r];
                bool copy = j == m;
                for (unsigned a = 0; a < nalso; a++)
                    copy = copy || j == also[a];
                if (copy)
                    continue;
                uint32_t lo = p->inst[j].dst.off, hi = lo + gen_dst_bytes(p, &p->inst[j]);
                if (lo < off + size && off < hi)
                    alone = false;
            }
            if (!alone)
                continue;
            uint32_t last = m; /* the last of the copies */
            for (unsigned a = 0; a < nalso; a++)
                last = also[a] > last ? also[a] : last;
            int32_t k = reader_after(&du, b, last);
            if (k < 0 || !gen_du_dominates(&du, m, (uint32_t)k) ||
                !gen_du_unchanged(p, &du, v, 0, size, m, (uint32_t)k))
                continue;
            /* Wherever V lives (a value computed before control flow, a
             * variable written in both arms of a branch): the block (an
             * unspillable unit) grows by V's range, and on the retry after
             * a spill not at all. */
            uint32_t lo = m, hi = (uint32_t)k;
            for (uint32_t r = du.def_start[v]; r < du.def_start[v + 1]; r++)
                lo = du.def_list[r] < lo ? du.def_list[r] : lo;
            for (uint32_t r = du.use_start[v]; r < du.use_start[v + 1]; r++) {
                uint32_t j = du.use_list[r].inst;
                lo = j < lo ? j : lo;
                hi = j > hi ? j : hi;
            }
            if (p->keep_block_ranges) {
                uint32_t first = du.def_list[du.def_start[b]], last = 0;
                for (uint32_t r = du.use_start[b]; r < du.use_start[b + 1]; r++)
                    last = du.use_list[r].inst > last ? du.use_list[r].inst : last;
                if (lo < first || hi > last)
                    continue;
            }
            into[v] = b + 1;
            into_off[v] = off;
            dead[m] = true;
            for (unsigned a = 0; a < nalso; a++)
                dead[also[a]] = true;
            changed = true;
        }
    }
    if (changed) {
        for (unsigned k = 0; k < n; k++) {
            struct gen_inst *i = &p->inst[k];
            struct gen_opnd *ops[4] = {&i->dst, &i->src[0], &i->src[1], &i->src[2]};
            for (unsigned s = 0; s < 4; s++)
                if (ops[s]->kind == GO_VREG && into[ops[s]->vreg]) {
                    uint32_t v = ops[s]->vreg;
                    ops[s]->vreg = into[v] - 1;
                    ops[s]->off += into_off[v];
                }
        }
        gen_remove_marked(p, dead);
    }
    free(into);
    free(into_off);
    free(dead);
    gen_du_free(&du);
    if (!p->oom && shared_payloads(p))
        changed = true;
    if (!p->oom && copies_in_place(p))
        changed = true;
    if (!p->oom && constant_quads(p))
        changed = true;
    if (!p->oom && replicated_results(p))
        changed = true;
    if (!p->oom && split_gathers(p))
        changed = true;
    if (!p->oom && first_param_in_place(p))
        changed = true;
    return changed || moved;
}
