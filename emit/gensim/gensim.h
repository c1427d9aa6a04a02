/* gensim.h — functional simulator of the Gen9 (Skylake) EU subset that
 * shadertrans emits, driven by IGA assembly text.
 *
 * It is a judge for the back end: it follows the hardware rules written
 * down in docs/gen9-target.md (regions, types, masks, JIP/UIP control
 * flow, message descriptors), not our compiler.  See docs/gensim.md for
 * what is modelled and what is not.
 *
 * Self-contained C11; no global state: everything lives in a program
 * (parsed text) and a thread (register state).  Errors never abort: they
 * are strings naming the source line ("name:line: message").
 *
 *   char err[256];
 *   gensim_program *p = gensim_parse(text, "ps.asm", err, sizeof err);
 *   gensim_thread *t = gensim_thread_new(p, &cfg);   // GRF zeroed
 *   memcpy(t->grf + 32 * 2, payload, ...);            // caller builds payload
 *   if (gensim_run(t, 100000) != GENSIM_OK) puts(gensim_error(t));
 *   gensim_thread_free(t); gensim_program_free(p);
 */
#ifndef SHADERTRANS_GENSIM_H
#define SHADERTRANS_GENSIM_H

#include <stddef.h>
#include <stdint.h>

#define GENSIM_GRF_COUNT 128
#define GENSIM_GRF_BYTES 32
#define GENSIM_MAX_CHANNELS 32
#define GENSIM_ERR_LEN 320

/* ---- decoded instructions ------------------------------------------- */

typedef enum gensim_type {
    GS_T_NONE = 0,
    GS_T_UD, GS_T_D, GS_T_UW, GS_T_W, GS_T_UB, GS_T_B,
    GS_T_UQ, GS_T_Q, GS_T_F, GS_T_HF, GS_T_DF,
    GS_T_V, GS_T_UV, GS_T_VF /* packed vector immediates */
} gensim_type;

typedef enum gensim_file {
    GS_F_NONE = 0,
    GS_F_GRF, GS_F_NULL, GS_F_ACC, GS_F_FLAG, GS_F_ADDR, GS_F_CR, GS_F_SR,
    GS_F_CE, GS_F_IMM, GS_F_LABEL
} gensim_file;

typedef enum gensim_addr_mode {
    GS_A_DIRECT = 0,
    GS_A_VX1,   /* r[a0.n, off]<v;w,h> : one address for the instruction */
    GS_A_VXH    /* r[a0.n, off]<w,h>   : one address per row (a0.n+row) */
} gensim_addr_mode;

typedef struct gensim_operand {
    uint8_t file;        /* gensim_file */
    uint8_t type;        /* gensim_type */
    uint8_t addr_mode;   /* gensim_addr_mode */
    uint8_t has_region;
    uint16_t reg;        /* GRF number, acc/flag/a/cr/sr number */
    int16_t sub;         /* sub-register in units of the type */
    uint16_t addr_sub;   /* a0 sub-register (indirect) */
    int16_t addr_off;    /* immediate byte offset (indirect) */
    uint8_t vs, w, hs;   /* source region; dst uses hs only */
    uint8_t neg, abs;    /* source modifiers (neg = '-' or '~') */
    uint64_t imm;        /* immediate bits (GS_F_IMM), zero-extended */
    int32_t target;      /* GS_F_LABEL: instruction index */
} gensim_operand;

typedef enum gensim_op {
    GS_OP_INVALID = 0,
    GS_OP_MOV, GS_OP_SEL, GS_OP_NOT, GS_OP_AND, GS_OP_OR, GS_OP_XOR,
    GS_OP_SHR, GS_OP_SHL, GS_OP_ASR, GS_OP_CMP, GS_OP_CSEL,
    GS_OP_ADD, GS_OP_MUL, GS_OP_MACH, GS_OP_AVG, GS_OP_MAD, GS_OP_LRP,
    GS_OP_FRC, GS_OP_RNDD, GS_OP_RNDE, GS_OP_RNDZ, GS_OP_RNDU,
    GS_OP_LZD, GS_OP_FBH, GS_OP_FBL, GS_OP_CBIT, GS_OP_BFREV,
    GS_OP_DP2, GS_OP_DP3, GS_OP_DP4, GS_OP_DPH, GS_OP_LINE, GS_OP_PLN,
    GS_OP_MATH,
    GS_OP_IF, GS_OP_ELSE, GS_OP_ENDIF, GS_OP_WHILE, GS_OP_BREAK,
    GS_OP_CONT, GS_OP_HALT, GS_OP_JMPI, GS_OP_NOP,
    GS_OP_SEND, GS_OP_SENDC, GS_OP_SENDS, GS_OP_SENDSC,
    GS_OP_COUNT
} gensim_op;

typedef enum gensim_math_fn {
    GS_MATH_NONE = 0,
    GS_MATH_INV, GS_MATH_LOG, GS_MATH_EXP, GS_MATH_SQT, GS_MATH_RSQT,
    GS_MATH_SIN, GS_MATH_COS, GS_MATH_POW, GS_MATH_FDIV,
    GS_MATH_IDIV, GS_MATH_IQOT, GS_MATH_IREM
} gensim_math_fn;

typedef enum gensim_cmod {
    GS_CM_NONE = 0, GS_CM_EQ, GS_CM_NE, GS_CM_GT, GS_CM_GE, GS_CM_LT,
    GS_CM_LE, GS_CM_OV, GS_CM_UN
} gensim_cmod;

typedef enum gensim_pred_ctrl {
    GS_P_NONE = 0, GS_P_NORMAL,
    GS_P_ANY2H, GS_P_ANY4H, GS_P_ANY8H, GS_P_ANY16H, GS_P_ANY32H,
    GS_P_ALL2H, GS_P_ALL4H, GS_P_ALL8H, GS_P_ALL16H, GS_P_ALL32H
} gensim_pred_ctrl;

/* instruction options written in {...} */
enum {
    GS_OPT_EOT = 1u << 0, GS_OPT_SWITCH = 1u << 1, GS_OPT_ATOMIC = 1u << 2,
    GS_OPT_ACCWREN = 1u << 3, GS_OPT_COMPACTED = 1u << 4,
    GS_OPT_NODDCLR = 1u << 5, GS_OPT_NODDCHK = 1u << 6,
    GS_OPT_BREAKPOINT = 1u << 7, GS_OPT_NOPREEMPT = 1u << 8,
    GS_OPT_NOSRCDEPSET = 1u << 9, GS_OPT_SERIALIZE = 1u << 10,
    GS_OPT_NOCOMPACT = 1u << 11
};

typedef struct gensim_inst {
    uint8_t op;          /* gensim_op */
    uint8_t math_fn;     /* gensim_math_fn for GS_OP_MATH */
    uint8_t exec_size;   /* 1..32 */
    uint8_t group;       /* channel offset from (N|Mg) */
    uint8_t nomask;      /* (W) */
    uint8_t pred;        /* gensim_pred_ctrl */
    uint8_t pred_inv;    /* (~f0.0) */
    uint8_t pred_flag;   /* flag bit offset of f<r>.<s> = r*32 + s*16 */
    uint8_t cmod;        /* gensim_cmod */
    uint8_t cmod_flag;   /* flag bit offset as pred_flag */
    uint8_t sat;
    uint8_t nsrc;
    uint32_t opts;       /* GS_OPT_* */
    gensim_operand dst;
    gensim_operand src[3];
    /* control flow: instruction indices (-1 = absent) */
    int32_t jip, uip;
    /* send: descriptors (immediate, or a0 sub-register if *_is_reg) */
    uint32_t desc, exdesc;
    uint8_t desc_is_reg, exdesc_is_reg;
    uint16_t desc_reg, exdesc_reg;
    unsigned line;
} gensim_inst;

typedef struct gensim_program {
    gensim_inst *insts;
    size_t count;
    char name[64];
} gensim_program;

/* Parse IGA (Gen9, `iga64 -p=9` syntax) text.  Returns NULL and writes
 * "name:line: message" into err on any error. */
gensim_program *gensim_parse(const char *text, const char *name, char *err,
                             size_t errlen);
void gensim_program_free(gensim_program *p);

/* ---- messages --------------------------------------------------------- */

/* Render target write (SFID 5, message type 12).  Colours are raw 32-bit
 * values per pixel of this write (index = channel of the message,
 * 0..simd-1); pixel `first_pixel + i` of the thread. */
typedef struct gensim_rt_write {
    unsigned line;
    unsigned bti;             /* desc bits 7:0 */
    unsigned subtype;         /* desc bits 10:8 */
    unsigned simd;            /* 8 or 16 */
    unsigned first_pixel;     /* pixel number of channel 0 (group, or 16 for slot group high) */
    unsigned slot_group_high; /* desc bit 11 */
    unsigned last_rt;         /* desc bit 12 */
    unsigned eot;
    unsigned header_present;
    unsigned rt_index;        /* header dword 2, else 0 */
    uint32_t header[16];      /* valid if header_present */
    uint32_t mask;            /* bit i: channel i is written */
    unsigned has_src0_alpha, has_omask, has_depth, dual_source;
    uint32_t color[4][16];    /* R,G,B,A raw bits */
    uint32_t color1[4][16];   /* second colour for dual source */
    uint32_t src0_alpha[16];
    uint16_t omask[16];
    uint32_t depth[16];
} gensim_rt_write;

/* URB SIMD8 write (SFID 6, opcode 7). */
typedef struct gensim_urb_write {
    unsigned line;
    unsigned global_offset;   /* desc bits 14:4, 128-bit units */
    unsigned has_per_slot_offset, has_channel_mask;
    unsigned ndata;           /* data GRFs (1..8) */
    unsigned eot;
    uint32_t mask;            /* bit n: vertex (channel) n writes */
    uint32_t handle[8];
    uint32_t per_slot_offset[8];
    uint32_t channel_mask[8];
    uint32_t data[8][8];      /* [data GRF k][vertex n] raw bits */
} gensim_urb_write;

/* Sampler message (SFID 2).  Parameters are raw bits, in message order
 * (see docs/gen9-target.md section 5 for the order per message type). */
typedef struct gensim_sample_msg {
    unsigned line;
    unsigned bti, sampler;    /* desc 7:0, 11:8 */
    unsigned msg_type;        /* desc 16:12 (0 sample, 1 sample_b, 2 sample_l, 4 sample_d, 7 ld, ...) */
    unsigned simd;            /* 8 or 16 */
    unsigned first_channel;   /* execution group */
    unsigned header_present;
    uint32_t header[8];
    unsigned nparams;
    uint32_t param[11][16];   /* [parameter][channel] */
    uint32_t mask;            /* enabled channels */
    unsigned channels_returned; /* bit c: component c (RGBA) is returned */
} gensim_sample_msg;

/* Optional observer of every send, called before it is executed. */
typedef struct gensim_send_info {
    unsigned line;
    unsigned op;              /* GS_OP_SEND... */
    uint32_t desc, exdesc;
    unsigned sfid, mlen, rlen, src1_len, header_present, eot;
    unsigned exec_size, group;
    uint32_t mask;            /* enabled channels (bit = channel - group) */
    unsigned src0_reg, src1_reg, dst_reg;
    const uint8_t *payload0;  /* mlen GRFs */
    const uint8_t *payload1;  /* src1_len GRFs (sends) or NULL */
} gensim_send_info;

/* Callbacks return 0 on success; on failure they write a message into
 * err (errlen bytes) and return non-zero: the run stops with that message
 * prefixed by the instruction's line. */
typedef struct gensim_callbacks {
    void *user;
    int (*rt_write)(void *user, const gensim_rt_write *w, char *err, size_t errlen);
    int (*urb_write)(void *user, const gensim_urb_write *w, char *err, size_t errlen);
    /* fill result[c][ch] (raw bits) for the returned components c of the
     * enabled channels */
    int (*sample)(void *user, const gensim_sample_msg *m, uint32_t result[4][16],
                  char *err, size_t errlen);
    /* memory of binding table entry bti for constant (SFID 9) and data
     * cache (SFID 0xA/0xC) accesses; NULL = no such surface */
    uint8_t *(*surface)(void *user, unsigned sfid, unsigned bti, size_t *size);
    void (*observe_send)(void *user, const gensim_send_info *s);
} gensim_callbacks;

/* ---- threads --------------------------------------------------------- */

typedef struct gensim_config {
    uint32_t dispatch_mask;   /* channels dispatched (PS: pixel mask; VS: vertices) */
    /* the thread's SIMD width (8, 16, 32; 0: unknown): channels below it
     * that were not dispatched read as enabled in ce0, which does not
     * consider the dispatch mask (Mesa brw_find_live_channel); sr0.2
     * (DMask) and sr0.3 (VMask) start as the dispatch mask */
    unsigned dispatch_width;
    unsigned cr0;             /* initial cr0.0 (bit 7: keep f32 denormals) */
    uint8_t *scratch;         /* per-thread scratch space (BTI 253/255) */
    size_t scratch_size;
    /* render target write payload parts that driver state enables
     * (3DSTATE_PS_EXTRA): oMask, computed depth */
    unsigned rt_has_omask, rt_has_depth;
    uint32_t undef_bits;      /* written into disabled channels of message
                                 responses (default 0 -> 0xFFBADBAD used) */
    gensim_callbacks cb;
} gensim_config;

typedef enum gensim_status {
    GENSIM_OK = 0,            /* thread ended with an EOT message */
    GENSIM_ERROR = 1,         /* see gensim_error() */
    GENSIM_STEP_LIMIT = 2
} gensim_status;

typedef struct gensim_thread {
    uint8_t grf[GENSIM_GRF_COUNT * GENSIM_GRF_BYTES];
    uint8_t acc[64];          /* acc0, acc1 */
    uint8_t flag[8];          /* f0 (bytes 0-3), f1 (4-7), little endian */
    uint8_t addr[32];         /* a0.0 .. a0.15 (:uw) */
    uint8_t cr[12];           /* cr0.0 .. cr0.2 */
    uint8_t sr[16];           /* sr0.0 .. sr0.3 */
    int32_t chan_wait[GENSIM_MAX_CHANNELS]; /* -1 active, -2 never, else resume index */
    size_t ip;                /* instruction index */
    uint64_t steps;
    int ended;
    int paused;               /* stopped by max_steps: gensim_run goes on from here */
    const gensim_program *prog;
    gensim_config cfg;
    char err[GENSIM_ERR_LEN];
} gensim_thread;

gensim_thread *gensim_thread_new(const gensim_program *p, const gensim_config *cfg);
void gensim_thread_free(gensim_thread *t);
/* Run until EOT, an error or max_steps executed instructions.  After
 * GENSIM_STEP_LIMIT (gensim_error says so) the thread may be run again and
 * continues where it stopped. */
gensim_status gensim_run(gensim_thread *t, uint64_t max_steps);
const char *gensim_error(const gensim_thread *t);
/* current execution mask (active channels) */
uint32_t gensim_active_mask(const gensim_thread *t);

/* helpers for callers filling/inspecting registers */
static inline float gensim_f32(const gensim_thread *t, unsigned reg, unsigned sub)
{
    union { uint32_t u; float f; } v;
    const uint8_t *p = t->grf + reg * GENSIM_GRF_BYTES + sub * 4;
    v.u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return v.f;
}
static inline uint32_t gensim_u32(const gensim_thread *t, unsigned reg, unsigned sub)
{
    const uint8_t *p = t->grf + reg * GENSIM_GRF_BYTES + sub * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void gensim_set_u32(gensim_thread *t, unsigned reg, unsigned sub, uint32_t v)
{
    uint8_t *p = t->grf + reg * GENSIM_GRF_BYTES + sub * 4;
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void gensim_set_f32(gensim_thread *t, unsigned reg, unsigned sub, float f)
{
    union { uint32_t u; float f; } v;
    v.f = f;
    gensim_set_u32(t, reg, sub, v.u);
}

/* internal, shared by gensim/exec.c and gensim/msg.c */
int gensim__send(gensim_thread *t, const gensim_inst *in, uint32_t mask);
int gensim__fail(gensim_thread *t, const gensim_inst *in, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
