/* test_gensim.c — the Gen9 functional simulator (emit/gensim/).
 *
 * Every kernel here is real IGA syntax: test_kernels_assemble runs
 * `iga64 -p=9 -a` on each of them when iga64 is installed.  Expected
 * register values are worked out by hand from the PRM rules quoted in
 * docs/gen9-target.md (the comments next to each assertion show the
 * arithmetic), never copied from the simulator's output.
 *
 * The examples of docs/gen9-examples are read from
 * $ST_GEN9_EXAMPLES (default: $ST_ROOT/../shared/docs/gen9-examples);
 * those tests fail when the directory is absent.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emit/gensim//gensim.h"
#include "translator/translator.h" /* st_op_lrp_once: the interpreter's, another algorithm */

#define EOT_TS \
    "(W)     mov (8|M0)    r127.0<1>:ud  r0.0<8;8,1>:ud\n" \
    "(W)     send (8|M0)   null:ud       r127          0x27          0x02000010   {EOT}\n"

/* ---- kernels ------------------------------------------------------------ */

static const char K_regions[] =
    "// strided dword pairs, SIMD16 over two GRFs, word dst stride 2, scalar, Width-2 replicate\n"
    "        mov (8|M0)     r12.0<1>:d   r10.0<8;4,2>:d\n"
    "        mov (8|M0)     r13.0<1>:d   r10.1<8;4,2>:d\n"
    "        mov (16|M0)    r14.0<1>:f   r20.0<8;8,1>:f\n"
    "        mov (8|M0)     r16.0<2>:uw  r30.0<8;8,1>:d\n"
    "        mov (8|M0)     r17.0<1>:f   r31.3<0;1,0>:f\n"
    "        mov (8|M0)     r18.0<1>:d   r32.1<2;2,0>:d\n"
    "        mov (4|M0)     r19.2<1>:d   r32.4<4;4,1>:d\n"
    "        mov (16|M0)    r40.0<1>:w   r42.0<16;8,2>:w\n"
    "        add (16|M0)    r50.0<1>:d   r52.0<0;1,0>:d   r1.0<16;16,1>:uw\n"
    EOT_TS;

static const char K_convert[] =
    "        mov (8|M0)     r12.0<1>:d   r10.0<8;8,1>:f\n"
    "        mov (8|M0)     r13.0<1>:ud  r10.0<8;8,1>:f\n"
    "        mov (8|M0)     (sat)r14.0<1>:f  r10.0<8;8,1>:f\n"
    "        mov (8|M0)     r15.0<1>:f   r11.0<8;8,1>:d\n"
    "        add (8|M0)     (sat)r16.0<2>:uw  r11.0<8;8,1>:d   0x10:d\n"
    "        mov (8|M0)     r17.0<1>:w   0xFEDC3210:v\n"
    "        mov (4|M0)     r18.0<1>:f   0x40303020:vf\n"
    "        mov (8|M0)     r19.0<1>:d   r11.0<8;8,1>:d\n"
    "        mov (8|M0)     r20.0<1>:d   -r11.0<8;8,1>:d\n"
    "        mov (8|M0)     r21.0<1>:f   -(abs)r10.0<8;8,1>:f\n"
    EOT_TS;

static const char K_simd32[] =
    "// SIMD32 as two SIMD16 halves: f0.0 with M16 uses flag bits 16-31\n"
    "        cmp (16|M0)    (lt)f0.0   null<1>:f   r10.0<8;8,1>:f   r14.0<0;1,0>:f\n"
    "        cmp (16|M16)   (lt)f0.0   null<1>:f   r12.0<8;8,1>:f   r14.0<0;1,0>:f\n"
    "(f0.0)  mov (16|M0)    r20.0<1>:f   r10.0<8;8,1>:f\n"
    "(f0.0)  mov (16|M16)   r22.0<1>:f   r12.0<8;8,1>:f\n"
    "(W)     mov (1|M0)     r30.0<1>:ud  f0.0<0;1,0>:ud\n"
    EOT_TS;

static const char K_chanmask[] =
    "// ce0 (not the dispatch mask), sr0.2 / sr0.3 (the dispatch mask), their AND\n"
    "(W)     mov (1|M0)     r20.0<1>:ud  ce0.0<0;1,0>:ud\n"
    "(W)     mov (1|M0)     r20.1<1>:ud  sr0.2<0;1,0>:ud\n"
    "(W)     mov (1|M0)     r20.2<1>:ud  sr0.3<0;1,0>:ud\n"
    "(W)     and (1|M0)     r20.3<1>:ud  ce0.0<0;1,0>:ud  r20.1<0;1,0>:ud\n"
    "(W)     fbl (1|M0)     r20.4<1>:ud  r20.0<0;1,0>:ud\n"
    "(W)     fbl (1|M0)     r20.5<1>:ud  r20.3<0;1,0>:ud\n"
    EOT_TS;

static const char K_ifelse[] =
    "        cmp (16|M0)    (lt)f0.0   null<1>:f   r10.0<8;8,1>:f   2.0:f\n"
    "(f0.0)  if (16|M0)     ELSE_BODY  END1\n"
    "        mov (16|M0)    r20.0<1>:f   1.0:f\n"
    "(W)     add (1|M0)     r30.0<1>:d   r30.0<0;1,0>:d   1:d\n"
    "        cmp (16|M0)    (lt)f0.1   null<1>:f   r10.0<8;8,1>:f   1.0:f\n"
    "(f0.1)  if (16|M0)     END2       END2\n"
    "        mov (16|M0)    r22.0<1>:f   5.0:f\n"
    "END2:\n"
    "        endif (16|M0)  ELSE1\n"
    "ELSE1:\n"
    "        else (16|M0)   END1       END1\n"
    "ELSE_BODY:\n"
    "        mov (16|M0)    r20.0<1>:f   2.0:f\n"
    "(W)     add (1|M0)     r30.1<1>:d   r30.1<0;1,0>:d   1:d\n"
    "END1:\n"
    "        endif (16|M0)  AFTER\n"
    "AFTER:\n"
    "        add (16|M0)    r24.0<1>:f   r20.0<8;8,1>:f   r22.0<8;8,1>:f\n"
    EOT_TS;

static const char K_loop[] =
    "        mov (16|M0)    r20.0<1>:d   0:d\n"
    "        mov (16|M0)    r22.0<1>:d   0:d\n"
    "LOOP:\n"
    "(W)     add (1|M0)     r30.0<1>:d   r30.0<0;1,0>:d   1:d\n"
    "        add (16|M0)    r20.0<1>:d   r20.0<8;8,1>:d   1:d\n"
    "        cmp (16|M0)    (ge)f0.0   null<1>:d   r20.0<8;8,1>:d   r10.0<8;8,1>:d\n"
    "(f0.0)  break (16|M0)  END        END\n"
    "        add (16|M0)    r22.0<1>:d   r22.0<8;8,1>:d   r20.0<8;8,1>:d\n"
    "END:\n"
    "        while (16|M0)  LOOP\n"
    "        add (16|M0)    r24.0<1>:d   r20.0<8;8,1>:d   r22.0<8;8,1>:d\n"
    EOT_TS;

static const char K_pred[] =
    "(W)     mov (1|M0)     f0.0<1>:uw   0xF1:uw\n"
    "(f0.0.any4h)  mov (16|M0)  r20.0<1>:f   1.0:f\n"
    "(f0.0.all4h)  mov (16|M0)  r22.0<1>:f   2.0:f\n"
    "(~f0.0)       mov (16|M0)  r24.0<1>:f   3.0:f\n"
    "(f0.0)        mov (8|M8)   r26.0<1>:f   4.0:f\n"
    "(W&~f0.0)     mov (1|M0)   r27.0<1>:f   5.0:f\n"
    "(W&f0.0)      mov (1|M0)   r27.1<1>:f   6.0:f\n"
    EOT_TS;

static const char K_cmod[] =
    "(W)     mov (1|M0)     f0.1<1>:uw   0xA5:uw\n"
    "        add (8|M0)     (lt)f0.0   (sat)r12.0<1>:f  r10.0<8;8,1>:f  -0.5:f\n"
    "        sel (8|M0)     (ge)f0.1   r13.0<1>:f    r10.0<8;8,1>:f    0.5:f\n"
    "        sel (8|M0)     (lt)f0.1   r14.0<1>:f    r10.0<8;8,1>:f    0.5:f\n"
    "        sel (8|M0)     (ge)f0.1   r18.0<1>:f    r11.0<8;8,1>:f    r10.0<8;8,1>:f\n"
    "(f0.0)  sel (8|M0)     r15.0<1>:f    r10.0<8;8,1>:f    r11.0<8;8,1>:f\n"
    "        cmp (8|M0)     (eq)f1.0   r16.0<1>:d    r10.0<8;8,1>:f    0.2:f\n"
    "        add (8|M0)     (eq)f1.1   r17.0<1>:d    r20.0<8;8,1>:d    -3:d\n"
    "(W)     mov (1|M0)     r30.0<1>:ud  f0.0<0;1,0>:ud\n"
    "(W)     mov (1|M0)     r30.1<1>:ud  f1.0<0;1,0>:ud\n"
    EOT_TS;

static const char K_math[] =
    "        math.inv (8|M0)    r12.0<1>:f   r10.0<8;8,1>:f\n"
    "        math.sqt (8|M0)    r13.0<1>:f   r10.0<8;8,1>:f\n"
    "        math.rsqt (8|M0)   r14.0<1>:f   r10.0<8;8,1>:f\n"
    "        math.exp (8|M0)    r15.0<1>:f   r10.0<8;8,1>:f\n"
    "        math.log (8|M0)    r16.0<1>:f   r10.0<8;8,1>:f\n"
    "        math.pow (8|M0)    r17.0<1>:f   r10.0<8;8,1>:f   r11.0<8;8,1>:f\n"
    "        math.fdiv (8|M0)   r18.0<1>:f   r10.0<8;8,1>:f   r11.0<8;8,1>:f\n"
    "        math.sin (8|M0)    r19.0<1>:f   r9.0<8;8,1>:f\n"
    "        math.cos (8|M0)    r9.0<1>:f    r9.0<8;8,1>:f\n"
    "        math.iqot (8|M0)   r22.0<1>:d   r20.0<8;8,1>:d   r21.0<8;8,1>:d\n"
    "        math.irem (8|M0)   r23.0<1>:d   r20.0<8;8,1>:d   r21.0<8;8,1>:d\n"
    "        math.inv (16|M0)   r24.0<1>:f   r26.0<8;8,1>:f\n"
    EOT_TS;

static const char K_intops[] =
    "        and (8|M0)     r12.0<1>:ud  ~r10.0<8;8,1>:ud  r11.0<8;8,1>:ud\n"
    "        not (8|M0)     r13.0<1>:ud  r10.0<8;8,1>:ud\n"
    "        shr (8|M0)     r14.0<1>:d   r20.0<8;8,1>:d    33:d\n"
    "        asr (8|M0)     r15.0<1>:d   r20.0<8;8,1>:d    1:d\n"
    "        shl (8|M0)     r16.0<1>:d   r20.0<8;8,1>:d    4:d\n"
    "        mul (8|M0)     acc0.0<1>:d  r22.0<8;8,1>:d    r23.0<16;8,2>:uw\n"
    "        mach (8|M0)    r17.0<1>:d   r22.0<8;8,1>:d    r23.0<8;8,1>:d   {AccWrEn}\n"
    "        mul (8|M0)     r18.0<1>:d   r22.0<8;8,1>:d    r23.0<8;8,1>:d\n"
    "        lzd (8|M0)     r19.0<1>:ud  r10.0<8;8,1>:ud\n"
    "        cbit (8|M0)    r24.0<1>:ud  r10.0<8;8,1>:ud\n"
    "        fbl (8|M0)     r25.0<1>:ud  r10.0<8;8,1>:ud\n"
    "        bfrev (8|M0)   r26.0<1>:ud  r10.0<8;8,1>:ud\n"
    "        xor (8|M0)     r27.0<1>:ud  r10.0<8;8,1>:ud   0xFFFF0000:ud\n"
    EOT_TS;

static const char K_denorm[] =
    "        add (8|M0)     r12.0<1>:f   r10.0<8;8,1>:f   0.0:f\n"
    "        mov (8|M0)     r13.0<1>:f   r10.0<8;8,1>:f\n"
    "(W)     or (1|M0)      cr0.0<1>:ud  cr0.0<0;1,0>:ud  0x80:uw   {Switch}\n"
    "        add (8|M0)     r14.0<1>:f   r10.0<8;8,1>:f   0.0:f\n"
    EOT_TS;

static const char K_mad[] =
    "        mad (16|M0)    r12.0<1>:f   r2.0<0;0>:f   r10.0<2;1>:f   r2.1<0>:f\n"
    "        lrp (8|M0)     r14.0<1>:f   r20.0<2;1>:f  r21.0<2;1>:f   r22.0<1>:f\n"
    "        frc (8|M0)     r15.0<1>:f   r23.0<8;8,1>:f\n"
    "        rndd (8|M0)    r16.0<1>:f   r23.0<8;8,1>:f\n"
    "        rndu (8|M0)    r17.0<1>:f   r23.0<8;8,1>:f\n"
    "        rnde (8|M0)    r18.0<1>:f   r23.0<8;8,1>:f\n"
    "        rndz (8|M0)    r19.0<1>:f   r23.0<8;8,1>:f\n"
    "        pln (16|M0)    r24.0<1>:f   r7.4<0;1,0>:f   r30.0<8;8,1>:f\n"
    EOT_TS;

/* mad rounds once: src0 + src1 * src2 with the product kept exact */
static const char K_fma[] =
    "        mad (8|M0)     r12.0<1>:f   r2.0<2;1>:f   r3.0<2;1>:f   r4.0<1>:f\n"
    "        mul (8|M0)     r13.0<1>:f   r3.0<8;8,1>:f r4.0<8;8,1>:f\n"
    "        add (8|M0)     r13.0<1>:f   r13.0<8;8,1>:f r2.0<8;8,1>:f\n"
    EOT_TS;

static const char K_lrp[] = /* denormals kept (cr0 bit 7), as our kernels set it */
    "(W)     or (1|M0)      cr0.0<1>:ud  cr0.0<0;1,0>:ud  0x80:ud {Switch}\n"
    "        lrp (8|M0)     r12.0<1>:f   r2.0<2;1>:f   r3.0<2;1>:f   r4.0<1>:f\n"
    EOT_TS;

static const char K_indirect[] =
    "(W)     mov (1|M0)     a0.0<1>:uw   0xC4:uw\n"
    "(W)     mov (1|M0)     a0.1<1>:uw   0xE0:uw\n"
    "        mov (8|M0)     r12.0<1>:f   r[a0.0]<0;1,0>:f\n"
    "        mov (8|M0)     r13.0<1>:f   r[a0.0,8]<0;1,0>:f\n"
    "        mov (2|M0)     r14.0<1>:f   r[a0.0]<1,0>:f\n"
    "(W)     mov (8|M0)     r[a0.1,32]<1>:f  r6.0<8;8,1>:f\n"
    EOT_TS;

static const char K_halt[] =
    "        cmp (8|M0)     (gt)f0.0   null<1>:f   r10.0<8;8,1>:f   0.0:f\n"
    "(f0.0)  halt (8|M0)    DONE       DONE\n"
    "        mov (8|M0)     r20.0<1>:f   1.0:f\n"
    "DONE:\n"
    "        add (8|M0)     r21.0<1>:f   r20.0<8;8,1>:f   2.0:f\n"
    EOT_TS;

static const char K_sampler[] =
    "        mov (8|M0)     r112.0<1>:f  r10.0<8;8,1>:f\n"
    "        send (8|M0)    r20:f        r10           0x2            0x04420003\n"
    "        send (16|M0)   r30:f        r12           0x2            0x08840003\n"
    "(W)     mov (8|M0)     r40.0<1>:ud  r0.0<8;8,1>:ud\n"
    "(W)     mov (1|M0)     r40.2<1>:ud  0xA000:ud\n"
    "        send (8|M0)    r50:f        r40           0x2            0x062A2103\n"
    "        mov (8|M0)     r116.0<1>:f  r20.0<8;8,1>:f\n"
    "        mov (8|M0)     r117.0<1>:f  r21.0<8;8,1>:f\n"
    "        mov (8|M0)     r118.0<1>:f  r22.0<8;8,1>:f\n"
    "        mov (8|M0)     r119.0<1>:f  r23.0<8;8,1>:f\n"
    "        sendc (8|M0)   null:uw      r116          0x25           0x08031401   {EOT}\n";

/* Header-less sample messages asking for fewer channels than R, G, B, A:
 * a SIMD16 response of rlen 6 (R, G, B) and a SIMD8 one of rlen 1 (R). */
static const char K_sampler_short[] =
    "        send (16|M0)   r30:f        r12           0x2            0x08640003\n"
    "        send (8|M0)    r20:f        r10           0x2            0x04120003\n"
    "        mov (8|M0)     r116.0<1>:f  r20.0<8;8,1>:f\n"
    "        mov (8|M0)     r117.0<1>:f  r21.0<8;8,1>:f\n"
    "        mov (8|M0)     r118.0<1>:f  r22.0<8;8,1>:f\n"
    "        mov (8|M0)     r119.0<1>:f  r23.0<8;8,1>:f\n"
    "        sendc (8|M0)   null:uw      r116          0x25           0x08031401   {EOT}\n";

/* rlen 5 of a SIMD16 sample is not whole channels */
static const char K_sampler_half[] =
    "        send (16|M0)   r30:f        r12           0x2            0x08540003\n" EOT_TS;
/* with a header, the channel mask (here all four) decides the response length */
static const char K_sampler_hdr_short[] =
    "(W)     mov (8|M0)     r40.0<1>:ud  r0.0<8;8,1>:ud\n"
    "        send (8|M0)    r50:f        r40           0x2            0x062A0003\n" EOT_TS;

static const char K_ps32[] =
    "// SIMD32 pixel shader output: two SIMD16 RT writes, the second with slot group high (desc bit 11)\n"
    "        mov (16|M0)    r100.0<1>:f  r10.0<8;8,1>:f\n"
    "        mov (16|M0)    r102.0<1>:f  0.25:f\n"
    "        mov (16|M0)    r104.0<1>:f  0.5:f\n"
    "        mov (16|M0)    r106.0<1>:f  1.0:f\n"
    "        mov (16|M16)   r120.0<1>:f  r12.0<8;8,1>:f\n"
    "        mov (16|M16)   r122.0<1>:f  0.25:f\n"
    "        mov (16|M16)   r124.0<1>:f  0.5:f\n"
    "        mov (16|M16)   r126.0<1>:f  1.0:f\n"
    "        sendc (16|M0)  null:uw      r100          0x5            0x10030000\n"
    "        sendc (16|M16) null:uw      r120          0x25           0x10031800   {EOT}\n";

static const char K_bad_slot[] =
    "        sendc (16|M16) null:uw      r120          0x25           0x10031000   {EOT}\n";

static const char K_bad_eot[] =
    "        mov (8|M0)     r100.0<1>:f  1.0:f\n"
    "(W)     send (8|M0)    null:ud      r100          0x27          0x02000010   {EOT}\n";

static const char K_spin[] =
    "TOP:\n"
    "(W)     jmpi           TOP\n";

static const char K_row_cross[] =
    "        mov (8|M0)     r12.0<1>:f   r10.4<8;8,1>:f\n"
    EOT_TS;

static const char K_divzero[] =
    "        math.iqot (8|M0)   r22.0<1>:d   r20.0<8;8,1>:d   r21.0<8;8,1>:d\n"
    EOT_TS;

static const char K_gateway[] =
    "        send (8|M0)    null:ud      r100          0x3           0x02000010\n"
    EOT_TS;

static const char K_rule6[] =
    "        mov (8|M0)     r12.0<1>:w   r10.0<8;8,1>:d\n"
    EOT_TS;

static const char K_rule2[] =
    "        mov (4|M0)     r12.0<1>:f   r10.0<8;4,1>:f\n"
    EOT_TS;

static const char K_vimm[] =
    "        mov (8|M0)     r12.0<1>:d   0x76543210:v\n"
    EOT_TS;

static const char K_mathsplit[] =
    "        math.inv (8|M0)    r12.2<1>:f   r20.0<8;8,1>:f\n"
    EOT_TS;

/* half floats: conversions (SIMD8 pieces with a 16-byte aligned packed
 * :hf destination, a stride-2 scalar), :hf arithmetic, mad and math
 * (SIMD8), denormals flushed until cr0 bit 10 is set */
static const char K_half[] =
    "        mov (8|M0)     r12.0<1>:hf  r10.0<8;8,1>:f\n"
    "        mov (8|M0)     r12.8<1>:hf  r11.0<8;8,1>:f\n"
    "        mov (8|M0)     r13.0<1>:f   r12.0<8;8,1>:hf\n"
    "        add (16|M0)    r14.0<1>:hf  r12.0<8;8,1>:hf  0x3C00:hf\n"
    "        mul (16|M0)    r15.0<1>:hf  r12.0<8;8,1>:hf  r12.0<8;8,1>:hf\n"
    "        mad (16|M0)    r16.0<1>:hf  r2.0<0;0>:hf  r12.0<2;1>:hf  r12.0<1>:hf\n"
    "        math.inv (8|M0)    r17.0<1>:hf  r12.0<8;8,1>:hf\n"
    "        math.inv (8|M8)    r17.8<1>:hf  r12.8<8;8,1>:hf\n"
    "        mul (8|M0)     r18.0<1>:hf  r19.0<8;8,1>:hf  0x3C00:hf\n"
    "(W)     or (1|M0)      cr0.0<1>:ud  cr0.0<0;1,0>:ud  0x400:uw   {Switch}\n"
    "        mul (8|M0)     r20.0<1>:hf  r19.0<8;8,1>:hf  0x3C00:hf\n"
    "(W)     mov (1|M0)     r21.2<2>:hf  r10.1<0;1,0>:f\n"
    EOT_TS;

/* what the SKL PRM forbids for half floats (gen9-target.md section 2) */
/* 1-OWord scratch block messages (SIMD8 half floats spill this way):
 * write r3's low OWord at byte 32 and r4's high one at byte 64, read byte
 * 32 into r5's high half and byte 64 into r6's low half */
static const char K_oword1[] =
    "(W)     mov (8|M0)    r2.0<1>:ud    r0.0<8;8,1>:ud\n"
    "(W)     mov (1|M0)    r2.2<1>:ud    0x2:ud\n"
    "(W)     sends (8|M0)  null:ud       r2   r3   0x4A   0x020A00FD\n"
    "(W)     mov (1|M0)    r2.2<1>:ud    0x4:ud\n"
    "(W)     sends (8|M0)  null:ud       r2   r4   0x4A   0x020A01FD\n"
    "(W)     mov (1|M0)    r2.2<1>:ud    0x2:ud\n"
    "(W)     send (8|M0)   r5:ud         r2   0xA  0x021801FD\n"
    "(W)     mov (1|M0)    r2.2<1>:ud    0x4:ud\n"
    "(W)     send (8|M0)   r6:ud         r2   0xA  0x021800FD\n" EOT_TS;
static const char K_mixed16[] = "        mov (16|M0)    r14.0<1>:f   r12.0<8;8,1>:hf\n" EOT_TS;
static const char K_hfalign[] = "        mov (8|M0)     r12.4<1>:hf  r10.0<8;8,1>:f\n" EOT_TS;
static const char K_hfpacked16[] = "        mov (16|M0)    r12.0<1>:hf  r10.0<8;8,1>:f\n" EOT_TS;
static const char K_hfmath16[] = "        math.inv (16|M0)    r12.0<1>:hf  r10.0<8;8,1>:hf\n" EOT_TS;
static const char K_hfint[] = "        mov (8|M0)     r12.0<1>:hf  r10.0<8;8,1>:d\n" EOT_TS;
static const char K_hfmad[] =
    "        mad (8|M0)     r12.0<1>:hf  r2.0<0;0>:f  r10.0<2;1>:hf  r11.0<1>:hf\n" EOT_TS;

static const char K_noeot[] =
    "        mov (8|M0)     r12.0<1>:f   1.0:f\n";

static const struct {
    const char *name;
    const char *text;
} kernels[] = {
    {"regions", K_regions}, {"convert", K_convert}, {"simd32", K_simd32},
    {"ifelse", K_ifelse}, {"loop", K_loop}, {"pred", K_pred}, {"cmod", K_cmod},
    {"math", K_math}, {"intops", K_intops}, {"denorm", K_denorm}, {"mad", K_mad}, {"fma", K_fma},
    {"indirect", K_indirect}, {"halt", K_halt}, {"sampler", K_sampler},
    {"bad_eot", K_bad_eot}, {"spin", K_spin}, {"row_cross", K_row_cross},
    {"divzero", K_divzero}, {"gateway", K_gateway}, {"noeot", K_noeot},
    {"ps32", K_ps32}, {"bad_slot", K_bad_slot}, {"chanmask", K_chanmask}, {"rule6", K_rule6}, {"rule2", K_rule2}, {"vimm", K_vimm}, {"mathsplit", K_mathsplit},
    {"half", K_half}, {"mixed16", K_mixed16}, {"hfalign", K_hfalign}, {"hfpacked16", K_hfpacked16},
    {"hfmath16", K_hfmath16}, {"hfint", K_hfint}, {"hfmad", K_hfmad},
};

/* ---- helpers ---------------------------------------------------------- */

typedef struct capture {
    int nrt;
    gensim_rt_write rt[4];
    int nurb;
    gensim_urb_write urb[4];
    int nsample;
    gensim_sample_msg smp[8];
    int nsend;
    gensim_send_info send[16];
    uint8_t send_payload[16][8 * 32];
    uint8_t surf1[256];
    uint8_t cbuf[256];
} capture;

static int cap_rt(void *u, const gensim_rt_write *w, char *err, size_t n)
{
    capture *c = u;
    (void)err; (void)n;
    if (c->nrt < 4)
        c->rt[c->nrt] = *w;
    c->nrt++;
    return 0;
}

static int cap_urb(void *u, const gensim_urb_write *w, char *err, size_t n)
{
    capture *c = u;
    (void)err; (void)n;
    if (c->nurb < 4)
        c->urb[c->nurb] = *w;
    c->nurb++;
    return 0;
}

/* texture model for the tests: R = param0, G = param1, B = msg type,
 * A = number of parameters */
static int cap_sample(void *u, const gensim_sample_msg *m, uint32_t res[4][16], char *err, size_t n)
{
    capture *c = u;
    (void)err; (void)n;
    if (c->nsample < 8)
        c->smp[c->nsample] = *m;
    c->nsample++;
    for (unsigned i = 0; i < m->simd; i++) {
        float b = (float)m->msg_type, a = (float)m->nparams;
        res[0][i] = m->param[0][i];
        res[1][i] = m->nparams > 1 ? m->param[1][i] : 0;
        memcpy(&res[2][i], &b, 4);
        memcpy(&res[3][i], &a, 4);
    }
    return 0;
}

static uint8_t *cap_surface(void *u, unsigned sfid, unsigned bti, size_t *size)
{
    capture *c = u;
    if (sfid == 0x9 && bti == 2) {
        *size = sizeof c->cbuf;
        return c->cbuf;
    }
    if ((sfid == 0xC || sfid == 0xA) && bti == 1) {
        *size = sizeof c->surf1;
        return c->surf1;
    }
    return NULL;
}

static void cap_send(void *u, const gensim_send_info *s)
{
    capture *c = u;
    if (c->nsend < 16) {
        c->send[c->nsend] = *s;
        unsigned n = s->mlen > 8 ? 8 : s->mlen;
        memcpy(c->send_payload[c->nsend], s->payload0, n * 32);
    }
    c->nsend++;
}

static gensim_config make_cfg(capture *c, uint32_t dispatch)
{
    gensim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.dispatch_mask = dispatch;
    cfg.cb.user = c;
    cfg.cb.rt_write = cap_rt;
    cfg.cb.urb_write = cap_urb;
    cfg.cb.sample = cap_sample;
    cfg.cb.surface = cap_surface;
    cfg.cb.observe_send = cap_send;
    return cfg;
}

static gensim_program *parse_ok(const char *text, const char *name)
{
    char err[GENSIM_ERR_LEN];
    gensim_program *p = gensim_parse(text, name, err, sizeof err);
    if (!p)
        fail_msg("parse of %s failed: %s", name, err);
    return p;
}

static gensim_thread *new_thread(const gensim_program *p, const gensim_config *cfg)
{
    gensim_thread *t = gensim_thread_new(p, cfg);
    assert_non_null(t);
    return t;
}

static void run_ok(gensim_thread *t)
{
    gensim_status st = gensim_run(t, 100000);
    if (st != GENSIM_OK)
        fail_msg("run failed (%d): %s", (int)st, gensim_error(t));
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint16_t u16(const gensim_thread *t, unsigned reg, unsigned word)
{
    const uint8_t *p = t->grf + reg * 32 + word * 2;
    return (uint16_t)(p[0] | p[1] << 8);
}

static void set_u16(gensim_thread *t, unsigned reg, unsigned word, uint16_t v)
{
    uint8_t *p = t->grf + reg * 32 + word * 2;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static char *example(const char *file)
{
    char path[1024];
    const char *dir = getenv("ST_GEN9_EXAMPLES");
    const char *root = getenv("ST_ROOT");
    if (dir)
        snprintf(path, sizeof path, "%s/%s", dir, file);
    else if (root)
        snprintf(path, sizeof path, "%s/../shared/docs/gen9-examples/%s", root, file);
    else
        snprintf(path, sizeof path, "../shared/docs/gen9-examples/%s", file);
    return read_text(path);
}

/* ---- parser ------------------------------------------------------------ */

static void test_parse_fields(void **state)
{
    (void)state;
    static const char text[] =
        "// comment\n"
        "(W&~f1.0.any8h) add (8|M8)  (ne)f0.1  (sat)r46.2<2>:uw  -(abs)r14.1<8;4,2>:d  -1:d   {AccWrEn}\n"
        "        mad (16|M0)    r52.0<1>:f   -r2.0<0;0>:f     r10.0<2;1>:f     (abs)r2.1<0>:f\n"
        "L1:\n"
        "        sends (16|M0)  null:ud  r54     r56     0x8C    0x04025E01\n"
        "(f0.0)  while (16|M0)  L1\n"
        "        mov (8|M0)     r64.0<1>:f   r[a0.2,-4]<1,0>:f\n";
    gensim_program *p = parse_ok(text, "fields");
    assert_int_equal(p->count, 5);
    const gensim_inst *a = &p->insts[0];
    assert_int_equal(a->line, 2);
    assert_int_equal(a->op, GS_OP_ADD);
    assert_int_equal(a->nomask, 1);
    assert_int_equal(a->pred, GS_P_ANY8H);
    assert_int_equal(a->pred_inv, 1);
    assert_int_equal(a->pred_flag, 32);      /* f1.0 = flag bit 32 */
    assert_int_equal(a->exec_size, 8);
    assert_int_equal(a->group, 8);
    assert_int_equal(a->cmod, GS_CM_NE);
    assert_int_equal(a->cmod_flag, 16);      /* f0.1 = bit 16 */
    assert_int_equal(a->sat, 1);
    assert_int_equal(a->dst.reg, 46);
    assert_int_equal(a->dst.sub, 2);
    assert_int_equal(a->dst.hs, 2);
    assert_int_equal(a->dst.type, GS_T_UW);
    assert_int_equal(a->src[0].neg, 1);
    assert_int_equal(a->src[0].abs, 1);
    assert_int_equal(a->src[0].vs, 8);
    assert_int_equal(a->src[0].w, 4);
    assert_int_equal(a->src[0].hs, 2);
    assert_int_equal(a->src[1].file, GS_F_IMM);
    assert_int_equal(a->src[1].imm, 0xffffffffu);
    assert_true(a->opts & GS_OPT_ACCWREN);
    const gensim_inst *m = &p->insts[1];
    assert_int_equal(m->op, GS_OP_MAD);
    assert_int_equal(m->src[0].vs, 0);        /* <0;0> = replicate */
    assert_int_equal(m->src[0].w, 1);
    assert_int_equal(m->src[1].hs, 1);
    assert_int_equal(m->src[2].abs, 1);
    assert_int_equal(m->src[2].sub, 1);
    const gensim_inst *s = &p->insts[2];
    assert_int_equal(s->op, GS_OP_SENDS);
    assert_int_equal(s->src[0].reg, 54);
    assert_int_equal(s->src[1].reg, 56);
    assert_int_equal(s->exdesc, 0x8C);
    assert_int_equal(s->desc, 0x04025E01);
    assert_int_equal(p->insts[3].jip, 2);     /* L1 labels instruction 2 */
    assert_int_equal(p->insts[3].pred, GS_P_NORMAL);
    const gensim_inst *v = &p->insts[4];
    assert_int_equal(v->src[0].addr_mode, GS_A_VXH);
    assert_int_equal(v->src[0].addr_sub, 2);
    assert_int_equal(v->src[0].addr_off, -4);
    gensim_program_free(p);
}

static void expect_parse_error(const char *text, const char *want)
{
    char err[GENSIM_ERR_LEN];
    gensim_program *p = gensim_parse(text, "bad.asm", err, sizeof err);
    assert_null(p);
    if (!strstr(err, want))
        fail_msg("error '%s' does not contain '%s'", err, want);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_parse_error("        mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n        frob (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n",
                       "bad.asm:2: unsupported or unknown mnemonic 'frob'");
    expect_parse_error("        mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f {NoMask}\n", "bad.asm:1: NoMask");
    expect_parse_error("        mov (8|M0) r1.0<1>:f 2:f\n", "must be hex");
    expect_parse_error("        jmpi NOWHERE\n", "bad.asm:1: undefined label 'NOWHERE'");
    expect_parse_error("\n\n        mov (8|M0) r128.0<1>:f r2.0<8;8,1>:f\n", "bad.asm:3: register r128");
    expect_parse_error("        mov (8|M0) r1.0<0>:f r2.0<8;8,1>:f\n", "stride must not be 0");
    expect_parse_error("        add (16|M8) r1.0<1>:f r2.0<8;8,1>:f r3.0<8;8,1>:f\n", "not aligned");
    expect_parse_error("        mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f {Align1}\n", "invalid instruction option");
    expect_parse_error("(+f0.0) mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n", "no '+' predicate");
    expect_parse_error("L: mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n", "alone on its line");
    expect_parse_error("        mov (8|M0) r1.0<1>:f r2.0<8;8,1>:f {EOT}\n", "only valid on send");
    expect_parse_error("        math.invm (8|M0) r1.0<1>:f r2.0<8;8,1>:f\n", "unsupported math function");
}

/* every docs example parses; the Gen12 one is rejected with a location */
static void test_examples_parse(void **state)
{
    (void)state;
    static const char *files[] = {"control_flow.asm", "cs_simd16.asm", "memory.asm",
                                  "ps_simd16.asm", "ps_simd8.asm", "regions_alu.asm",
                                  "vs_simd8.asm"};
    char *probe = example("ps_simd8.asm");
    if (!probe)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    free(probe);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = example(files[i]);
        assert_non_null(text);
        gensim_program *p = parse_ok(text, files[i]);
        assert_true(p->count > 0);
        gensim_program_free(p);
        free(text);
    }
    char *g12 = example("gen12_tgl.asm");
    assert_non_null(g12);
    char err[GENSIM_ERR_LEN];
    assert_null(gensim_parse(g12, "gen12_tgl.asm", err, sizeof err));
    assert_non_null(strstr(err, "gen12_tgl.asm:"));
    free(g12);
}

/* ---- regions and conversions ------------------------------------------ */

static void test_regions(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_regions, "regions");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_u32(t, 10 + k / 8, k % 8, 100 + k);       /* r10-r11 = 100..115 */
        gensim_set_f32(t, 20 + k / 8, k % 8, 0.5f * (float)k);
        set_u16(t, 1, k, (uint16_t)(k + 1));                  /* r1 words 1..16 */
    }
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_u32(t, 30, k, (uint32_t)(-1 - (int)k));
        gensim_set_u32(t, 32, k, 11 * k);
    }
    gensim_set_f32(t, 31, 3, 7.25f);
    for (unsigned k = 0; k < 32; k++)
        set_u16(t, 42 + k / 16, k % 16, (uint16_t)(1000 + k));
    gensim_set_u32(t, 52, 0, 1000);
    run_ok(t);
    /* <8;4,2> from r10.0: rows r10.{0,2,4,6} then r11.{0,2,4,6} */
    static const uint32_t even[8] = {100, 102, 104, 106, 108, 110, 112, 114};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(gensim_u32(t, 12, k), even[k]);
        assert_int_equal(gensim_u32(t, 13, k), even[k] + 1);
    }
    /* SIMD16 :f reads r20-r21 and writes r14-r15 */
    for (unsigned k = 0; k < 16; k++)
        assert_true(gensim_f32(t, 14 + k / 8, k % 8) == 0.5f * (float)k);
    /* :d -> :uw, dst stride 2: low words get -1-k truncated, odd words untouched */
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(u16(t, 16, 2 * k), 0xffff - k);
        assert_int_equal(u16(t, 16, 2 * k + 1), 0);
    }
    for (unsigned k = 0; k < 8; k++)
        assert_true(gensim_f32(t, 17, k) == 7.25f);
    /* <2;2,0> from r32.1: rows start at .1,.3,.5,.7, each row repeats */
    static const uint32_t rep[8] = {11, 11, 33, 33, 55, 55, 77, 77};
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(gensim_u32(t, 18, k), rep[k]);
    /* (4) into r19.2..r19.5 from r32.4..7; r19.0/1/6/7 untouched */
    assert_int_equal(gensim_u32(t, 19, 0), 0);
    assert_int_equal(gensim_u32(t, 19, 1), 0);
    for (unsigned k = 0; k < 4; k++)
        assert_int_equal(gensim_u32(t, 19, 2 + k), 11 * (4 + k));
    assert_int_equal(gensim_u32(t, 19, 6), 0);
    /* <16;8,2>:w: channel i<8 -> r42 word 2i, i>=8 -> r43 word 2(i-8) */
    for (unsigned i = 0; i < 16; i++) {
        unsigned want = i < 8 ? 1000 + 2 * i : 1000 + 16 + 2 * (i - 8);
        assert_int_equal(u16(t, 40, i), want);
    }
    /* dword dst over r50-r51 from a scalar and 16 packed words in one GRF */
    for (unsigned k = 0; k < 16; k++)
        assert_int_equal(gensim_u32(t, 50 + k / 8, k % 8), 1001 + k);
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_conversions(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_convert, "convert");
    gensim_thread *t = new_thread(p, &cfg);
    const float in[8] = {1.7f, -1.7f, 3e9f, -3e9f, NAN, 0.5f, 0.25f, 2.5e9f};
    const int32_t ints[8] = {16777217, -5, 70000, 3, -100, 65519, 65520, 0};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, in[k]);
        gensim_set_u32(t, 11, k, (uint32_t)ints[k]);
    }
    run_ok(t);
    /* float -> int: round toward zero, saturate to the range, NaN -> 0 */
    const int32_t d[8] = {1, -1, INT32_MAX, INT32_MIN, 0, 0, 0, INT32_MAX};
    const uint32_t ud[8] = {1, 0, 3000000000u, 0, 0, 0, 0, 2500000000u};
    const float sat[8] = {1.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.5f, 0.25f, 1.0f};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal((int32_t)gensim_u32(t, 12, k), d[k]);
        assert_int_equal(gensim_u32(t, 13, k), ud[k]);
        assert_true(gensim_f32(t, 14, k) == sat[k]);
    }
    /* int -> float rounds to nearest even: 2^24+1 -> 2^24 */
    assert_true(gensim_f32(t, 15, 0) == 16777216.0f);
    assert_true(gensim_f32(t, 15, 1) == -5.0f);
    /* add with (sat) into :uw: 16777233 -> 65535, -84 -> 0, 65536 -> 65535 */
    const uint16_t w[8] = {65535, 11, 65535, 19, 0, 65535, 65535, 16};
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(u16(t, 16, 2 * k), w[k]);
    /* :v nibbles 0,1,2,3,C,D,E,F = 0,1,2,3,-4,-3,-2,-1 */
    const int16_t v[8] = {0, 1, 2, 3, -4, -3, -2, -1};
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal((int16_t)u16(t, 17, k), v[k]);
    /* :vf bytes 0x20,0x30,0x30,0x40 = 0.5, 1.0, 1.0, 2.0 */
    assert_true(gensim_f32(t, 18, 0) == 0.5f);
    assert_true(gensim_f32(t, 18, 1) == 1.0f);
    assert_true(gensim_f32(t, 18, 2) == 1.0f);
    assert_true(gensim_f32(t, 18, 3) == 2.0f);
    assert_int_equal(gensim_u32(t, 18, 4), 0);
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal((int32_t)gensim_u32(t, 19, k), ints[k]);
        assert_int_equal((int32_t)gensim_u32(t, 20, k), -ints[k]);
    }
    /* -(abs) on a raw float mov sets the sign bit, NaN payload kept */
    assert_int_equal(gensim_u32(t, 21, 0), fbits(-1.7f));
    assert_int_equal(gensim_u32(t, 21, 1), fbits(-1.7f));
    assert_int_equal(gensim_u32(t, 21, 4), fbits(NAN) | 0x80000000u);
    gensim_thread_free(t);
    gensim_program_free(p);
}

/* ---- masks, predication, control flow --------------------------------- */

static void test_simd32_halves(void **state)
{
    (void)state;
    for (int half_only = 0; half_only < 2; half_only++) {
        capture c;
        memset(&c, 0, sizeof c);
        gensim_config cfg = make_cfg(&c, half_only ? 0x0000ffffu : 0xffffffffu);
        gensim_program *p = parse_ok(K_simd32, "simd32");
        gensim_thread *t = new_thread(p, &cfg);
        uint32_t want_flags = 0;
        for (unsigned ch = 0; ch < 32; ch++) {
            float v = (float)((ch * 7) % 32);
            gensim_set_f32(t, 10 + ch / 8, ch % 8, v);        /* r10-r13 */
            gensim_set_f32(t, 20 + ch / 8, ch % 8, -1.0f);    /* r20-r23 */
            if (v < 10.5f && (!half_only || ch < 16))
                want_flags |= 1u << ch;
        }
        gensim_set_f32(t, 14, 0, 10.5f);
        run_ok(t);
        assert_int_equal(gensim_u32(t, 30, 0), want_flags);
        for (unsigned ch = 0; ch < 32; ch++) {
            float v = (float)((ch * 7) % 32);
            float want = (want_flags >> ch & 1) ? v : -1.0f;
            assert_true(gensim_f32(t, 20 + ch / 8, ch % 8) == want);
        }
        gensim_thread_free(t);
        gensim_program_free(p);
    }
}

/*
 * ce0 does not consider the dispatch mask (Mesa brw_find_live_channel ANDs
 * it with DMask/VMask): with a SIMD16 dispatch of channels 4-15, channels
 * 0-3 read as enabled in ce0, so the first "live" channel by ce0 alone is
 * 0, by ce0 & sr0.2 it is 4.  Without a dispatch width ce0 is the
 * execution mask as before.
 */
static void test_channel_enable_and_dispatch_masks(void **state)
{
    (void)state;
    for (int width = 0; width < 2; width++) {
        capture c;
        memset(&c, 0, sizeof c);
        gensim_config cfg = make_cfg(&c, 0xfff0);
        cfg.dispatch_width = width ? 16 : 0;
        gensim_program *p = parse_ok(K_chanmask, "chanmask");
        gensim_thread *t = new_thread(p, &cfg);
        run_ok(t);
        assert_int_equal(gensim_u32(t, 20, 0), width ? 0xffffu : 0xfff0u);
        assert_int_equal(gensim_u32(t, 20, 1), 0xfff0u);
        assert_int_equal(gensim_u32(t, 20, 2), 0xfff0u);
        assert_int_equal(gensim_u32(t, 20, 3), 0xfff0u);
        assert_int_equal(gensim_u32(t, 20, 4), width ? 0u : 4u);
        assert_int_equal(gensim_u32(t, 20, 5), 4u);
        gensim_thread_free(t);
        gensim_program_free(p);
    }
}

static void test_if_else(void **state)
{
    (void)state;
    for (int all_else = 0; all_else < 2; all_else++) {
        capture c;
        memset(&c, 0, sizeof c);
        gensim_config cfg = make_cfg(&c, 0xbfff);   /* channel 14 not dispatched */
        gensim_program *p = parse_ok(K_ifelse, "ifelse");
        gensim_thread *t = new_thread(p, &cfg);
        for (unsigned ch = 0; ch < 16; ch++) {
            gensim_set_f32(t, 10 + ch / 8, ch % 8, all_else ? 5.0f + (float)ch : 0.25f * (float)ch);
            gensim_set_f32(t, 24 + ch / 8, ch % 8, -1.0f);
        }
        run_ok(t);
        for (unsigned ch = 0; ch < 16; ch++) {
            float want;
            if (ch == 14)
                want = -1.0f;            /* never enabled */
            else if (all_else)
                want = 2.0f;             /* r20 = 2, r22 = 0 */
            else if (ch < 4)
                want = 6.0f;             /* r10 < 1: r20 = 1, r22 = 5 */
            else if (ch < 8)
                want = 1.0f;             /* 1 <= r10 < 2: r20 = 1 */
            else
                want = 2.0f;             /* else branch */
            assert_true(gensim_f32(t, 24 + ch / 8, ch % 8) == want);
        }
        /* the (W) add in the then-branch runs only if the IF did not jump
         * to JIP: with every channel on the else path it is skipped */
        assert_int_equal(gensim_u32(t, 30, 0), all_else ? 0 : 1);
        assert_int_equal(gensim_u32(t, 30, 1), 1);
        assert_int_equal(gensim_active_mask(t), 0xbfff);
        gensim_thread_free(t);
        gensim_program_free(p);
    }
}

static void test_loop_break(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_loop, "loop");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned ch = 0; ch < 16; ch++)
        gensim_set_u32(t, 10 + ch / 8, ch % 8, ch % 5 + 1);   /* limit n */
    run_ok(t);
    for (unsigned ch = 0; ch < 16; ch++) {
        unsigned n = ch % 5 + 1;
        /* r20 counts to n, r22 = 1 + 2 + ... + (n-1) */
        assert_int_equal(gensim_u32(t, 20 + ch / 8, ch % 8), n);
        assert_int_equal(gensim_u32(t, 22 + ch / 8, ch % 8), n * (n - 1) / 2);
        assert_int_equal(gensim_u32(t, 24 + ch / 8, ch % 8), n + n * (n - 1) / 2);
    }
    /* the loop body ran max(n) = 5 times */
    assert_int_equal(gensim_u32(t, 30, 0), 5);
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_predication(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_pred, "pred");
    gensim_thread *t = new_thread(p, &cfg);
    run_ok(t);
    /* f0.0 = 0x00F1: channels 0,4,5,6,7 */
    for (unsigned ch = 0; ch < 16; ch++) {
        int bit = (0xf1 >> ch) & 1;
        float any = ch < 8 ? 1.0f : 0.0f;            /* groups 0-3 and 4-7 have a bit */
        float all = (ch >= 4 && ch < 8) ? 2.0f : 0.0f; /* only group 4-7 is full */
        assert_true(gensim_f32(t, 20 + ch / 8, ch % 8) == any);
        assert_true(gensim_f32(t, 22 + ch / 8, ch % 8) == all);
        assert_true(gensim_f32(t, 24 + ch / 8, ch % 8) == (bit ? 0.0f : 3.0f));
    }
    /* (8|M8) uses flag bits 8-15 (all 0): nothing written */
    for (unsigned k = 0; k < 8; k++)
        assert_true(gensim_f32(t, 26, k) == 0.0f);
    /* (W&~f0.0) (1): bit 0 is set -> not written; (W&f0.0) -> written */
    assert_true(gensim_f32(t, 27, 0) == 0.0f);
    assert_true(gensim_f32(t, 27, 1) == 6.0f);
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_cmod_sel(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_cmod, "cmod");
    gensim_thread *t = new_thread(p, &cfg);
    const float a[8] = {0.2f, 0.7f, 2.0f, -1.0f, NAN, 0.5f, 3.0f, -0.25f};
    const int32_t b[8] = {3, 0, 3, -3, 6, 3, 7, 3};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, a[k]);
        gensim_set_f32(t, 11, k, 100.0f + (float)k);
        gensim_set_u32(t, 20, k, (uint32_t)b[k]);
    }
    run_ok(t);
    /* add: a - 0.5 = -0.3, 0.2, 1.5, -1.5, NaN, 0, 2.5, -0.75; the flag is
     * taken before .sat, so (lt) is set for channels 0, 3, 7 */
    assert_int_equal(gensim_u32(t, 30, 0) & 0xffff, 0x89);
    const float sat[8] = {0.0f, 0.2f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
    for (unsigned k = 0; k < 8; k++) {
        if (k == 1)
            assert_true(fabsf(gensim_f32(t, 12, k) - 0.2f) < 1e-6f);
        else
            assert_true(gensim_f32(t, 12, k) == sat[k]);
    }
    /* sel.ge = max, sel.lt = min; a NaN source yields the other source */
    const float mx[8] = {0.5f, 0.7f, 2.0f, 0.5f, 0.5f, 0.5f, 3.0f, 0.5f};
    const float mn[8] = {0.2f, 0.5f, 0.5f, -1.0f, 0.5f, 0.5f, 0.5f, -0.25f};
    for (unsigned k = 0; k < 8; k++) {
        assert_true(gensim_f32(t, 13, k) == mx[k]);
        assert_true(gensim_f32(t, 14, k) == mn[k]);
    }
    /* max(100+k, a): a NaN second source also yields the other source */
    for (unsigned k = 0; k < 8; k++) {
        float want = (k == 4 || a[k] < 100.0f + (float)k) ? 100.0f + (float)k : a[k];
        assert_true(gensim_f32(t, 18, k) == want);
    }
    /* sel with a conditional modifier does not write the flag: f0.1 keeps 0xA5 */
    assert_int_equal(gensim_u32(t, 30, 0) >> 16, 0xa5);
    /* (f0.0) sel: predicate selects src0 (r10) where set, else src1 (r11) */
    for (unsigned k = 0; k < 8; k++) {
        float want = (0x89 >> k & 1) ? a[k] : 100.0f + (float)k;
        assert_true(gensim_f32(t, 15, k) == want);
    }
    /* cmp writes all ones / zero; eq with NaN is false */
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(gensim_u32(t, 16, k), k == 0 ? 0xffffffffu : 0);
    /* integer add (eq): b - 3 == 0 for channels 0, 2, 5, 7; f1.0 bit 0 from cmp */
    assert_int_equal(gensim_u32(t, 30, 1), 0x1u | (0xa5u << 16));
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_math(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_math, "math");
    gensim_thread *t = new_thread(p, &cfg);
    const float x[8] = {4.0f, 0.25f, 2.0f, 0.0f, -1.0f, 16.0f, 1.0f, 64.0f};
    const int32_t n[8] = {7, -7, 7, -7, 100, 0, 5, -1};
    const int32_t d[8] = {2, 2, -2, -2, 7, 3, 5, 1};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, x[k]);
        gensim_set_f32(t, 11, k, 0.5f);
        gensim_set_u32(t, 20, k, (uint32_t)n[k]);
        gensim_set_u32(t, 21, k, (uint32_t)d[k]);
    }
    for (unsigned k = 0; k < 16; k++)
        gensim_set_f32(t, 26 + k / 8, k % 8, (float)(1u << (k % 8)));
    run_ok(t);
    const float inv[8] = {0.25f, 4.0f, 0.5f, INFINITY, -1.0f, 0.0625f, 1.0f, 0.015625f};
    const float sq[8] = {2.0f, 0.5f, 0, 0.0f, 0, 4.0f, 1.0f, 8.0f};
    const float rsq[8] = {0.5f, 2.0f, 0, INFINITY, 0, 0.25f, 1.0f, 0.125f};
    const float ex[8] = {16.0f, 0, 4.0f, 1.0f, 0.5f, 65536.0f, 2.0f, 18446744073709551616.0f};
    const float lg[8] = {2.0f, -2.0f, 1.0f, -INFINITY, 0, 4.0f, 0.0f, 6.0f};
    const float dv[8] = {8.0f, 0.5f, 4.0f, 0.0f, -2.0f, 32.0f, 2.0f, 128.0f};
    for (unsigned k = 0; k < 8; k++) {
        assert_true(gensim_f32(t, 12, k) == inv[k]);
        if (k != 2 && k != 4) {
            assert_true(gensim_f32(t, 13, k) == sq[k]);
            assert_true(gensim_f32(t, 14, k) == rsq[k]);
            assert_true(gensim_f32(t, 17, k) == sq[k]);   /* pow(x, 0.5) */
        }
        if (k != 1)
            assert_true(gensim_f32(t, 15, k) == ex[k]);
        if (k != 4)
            assert_true(gensim_f32(t, 16, k) == lg[k]);
        assert_true(gensim_f32(t, 18, k) == dv[k]);
        assert_true(gensim_f32(t, 19, k) == 0.0f);        /* sin(0) */
        assert_true(gensim_f32(t, 9, k) == 1.0f);         /* cos(0) */
    }
    assert_true(fabsf(gensim_f32(t, 13, 2) - 1.41421356f) < 1e-6f);
    assert_true(fabsf(gensim_f32(t, 14, 2) - 0.70710678f) < 1e-6f);
    assert_true(fabsf(gensim_f32(t, 15, 1) - 1.18920712f) < 1e-6f);
    assert_true(isnan(gensim_f32(t, 13, 4)));   /* sqrt(-1) */
    assert_true(isnan(gensim_f32(t, 14, 4)));
    assert_true(isnan(gensim_f32(t, 16, 4)));   /* log2(-1) */
    /* iqot truncates toward zero, irem takes the dividend's sign */
    const int32_t q[8] = {3, -3, -3, 3, 14, 0, 1, -1};
    const int32_t r[8] = {1, -1, 1, -1, 2, 0, 0, 0};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal((int32_t)gensim_u32(t, 22, k), q[k]);
        assert_int_equal((int32_t)gensim_u32(t, 23, k), r[k]);
    }
    /* SIMD16 math writes both registers: 1 / 2^(k%8) */
    for (unsigned k = 0; k < 16; k++)
        assert_true(gensim_f32(t, 24 + k / 8, k % 8) == 1.0f / (float)(1u << (k % 8)));
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_int_ops(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_intops, "intops");
    gensim_thread *t = new_thread(p, &cfg);
    const uint32_t a[8] = {0xF0F0F0F0u, 0, 1, 0x80000000u, 0xFFFFFFFFu, 0x00010000u, 6, 0x12345678u};
    const int32_t s[8] = {-8, 8, -1, 1, INT32_MIN, 100, 0, -100};
    const int32_t m0[8] = {0x40000000, -1, 0x7FFFFFFF, -2, 3, 0x10000, -0x10000, 5};
    const int32_t m1[8] = {8, 1, 0x7FFFFFFF, 0x7FFFFFFF, -3, 0x10000, 0x10000, 7};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_u32(t, 10, k, a[k]);
        gensim_set_u32(t, 11, k, 0xFF00FF00u);
        gensim_set_u32(t, 20, k, (uint32_t)s[k]);
        gensim_set_u32(t, 22, k, (uint32_t)m0[k]);
        gensim_set_u32(t, 23, k, (uint32_t)m1[k]);
    }
    run_ok(t);
    for (unsigned k = 0; k < 8; k++) {
        /* Gen8+: '-'/'~' on a logic source is a bitwise NOT */
        assert_int_equal(gensim_u32(t, 12, k), ~a[k] & 0xFF00FF00u);
        assert_int_equal(gensim_u32(t, 13, k), ~a[k]);
        /* shift counts use the low 5 bits: 33 -> 1; shr is logical */
        assert_int_equal(gensim_u32(t, 14, k), (uint32_t)s[k] >> 1);
        assert_int_equal((int32_t)gensim_u32(t, 15, k), s[k] < 0 ? -(int32_t)((-(int64_t)s[k] + 1) / 2) : s[k] / 2);
        assert_int_equal(gensim_u32(t, 16, k), (uint32_t)s[k] << 4);
        /* mach = high dword of the 64-bit product */
        int64_t prod = (int64_t)m0[k] * (int64_t)m1[k];
        assert_int_equal((int32_t)gensim_u32(t, 17, k), (int32_t)(prod >> 32));
        assert_int_equal(gensim_u32(t, 18, k), (uint32_t)(uint64_t)prod);
        assert_int_equal(gensim_u32(t, 27, k), a[k] ^ 0xFFFF0000u);
    }
    /* lzd, cbit, fbl, bfrev by hand */
    const uint32_t lzd[8] = {0, 32, 31, 0, 0, 15, 29, 3};
    const uint32_t cb[8] = {16, 0, 1, 1, 32, 1, 2, 13};
    const uint32_t fbl[8] = {4, 0xFFFFFFFFu, 0, 31, 0, 16, 1, 3};
    const uint32_t rev[8] = {0x0F0F0F0Fu, 0, 0x80000000u, 1, 0xFFFFFFFFu, 0x00008000u, 0x60000000u, 0x1E6A2C48u};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(gensim_u32(t, 19, k), lzd[k]);
        assert_int_equal(gensim_u32(t, 24, k), cb[k]);
        assert_int_equal(gensim_u32(t, 25, k), fbl[k]);
        assert_int_equal(gensim_u32(t, 26, k), rev[k]);
    }
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_denormals(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_denorm, "denorm");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++)
        gensim_set_u32(t, 10, k, k == 0 ? 0x00000001u : k == 1 ? 0x807FFFFFu : fbits(1.5f));
    run_ok(t);
    /* cr0 bit 7 clear (Gen9 default): f32 denormals flush to zero in arithmetic */
    assert_int_equal(gensim_u32(t, 12, 0), 0);
    assert_int_equal(gensim_u32(t, 12, 1), 0);     /* -0 + +0 = +0 */
    assert_true(gensim_f32(t, 12, 2) == 1.5f);
    /* mov of the same type is a raw copy */
    assert_int_equal(gensim_u32(t, 13, 0), 1);
    /* after cr0 |= 0x80 denormals are kept */
    assert_int_equal(gensim_u32(t, 14, 0), 1);
    assert_int_equal(gensim_u32(t, 14, 1), 0x807FFFFFu);
    gensim_thread_free(t);
    gensim_program_free(p);
}

/*
 * Gen9's float mad is fused (the PRM's "computed with infinite precision,
 * then rounded"; Mesa's ffma, IGC's fma): a = b = 1 + 2^-23 makes
 * a * b = 1 + 2^-22 + 2^-46, which a separate mul rounds to 1 + 2^-22;
 * with c = -(1 + 2^-22) the fused sum is 2^-46, the mul + add 0.  Channel k
 * scales c by 2^k: the fused result stays 2^-46 - (2^k - 1)(1 + 2^-22).
 */
static void test_mad_is_fused(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_fma, "fma");
    gensim_thread *t = new_thread(p, &cfg);
    const float a = 1.0f + 0x1p-23f, cc = -(1.0f + 0x1p-22f);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 2, k, k ? cc * (float)(1u << k) : cc);
        gensim_set_f32(t, 3, k, a);
        gensim_set_f32(t, 4, k, a);
    }
    run_ok(t);
    assert_true(gensim_f32(t, 12, 0) == 0x1p-46f);
    assert_true(gensim_f32(t, 13, 0) == 0.0f); /* the separate mul rounded the product */
    for (unsigned k = 0; k < 8; k++)
        assert_true(gensim_f32(t, 12, k) == fmaf(a, a, gensim_f32(t, 2, k)));
    assert_true(gensim_f32(t, 12, 3) != gensim_f32(t, 13, 3));
    gensim_thread_free(t);
    gensim_program_free(p);
}

/*
 * lrp: src1 * src0 + src2 * (1 - src0), its exact value rounded once to
 * float (docs/gensim.md, "Assumptions").  Lanes worked by hand:
 * 0: (0.5, 1, -2^-24): 0.5 - 2^-25, a float (the steps 2^-24 + 0.5 (1 +
 *    2^-24) would round 1 + 2^-24 to 1: 0.5 - 2^-24);
 * 1: (0.5, 1 + 2^-23, 2^-25): 0.5 + 2^-24 + 2^-26, a quarter of the way
 *    from 0.5 + 2^-24 to the next float: 0.5 + 2^-24;
 * 2: (0, -0, -0): -0 + 1 * -0 = -0;
 * 3: (0.5, inf, inf) = inf + inf = inf;
 * 4: (2, 2^127, -2^127) = 2^128 + 2^127: inf, though each is finite;
 * 5: (0.5, 2^-149, 0) = 2^-150, the tie between 0 and 2^-149: +0 (even);
 * 6: (0.75, 2^-149, 2^-149) = 2^-149 exactly;
 * 7: (1, 5, NaN) = 5 + 0 * NaN: NaN.
 * Then 4096 batches of random sources against the interpreter's
 * st_op_lrp_once, which sums in integers where the simulator rounds to
 * odd: the two must agree bit for bit (any NaN for NaN).
 */
static void test_lrp_rounds_once(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_lrp, "lrp");
    const float in[8][3] = {{0.5f, 1.0f, -0x1p-24f},   {0.5f, 1.0f + 0x1p-23f, 0x1p-25f},
                            {0.0f, -0.0f, -0.0f},      {0.5f, INFINITY, INFINITY},
                            {2.0f, 0x1p127f, -0x1p127f}, {0.5f, 0x1p-149f, 0.0f},
                            {0.75f, 0x1p-149f, 0x1p-149f}, {1.0f, 5.0f, NAN}};
    const float want[8] = {0.5f - 0x1p-25f, 0.5f + 0x1p-24f, -0.0f, INFINITY,
                           INFINITY, 0.0f, 0x1p-149f, NAN};
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++)
        for (unsigned s = 0; s < 3; s++)
            gensim_set_f32(t, 2 + s, k, in[k][s]);
    run_ok(t);
    for (unsigned k = 0; k < 8; k++) {
        float g = gensim_f32(t, 12, k);
        if (isnan(want[k]))
            assert_true(isnan(g));
        else
            assert_memory_equal(&g, &want[k], 4);
    }
    gensim_thread_free(t);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (unsigned batch = 0; batch < 4096; batch++) {
        t = new_thread(p, &cfg);
        float src[8][3];
        for (unsigned k = 0; k < 8; k++)
            for (unsigned s = 0; s < 3; s++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                uint32_t u = (uint32_t)(x >> 32);
                /* half the batches near 1 (exponents 2^-8..2^7), where
                 * cancellation and ties are common; half any bits */
                if (batch & 1)
                    u = (u & 0x807fffffu) | ((119u + (u >> 23) % 16u) << 23);
                memcpy(&src[k][s], &u, 4);
                gensim_set_f32(t, 2 + s, k, src[k][s]);
            }
        run_ok(t);
        for (unsigned k = 0; k < 8; k++) {
            float g = gensim_f32(t, 12, k), w = st_op_lrp_once(src[k][0], src[k][1], src[k][2]);
            if (isnan(w))
                assert_true(isnan(g));
            else
                assert_memory_equal(&g, &w, 4);
        }
        gensim_thread_free(t);
    }
    gensim_program_free(p);
}

static void test_mad_lrp_pln(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_mad, "mad");
    gensim_thread *t = new_thread(p, &cfg);
    gensim_set_f32(t, 2, 0, 1.0f);
    gensim_set_f32(t, 2, 1, -2.0f);
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_f32(t, 10 + k / 8, k % 8, (float)k);
        gensim_set_f32(t, 30 + (k / 8) * 2, k % 8, (float)k);          /* X: r30, r32 */
        gensim_set_f32(t, 31 + (k / 8) * 2, k % 8, 0.5f * (float)k);   /* Y: r31, r33 */
    }
    const float fr[8] = {1.25f, -1.25f, 2.5f, 3.5f, -2.5f, 0.0f, -0.5f, 7.75f};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 20, k, 0.25f);           /* lrp weight */
        gensim_set_f32(t, 21, k, 8.0f);
        gensim_set_f32(t, 22, k, (float)k);
        gensim_set_f32(t, 23, k, fr[k]);
    }
    /* setup group r7.4..r7.7 = (a, b, -, c0) = (2, -1, 99, 0.5) */
    gensim_set_f32(t, 7, 4, 2.0f);
    gensim_set_f32(t, 7, 5, -1.0f);
    gensim_set_f32(t, 7, 6, 99.0f);
    gensim_set_f32(t, 7, 7, 0.5f);
    run_ok(t);
    for (unsigned k = 0; k < 16; k++) {
        /* mad: src0 + src1*src2 = 1 + k*(-2) */
        assert_true(gensim_f32(t, 12 + k / 8, k % 8) == 1.0f - 2.0f * (float)k);
        /* pln: 2*X - 1*Y + 0.5 with X = k, Y = k/2 */
        assert_true(gensim_f32(t, 24 + k / 8, k % 8) == 2.0f * (float)k - 0.5f * (float)k + 0.5f);
    }
    for (unsigned k = 0; k < 8; k++) {
        /* lrp: src1*src0 + src2*(1-src0) = 8*0.25 + k*0.75 */
        assert_true(gensim_f32(t, 14, k) == 2.0f + 0.75f * (float)k);
    }
    const float frc[8] = {0.25f, 0.75f, 0.5f, 0.5f, 0.5f, 0.0f, 0.5f, 0.75f};
    const float rd[8] = {1, -2, 2, 3, -3, 0, -1, 7};
    const float ru[8] = {2, -1, 3, 4, -2, 0, -0.0f, 8};
    const float re[8] = {1, -1, 2, 4, -2, 0, -0.0f, 8};
    const float rz[8] = {1, -1, 2, 3, -2, 0, -0.0f, 7};
    for (unsigned k = 0; k < 8; k++) {
        assert_true(gensim_f32(t, 15, k) == frc[k]);
        assert_true(gensim_f32(t, 16, k) == rd[k]);
        assert_true(gensim_f32(t, 17, k) == ru[k]);
        assert_true(gensim_f32(t, 18, k) == re[k]);
        assert_true(gensim_f32(t, 19, k) == rz[k]);
    }
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_indirect(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_indirect, "indirect");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 6, k, 10.0f + (float)k);
        gensim_set_f32(t, 7, k, 20.0f + (float)k);
    }
    run_ok(t);
    for (unsigned k = 0; k < 8; k++) {
        /* a0.0 = 0xC4 = r6 byte 4 = r6.1; +8 bytes = r6.3 */
        assert_true(gensim_f32(t, 12, k) == 11.0f);
        assert_true(gensim_f32(t, 13, k) == 13.0f);
        /* indirect dst a0.1 + 32 = 0xE0 + 0x20 = r8 */
        assert_true(gensim_f32(t, 8, k) == 10.0f + (float)k);
    }
    /* VxH <1,0>: channel 0 from a0.0 (r6.1), channel 1 from a0.1 (0xE0 = r7.0) */
    assert_true(gensim_f32(t, 14, 0) == 11.0f);
    assert_true(gensim_f32(t, 14, 1) == 20.0f);
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_halt(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(K_halt, "halt");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++)
        gensim_set_f32(t, 10, k, (k & 1) ? 1.0f : -1.0f);
    run_ok(t);
    for (unsigned k = 0; k < 8; k++) {
        /* odd channels halt at DONE and skip the mov; all resume at DONE */
        float r20 = (k & 1) ? 0.0f : 1.0f;
        assert_true(gensim_f32(t, 20, k) == r20);
        assert_true(gensim_f32(t, 21, k) == r20 + 2.0f);
    }
    gensim_thread_free(t);
    gensim_program_free(p);
}

/* ---- messages ----------------------------------------------------------- */

static void test_sampler_and_rt(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0x7f);   /* channel 7 not lit */
    gensim_program *p = parse_ok(K_sampler, "sampler");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, 0.125f * (float)k);    /* u */
        gensim_set_f32(t, 11, k, 0.5f);                 /* v */
    }
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_f32(t, 12 + k / 8, k % 8, (float)k); /* SIMD16 u: r12-r13 */
        gensim_set_f32(t, 14 + k / 8, k % 8, -1.0f);    /* SIMD16 v: r14-r15 */
    }
    for (unsigned k = 0; k < 8; k++)
        gensim_set_f32(t, 41, k, 3.0f);                 /* lod for sample_l */
    run_ok(t);
    assert_int_equal(c.nsample, 3);
    /* SIMD8 sample: desc 0x04420003 = mlen 2, rlen 4, type 0, SIMD8, BTI 3 */
    assert_int_equal(c.smp[0].msg_type, 0);
    assert_int_equal(c.smp[0].simd, 8);
    assert_int_equal(c.smp[0].bti, 3);
    assert_int_equal(c.smp[0].nparams, 2);
    assert_int_equal(c.smp[0].mask, 0x7f);
    for (unsigned k = 0; k < 7; k++) {
        assert_true(gensim_f32(t, 20, k) == 0.125f * (float)k);  /* R = u */
        assert_true(gensim_f32(t, 21, k) == 0.5f);               /* G = v */
        assert_true(gensim_f32(t, 22, k) == 0.0f);               /* B = type */
        assert_true(gensim_f32(t, 23, k) == 2.0f);               /* A = nparams */
    }
    /* disabled channel 7 of the response holds the undefined pattern */
    assert_int_equal(gensim_u32(t, 20, 7), 0xffbadbadu);
    /* SIMD16 sample, 0x08840003: mlen 4 = u,v (2 GRFs each); R in r30-r31 */
    assert_int_equal(c.smp[1].simd, 16);
    assert_int_equal(c.smp[1].nparams, 2);
    for (unsigned k = 0; k < 7; k++) {
        assert_true(gensim_f32(t, 30, k) == (float)k);
        assert_true(gensim_f32(t, 32, k) == -1.0f);
        assert_true(gensim_f32(t, 36, k) == 2.0f);
    }
    /* header form: desc 0x062A2103 = mlen 3, rlen 2, header, SIMD8,
     * sample_l (type 2), sampler 1, BTI 3; header dword 2 = 0xA000 masks
     * out G and A (bits 13, 15), so R and B come back in r50, r51 */
    assert_int_equal(c.smp[2].msg_type, 2);
    assert_int_equal(c.smp[2].sampler, 1);
    assert_int_equal(c.smp[2].header_present, 1);
    assert_int_equal(c.smp[2].channels_returned, 0x5);
    assert_int_equal(c.smp[2].nparams, 2);
    for (unsigned k = 0; k < 7; k++) {
        assert_true(gensim_f32(t, 50, k) == 3.0f);   /* R = param0 = lod */
        assert_true(gensim_f32(t, 51, k) == 2.0f);   /* B = message type */
    }
    /* RT write 0x08031401: SIMD8 single source (subtype 4), last RT, BTI 1 */
    assert_int_equal(c.nrt, 1);
    assert_int_equal(c.rt[0].simd, 8);
    assert_int_equal(c.rt[0].bti, 1);
    assert_int_equal(c.rt[0].last_rt, 1);
    assert_int_equal(c.rt[0].eot, 1);
    assert_int_equal(c.rt[0].mask, 0x7f);
    for (unsigned k = 0; k < 7; k++)
        assert_int_equal(c.rt[0].color[0][k], fbits(0.125f * (float)k));
    /* the observer saw every send with its payload */
    assert_int_equal(c.nsend, 4);
    assert_int_equal(c.send[3].sfid, 5);
    assert_int_equal(c.send[3].mlen, 4);
    assert_int_equal(c.send[3].src0_reg, 116);
    uint32_t first;
    memcpy(&first, c.send_payload[3] + 32 + 4, 4);     /* G of pixel 1 */
    assert_int_equal(first, fbits(0.5f));
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_simd32_rt_writes(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff0fffu);   /* pixels 12-15 not lit */
    gensim_program *p = parse_ok(K_ps32, "ps32");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned ch = 0; ch < 32; ch++)
        gensim_set_f32(t, 10 + ch / 8, ch % 8, (float)ch);
    run_ok(t);
    assert_int_equal(c.nrt, 2);
    assert_int_equal(c.rt[0].first_pixel, 0);
    assert_int_equal(c.rt[0].slot_group_high, 0);
    assert_int_equal(c.rt[0].last_rt, 0);
    assert_int_equal(c.rt[0].eot, 0);
    assert_int_equal(c.rt[0].mask, 0x0fff);
    assert_int_equal(c.rt[1].first_pixel, 16);
    assert_int_equal(c.rt[1].slot_group_high, 1);
    assert_int_equal(c.rt[1].eot, 1);
    assert_int_equal(c.rt[1].mask, 0xffff);
    for (unsigned i = 0; i < 16; i++) {
        if (i < 12)
            assert_int_equal(c.rt[0].color[0][i], fbits((float)i));
        /* the second half's registers hold pixels 16-31 (not shifted) */
        assert_int_equal(c.rt[1].color[0][i], fbits((float)(16 + i)));
        assert_int_equal(c.rt[1].color[2][i], fbits(0.5f));
    }
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void expect_run_error(const char *text, const char *name, const char *want,
                             gensim_status want_status)
{
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xff);
    gensim_program *p = parse_ok(text, name);
    gensim_thread *t = new_thread(p, &cfg);
    gensim_status st = gensim_run(t, 1000);
    assert_int_equal(st, want_status);
    if (!strstr(gensim_error(t), want))
        fail_msg("error '%s' does not contain '%s'", gensim_error(t), want);
    gensim_thread_free(t);
    gensim_program_free(p);
}

/* A header-less sample of rlen 6 (SIMD16) or 1 (SIMD8) returns R, G, B or
 * R alone and leaves the registers after the response as they were. */
static void test_sampler_short_response(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_sampler_short, "sampler_short");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, 0.25f);
        gensim_set_f32(t, 11, k, 0.75f);
        gensim_set_f32(t, 21, k, 9.0f);   /* after the SIMD8 response */
        gensim_set_f32(t, 36, k, 7.0f);   /* after the SIMD16 response */
        gensim_set_f32(t, 37, k, 7.0f);
    }
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_f32(t, 12 + k / 8, k % 8, 4.0f);  /* u */
        gensim_set_f32(t, 14 + k / 8, k % 8, -2.0f); /* v */
    }
    run_ok(t);
    assert_int_equal(c.nsample, 2);
    assert_int_equal(c.smp[0].simd, 16);
    assert_int_equal(c.smp[0].channels_returned, 0x7);
    assert_int_equal(c.smp[1].simd, 8);
    assert_int_equal(c.smp[1].channels_returned, 0x1);
    for (unsigned k = 0; k < 8; k++) {
        assert_true(gensim_f32(t, 30, k) == 4.0f);  /* R = u, channels 0-7 */
        assert_true(gensim_f32(t, 31, k) == 4.0f);  /* R, channels 8-15 */
        assert_true(gensim_f32(t, 32, k) == -2.0f); /* G = v */
        assert_true(gensim_f32(t, 34, k) == 0.0f);  /* B = message type 0 */
        assert_true(gensim_f32(t, 35, k) == 0.0f);
        assert_true(gensim_f32(t, 36, k) == 7.0f);  /* A not returned */
        assert_true(gensim_f32(t, 37, k) == 7.0f);
        assert_true(gensim_f32(t, 20, k) == 0.25f); /* R = u */
        assert_true(gensim_f32(t, 21, k) == 9.0f);  /* G not returned */
    }
    gensim_thread_free(t);
    gensim_program_free(p);
    expect_run_error(K_sampler_half, "sampler_half",
                     "sampler_half:1: sampler response length 5, but 4 channels x 2 GRFs are returned",
                     GENSIM_ERROR);
    expect_run_error(K_sampler_hdr_short, "sampler_hdr_short",
                     "sampler_hdr_short:2: sampler response length 2, but 4 channels x 1 GRFs are returned",
                     GENSIM_ERROR);
}

static void test_run_errors(void **state)
{
    (void)state;
    expect_run_error(K_bad_eot, "bad_eot", "bad_eot:2: EOT message payload must be in r112-r127", GENSIM_ERROR);
    expect_run_error(K_spin, "spin", "step limit", GENSIM_STEP_LIMIT);
    expect_run_error(K_row_cross, "row_cross", "row_cross:1: source region row crosses", GENSIM_ERROR);
    expect_run_error(K_divzero, "divzero", "divzero:1: integer division by zero", GENSIM_ERROR);
    expect_run_error(K_gateway, "gateway", "gateway:1: messages to SFID 0x3", GENSIM_ERROR);
    expect_run_error(K_noeot, "noeot", "without an EOT", GENSIM_ERROR);
    expect_run_error(K_rule6, "rule6", "rule6:1: destination stride 1 x 2 bytes must equal the execution type size 4", GENSIM_ERROR);
    expect_run_error(K_rule2, "rule2", "rule2:1: src0: ExecSize == Width needs VertStride", GENSIM_ERROR);
    expect_run_error(K_bad_slot, "bad_slot", "bad_slot:1: slot group select (desc bit 11 = 0) disagrees with channel group M16", GENSIM_ERROR);
    expect_run_error(K_vimm, "vimm", "vimm:1: a :v immediate needs a destination stride of 2 bytes", GENSIM_ERROR);
    expect_run_error(K_mathsplit, "mathsplit", "mathsplit:1: math destination spanning two registers must split its elements evenly (6 + 2)", GENSIM_ERROR);
    expect_run_error(K_mixed16, "mixed16", "mixed16:1: mixed float mode with an :f destination is SIMD8 at most", GENSIM_ERROR);
    expect_run_error(K_hfalign, "hfalign", "hfalign:1: a packed :hf destination of mixed float mode must be 16-byte aligned", GENSIM_ERROR);
    expect_run_error(K_hfpacked16, "hfpacked16", "hfpacked16:1: a packed :hf destination of mixed float mode is SIMD8 at most", GENSIM_ERROR);
    expect_run_error(K_hfmath16, "hfmath16", "hfmath16:1: :hf math is at most SIMD8 on Gen9", GENSIM_ERROR);
    expect_run_error(K_hfint, "hfint", "hfint:1: a conversion between an integer and :hf needs a dword-strided", GENSIM_ERROR);
    expect_run_error(K_hfmad, "hfmad", "hfmad:1: mixed :f/:hf 3-source instructions are not modelled", GENSIM_ERROR);
}

/*
 * Half floats, every value worked out by hand (binary16: 1 sign, 5
 * exponent bits, bias 15, 10 mantissa bits; round to nearest even).
 */
static void test_oword_one(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    uint8_t scratch[256];
    memset(scratch, 0x11, sizeof scratch);
    gensim_config cfg = make_cfg(&c, 0xffff);
    cfg.scratch = scratch;
    cfg.scratch_size = sizeof scratch;
    gensim_program *p = parse_ok(K_oword1, "oword1");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_u32(t, 3, k, 0x30000000u + k);
        gensim_set_u32(t, 4, k, 0x40000000u + k);
    }
    run_ok(t);
    uint32_t w;
    for (unsigned k = 0; k < 4; k++) { /* r3.0-3 at bytes 32-47, r4.4-7 at 64-79 */
        memcpy(&w, scratch + 32 + 4 * k, 4);
        assert_int_equal(w, 0x30000000u + k);
        memcpy(&w, scratch + 64 + 4 * k, 4);
        assert_int_equal(w, 0x40000004u + k);
    }
    assert_int_equal(scratch[48], 0x11); /* one OWord moved, no more */
    assert_int_equal(scratch[80], 0x11);
    for (unsigned k = 0; k < 4; k++) {
        assert_int_equal(gensim_u32(t, 5, 4 + k), 0x30000000u + k); /* the high half */
        assert_int_equal(gensim_u32(t, 6, k), 0x40000004u + k);     /* the low half */
        /* the other half of the GRF: undefined, modelled as all ones */
        assert_int_equal(gensim_u32(t, 5, k), 0xFFFFFFFFu);
        assert_int_equal(gensim_u32(t, 6, 4 + k), 0xFFFFFFFFu);
    }
    gensim_thread_free(t);
    gensim_program_free(p);
}

static void test_half(void **state)
{
    (void)state;
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(K_half, "half");
    gensim_thread *t = new_thread(p, &cfg);
    const float r10[8] = {1.0f, 0.1f, 65520.0f, 0x1p-25f, 3 * 0x1p-25f, -2.0f, 1.0f / 3.0f, 1e-40f};
    const float r11[8] = {0.5f, 1000.3f, -0.0f, 65504.0f, 0x1p-14f, 1023.5f * 0x1p-24f,
                          6.5f * 0x1p-24f, 2.0f};
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 10, k, r10[k]);
        gensim_set_f32(t, 11, k, r11[k]);
    }
    set_u16(t, 2, 0, 0x3c00); /* 1.0 */
    const uint16_t r19[8] = {0x0003, 0x8005, 0x3c00, 0x03ff, 0x8000, 0x0400, 0x7c00, 0x0001};
    for (unsigned k = 0; k < 8; k++)
        set_u16(t, 19, k, r19[k]);
    run_ok(t);
    /* f -> hf: 1; 0.1 = 1.6 * 2^-4 -> mantissa 614.4 -> 614 (0x266); 65520
     * is half way from 65504 (odd mantissa) to 2^16: up, to infinity;
     * 2^-25 is half the smallest denormal step: the tie to 0; 3 * 2^-25 is
     * 1.5 steps: to 2; -2; 1/3 (0x3eaaaaab): mantissa 0x155, the rest under
     * half: 0x3555; a float denormal: 0 */
    const uint16_t want12[16] = {0x3c00, 0x2e66, 0x7c00, 0x0000, 0x0002, 0xc000, 0x3555, 0x0000,
                                 /* 0.5; 1000.3 -> 1000.5 (steps of 0.5); -0; 65504; 2^-14;
                                  * 1023.5 steps -> 1024 = 2^-14; 6.5 steps -> 6 */
                                 0x3800, 0x63d1, 0x8000, 0x7bff, 0x0400, 0x0400, 0x0006, 0x4000};
    for (unsigned k = 0; k < 16; k++)
        assert_int_equal(u16(t, 12, k), want12[k]);
    /* hf -> f is exact, but for the denormal half 2 * 2^-24, which a
     * converting mov reads flushed while cr0 bit 10 is clear (the mov that
     * wrote it did not flush it: denormals flush on input to arithmetic) */
    assert_true(gensim_f32(t, 13, 1) == 0.0999755859375f);
    assert_true(isinf(gensim_f32(t, 13, 2)));
    assert_true(gensim_f32(t, 13, 4) == 0.0f);
    assert_true(gensim_f32(t, 13, 6) == 0.333251953125f);
    /* + 1: 2; 1.0999755859375 -> 1126.375 steps of 2^-10 -> 1126 (0x3c66);
     * inf; 1 + 0 = 1 */
    assert_int_equal(u16(t, 14, 0), 0x4000);
    assert_int_equal(u16(t, 14, 1), 0x3c66);
    assert_int_equal(u16(t, 14, 2), 0x7c00);
    assert_int_equal(u16(t, 14, 3), 0x3c00);
    /* squares: 0.0099951... -> 1310.07 steps of 2^-17 -> 1310: exponent
     * 8, mantissa 286 (0x211e); 4 (0x4400); 0.25; 1000.5^2 overflows */
    assert_int_equal(u16(t, 15, 1), 0x211e);
    assert_int_equal(u16(t, 15, 5), 0x4400);
    assert_int_equal(u16(t, 15, 8), 0x3400);
    assert_int_equal(u16(t, 15, 9), 0x7c00);
    /* mad: 1 + 4 = 5 (0x4500), 1 + 0.25 = 1.25 (0x3d00) */
    assert_int_equal(u16(t, 16, 5), 0x4500);
    assert_int_equal(u16(t, 16, 8), 0x3d00);
    /* inv: 1; 1 / 0.333251953125 = 3.0007325 -> 1536.375 steps of 2^-9 ->
     * 3 (0x4200); -0.5; 2; 0.5 (the (8|M8) piece) */
    assert_int_equal(u16(t, 17, 0), 0x3c00);
    assert_int_equal(u16(t, 17, 6), 0x4200);
    assert_int_equal(u16(t, 17, 5), 0xb800);
    assert_int_equal(u16(t, 17, 8), 0x4000);
    assert_int_equal(u16(t, 17, 15), 0x3800);
    /* cr0 bit 10 clear: denormal halves flush to their sign's zero, in and
     * out; set, they are kept */
    const uint16_t flushed[8] = {0x0000, 0x8000, 0x3c00, 0x0000, 0x8000, 0x0400, 0x7c00, 0x0000};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(u16(t, 18, k), flushed[k]);
        assert_int_equal(u16(t, 20, k), r19[k]);
    }
    /* a scalar into the low word of a dword, stride 2 */
    assert_int_equal(u16(t, 21, 2), 0x2e66);
    gensim_thread_free(t);
    gensim_program_free(p);
}

/* ---- the docs examples --------------------------------------------------- */

static void test_example_ps_simd16(void **state)
{
    (void)state;
    char *text = example("ps_simd16.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(text, "ps_simd16.asm");
    gensim_thread *t = new_thread(p, &cfg);
    /* barycentrics: X = k, Y = 2k; X0-7 r2, Y0-7 r3, X8-15 r4, Y8-15 r5 */
    for (unsigned k = 0; k < 16; k++) {
        unsigned base = k < 8 ? 2 : 4;
        gensim_set_f32(t, base, k % 8, (float)k);
        gensim_set_f32(t, base + 1, k % 8, 2.0f * (float)k);
    }
    /* c0 = (2, 3, 0.5, 1) */
    gensim_set_f32(t, 6, 0, 2.0f);
    gensim_set_f32(t, 6, 1, 3.0f);
    gensim_set_f32(t, 6, 2, 0.5f);
    gensim_set_f32(t, 6, 3, 1.0f);
    /* attribute 0 component c: (a, b, -, c0) = (1, c, -, c) */
    for (unsigned comp = 0; comp < 4; comp++) {
        unsigned reg = 7 + comp / 2, sub = 4 * (comp & 1);
        gensim_set_f32(t, reg, sub + 0, 1.0f);
        gensim_set_f32(t, reg, sub + 1, (float)comp);
        gensim_set_f32(t, reg, sub + 3, (float)comp);
    }
    run_ok(t);
    assert_int_equal(c.nrt, 1);
    const gensim_rt_write *w = &c.rt[0];
    assert_int_equal(w->simd, 16);
    assert_int_equal(w->subtype, 0);
    assert_int_equal(w->last_rt, 1);
    assert_int_equal(w->eot, 1);
    assert_int_equal(w->mask, 0xffff);
    const float scale[4] = {2.0f, 3.0f, 0.5f, 1.0f};
    for (unsigned comp = 0; comp < 4; comp++)
        for (unsigned k = 0; k < 16; k++) {
            /* (1*X + comp*Y + comp) * c0[comp] with X = k, Y = 2k */
            float want = ((float)k + (float)comp * 2.0f * (float)k + (float)comp) * scale[comp];
            assert_int_equal(w->color[comp][k], fbits(want));
        }
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

static void test_example_ps_simd8_discard(void **state)
{
    (void)state;
    char *text = example("ps_simd8.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xef);    /* pixel 4 not lit */
    gensim_program *p = parse_ok(text, "ps_simd8.asm");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 8; k++) {
        gensim_set_f32(t, 2, k, (float)k);     /* X */
        gensim_set_f32(t, 3, k, 0.0f);         /* Y */
    }
    /* c0 = (0.25, 0.5, -, 3.5): r = sat(0.25 + r*0.5), alpha test a >= 3.5 */
    gensim_set_f32(t, 4, 0, 0.25f);
    gensim_set_f32(t, 4, 1, 0.5f);
    gensim_set_f32(t, 4, 3, 3.5f);
    /* every component = X (a = 1, b = 0, c0 = 0) */
    for (unsigned comp = 0; comp < 4; comp++)
        gensim_set_f32(t, 5 + comp / 2, 4 * (comp & 1), 1.0f);
    run_ok(t);
    assert_int_equal(c.nrt, 1);
    /* alpha = k >= 3.5 for k = 4..7; pixel 4 is not lit */
    assert_int_equal(c.rt[0].mask, 0xe0);
    assert_int_equal(c.rt[0].subtype, 4);
    for (unsigned k = 5; k < 8; k++) {
        float r = 0.25f + (float)k * 0.5f;
        assert_int_equal(c.rt[0].color[0][k], fbits(r > 1.0f ? 1.0f : r));
        assert_int_equal(c.rt[0].color[3][k], fbits((float)k));
    }
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

static void test_example_vs_simd8(void **state)
{
    (void)state;
    char *text = example("vs_simd8.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0x3f);    /* 6 vertices */
    gensim_program *p = parse_ok(text, "vs_simd8.asm");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned n = 0; n < 8; n++) {
        gensim_set_u32(t, 1, n, 0x100 + n);               /* URB handles */
        for (unsigned comp = 0; comp < 4; comp++) {
            gensim_set_f32(t, 3 + comp, n, (float)(n + comp));       /* attr0 */
            gensim_set_f32(t, 7 + comp, n, 10.0f * (float)comp + (float)n); /* attr1 */
        }
    }
    /* c0.x = 2, c1 = (1, 2, 3, 4) */
    gensim_set_f32(t, 2, 0, 2.0f);
    for (unsigned comp = 0; comp < 4; comp++)
        gensim_set_f32(t, 2, 4 + comp, (float)(comp + 1));
    run_ok(t);
    assert_int_equal(c.nurb, 2);
    const gensim_urb_write *a = &c.urb[0], *b = &c.urb[1];
    assert_int_equal(a->global_offset, 0);
    assert_int_equal(a->ndata, 8);
    assert_int_equal(a->mask, 0x3f);
    assert_int_equal(a->eot, 0);
    assert_int_equal(a->handle[5], 0x105);
    /* only the 6 dispatched vertices were computed (the movs and mads run
     * under the execution mask); the URB write carries mask 0x3f */
    for (unsigned n = 0; n < 6; n++) {
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(a->data[k][n], 0);                /* VUE header = 0 */
        for (unsigned comp = 0; comp < 4; comp++)              /* pos = c1 + attr0*c0.x */
            assert_int_equal(a->data[4 + comp][n], fbits((float)(comp + 1) + (float)(n + comp) * 2.0f));
    }
    assert_int_equal(b->global_offset, 2);
    assert_int_equal(b->ndata, 4);
    assert_int_equal(b->eot, 1);
    for (unsigned n = 0; n < 8; n++)
        for (unsigned comp = 0; comp < 4; comp++)
            assert_int_equal(b->data[comp][n], n < 6 ? fbits(10.0f * (float)comp + (float)n) : 0);
    assert_int_equal(b->handle[7], 0x107);   /* the (W) handle copy covers all 8 */
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

static void test_example_control_flow(void **state)
{
    (void)state;
    char *text = example("control_flow.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    for (int jump = 0; jump < 2; jump++) {
        capture c;
        memset(&c, 0, sizeof c);
        gensim_config cfg = make_cfg(&c, 0xffff);
        gensim_program *p = parse_ok(text, "control_flow.asm");
        gensim_thread *t = new_thread(p, &cfg);
        /* r10: channel c < 0.5 for even c; r14 start values */
        const float start[16] = {0, 3, 7.5f, 20, -2, 8.25f, 100, 0,
                                 1, 2, 3, 4, 5, 6, 7, 9};
        for (unsigned ch = 0; ch < 16; ch++) {
            gensim_set_f32(t, 10 + ch / 8, ch % 8, (ch & 1) ? 1.0f : 0.0f);
            float s0 = start[ch];
            if (!jump && s0 == 100.0f)
                s0 = 50.0f;
            gensim_set_f32(t, 14 + ch / 8, ch % 8, s0);
        }
        run_ok(t);
        for (unsigned ch = 0; ch < 16; ch++) {
            /* if/else: r12 = 1 where r10 < 0.5 (even), else 2 */
            assert_true(gensim_f32(t, 12 + ch / 8, ch % 8) == ((ch & 1) ? 2.0f : 1.0f));
            /* loop by hand: x += 1; break if x >= 10; cont if x < 5; x += 1 */
            float x = start[ch];
            if (!jump && x == 100.0f)
                x = 50.0f;
            for (;;) {
                x += 1.0f;
                if (x >= 10.0f)
                    break;
                if (x < 5.0f)
                    continue;
                x += 1.0f;
            }
            /* jmpi skips the halving if any channel > 100 (101 when jump) */
            if (!jump)
                x *= 0.5f;
            /* halt: even channels (f0.0 set) skip the final add */
            if (ch & 1)
                x += 1.0f;
            assert_true(gensim_f32(t, 14 + ch / 8, ch % 8) == x);
        }
        /* cr0 |= 0x4C0; ce read after every channel resumed at DONE */
        assert_int_equal(t->cr[0] | t->cr[1] << 8, 0x4c0);
        assert_int_equal(gensim_u32(t, 20, 1), 0xffff);
        assert_int_equal(t->flag[0] | t->flag[1] << 8, 0);
        gensim_thread_free(t);
        gensim_program_free(p);
    }
    free(text);
}

static void test_example_cs_simd16(void **state)
{
    (void)state;
    char *text = example("cs_simd16.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(text, "cs_simd16.asm");
    gensim_thread *t = new_thread(p, &cfg);
    gensim_set_u32(t, 0, 1, 1);            /* group id 1 */
    for (unsigned k = 0; k < 16; k++)
        set_u16(t, 1, k, (uint16_t)k);     /* local ids */
    gensim_set_u32(t, 2, 0, 16);           /* group size */
    gensim_set_u32(t, 2, 1, 0);            /* global offset */
    gensim_set_u32(t, 2, 2, 0);            /* buffer base */
    for (unsigned i = 0; i < 64; i++) {
        float v = (float)i + 0.5f;
        memcpy(c.surf1 + 4 * i, &v, 4);
    }
    run_ok(t);
    /* global id = 16*1 + k: elements 16..31 doubled, others unchanged */
    for (unsigned i = 0; i < 64; i++) {
        float v;
        memcpy(&v, c.surf1 + 4 * i, 4);
        float want = (float)i + 0.5f;
        if (i >= 16 && i < 32)
            want *= 2.0f;
        assert_true(v == want);
    }
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

static void test_example_memory(void **state)
{
    (void)state;
    char *text = example("memory.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    uint8_t scratch[1024];
    for (unsigned i = 0; i < sizeof scratch; i++)
        scratch[i] = (uint8_t)(i * 3);
    gensim_config cfg = make_cfg(&c, 0xffff);
    cfg.scratch = scratch;
    cfg.scratch_size = sizeof scratch;
    gensim_program *p = parse_ok(text, "memory.asm");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned i = 0; i < sizeof c.cbuf; i++)
        c.cbuf[i] = (uint8_t)(255 - i);
    for (unsigned i = 0; i < 64; i++)
        gensim_set_u32(t, 21 + i / 8, i % 8, 0xAB000000u + i);   /* spill data r21-r22 */
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_u32(t, 50, k % 8, 4 * (k % 8));               /* SIMD8 addresses */
        gensim_set_u32(t, 54 + k / 8, k % 8, 4 * k + 64);        /* SIMD16 addresses */
        gensim_set_u32(t, 56 + k / 8, k % 8, 0x5000 + k);        /* overwritten by the read */
        c.surf1[4 * k] = (uint8_t)k;
        c.surf1[64 + 4 * k] = (uint8_t)(0x40 + k);
    }
    gensim_status st = gensim_run(t, 1000);
    /* memory.asm has no EOT: it runs to the end and stops there */
    assert_int_equal(st, GENSIM_ERROR);
    assert_non_null(strstr(gensim_error(t), "without an EOT"));
    /* fill: r30-r31 = scratch[128..191] at first, then the scratch-block
     * read returns what the OWord write stored there: r21-r22 */
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(gensim_u32(t, 30 + i / 8, i % 8), 0xAB000000u + i);
    uint32_t w;
    memcpy(&w, scratch + 128, 4);
    assert_int_equal(w, 0xAB000000u);
    memcpy(&w, scratch + 124, 4);       /* the word before stays */
    assert_int_equal(w, (uint32_t)(uint8_t)(124 * 3) | (uint32_t)(uint8_t)(125 * 3) << 8 |
                         (uint32_t)(uint8_t)(126 * 3) << 16 | (uint32_t)(uint8_t)(127 * 3) << 24);
    /* constants: offset 4 OWords = byte 64 of BTI 2 */
    assert_int_equal(t->grf[40 * 32], 255 - 64);
    assert_int_equal(t->grf[42 * 32 + 63], 255 - 127);
    /* untyped SIMD8 read: dword at 4*k = k */
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(gensim_u32(t, 52, k), k);
    /* SIMD16 read then write back to the same addresses */
    for (unsigned k = 0; k < 16; k++)
        assert_int_equal(gensim_u32(t, 56 + k / 8, k % 8), 0x40 + k);
    assert_int_equal(c.nsample, 6);
    assert_int_equal(c.smp[3].msg_type, 2);   /* sample_l */
    assert_int_equal(c.smp[3].nparams, 3);    /* lod, u, v */
    assert_int_equal(c.smp[4].msg_type, 4);   /* sample_d: 6 params */
    assert_int_equal(c.smp[4].nparams, 6);
    assert_int_equal(c.smp[5].msg_type, 7);   /* ld: u, v, lod */
    assert_int_equal(c.smp[5].nparams, 3);
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

static void test_example_regions_alu(void **state)
{
    (void)state;
    char *text = example("regions_alu.asm");
    if (!text)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    capture c;
    memset(&c, 0, sizeof c);
    gensim_config cfg = make_cfg(&c, 0xffff);
    gensim_program *p = parse_ok(text, "regions_alu.asm");
    gensim_thread *t = new_thread(p, &cfg);
    for (unsigned k = 0; k < 16; k++) {
        gensim_set_f32(t, 10 + k / 8, k % 8, (float)k);      /* flat[k] = k */
        set_u16(t, 1, k, (uint16_t)(k + 1));
    }
    gensim_set_f32(t, 2, 0, 1.0f);
    gensim_set_f32(t, 2, 1, -2.0f);
    for (unsigned k = 0; k < 8; k++)
        gensim_set_f32(t, 6, k, 40.0f + (float)k);
    gensim_status st = gensim_run(t, 1000);
    assert_int_equal(st, GENSIM_ERROR);      /* no EOT in this file */
    assert_non_null(strstr(gensim_error(t), "without an EOT"));
    /* r12/r13: even/odd dwords of r10-r11 */
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(gensim_u32(t, 12, k), fbits((float)(2 * k)));
        assert_int_equal(gensim_u32(t, 13, k), fbits((float)(2 * k + 1)));
    }
    /* r14-r15 = r1 words as dwords; r16 low words = r14 */
    for (unsigned k = 0; k < 16; k++)
        assert_int_equal(gensim_u32(t, 14 + k / 8, k % 8), k + 1);
    for (unsigned k = 0; k < 8; k++)
        assert_int_equal(gensim_u32(t, 16, k), k + 1);
    /* r28: :vf 0x20403000 = 0.0, 1.0, 2.0, 0.5 over the :v words */
    assert_true(gensim_f32(t, 28, 0) == 0.0f);
    assert_true(gensim_f32(t, 28, 1) == 1.0f);
    assert_true(gensim_f32(t, 28, 2) == 2.0f);
    assert_true(gensim_f32(t, 28, 3) == 0.5f);
    /* (sat) -r10 + |r11|: -k + (8+k) = 8 -> 1.0 */
    for (unsigned k = 0; k < 8; k++)
        assert_true(gensim_f32(t, 30, k) == 1.0f);
    /* (8|M8) reads r10 (registers are not shifted) */
    for (unsigned k = 0; k < 8; k++)
        assert_true(gensim_f32(t, 31, k) == (float)k);
    /* (16|M16) with only 16 channels dispatched writes nothing */
    for (unsigned k = 0; k < 16; k++)
        assert_int_equal(gensim_u32(t, 32 + k / 8, k % 8), 0);
    for (unsigned ch = 0; ch < 16; ch++) {
        /* r12-13 as floats: ch<8 -> 2ch, ch>=8 -> 2(ch-8)+1; ch < that for 1..7 */
        float r12 = ch < 8 ? 2.0f * (float)ch : 2.0f * (float)(ch - 8) + 1.0f;
        assert_true(gensim_f32(t, 40 + ch / 8, ch % 8) == ((ch >= 1 && ch <= 7) ? 1.0f : 0.0f));
        assert_true(gensim_f32(t, 42 + ch / 8, ch % 8) == (float)ch);       /* max(k, 0) */
        /* f0.1 was never written (sel.ge does not write flags): src1 */
        assert_true(gensim_f32(t, 44 + ch / 8, ch % 8) == r12);
        assert_true(gensim_f32(t, 52 + ch / 8, ch % 8) == 2.0f * (float)ch - 1.0f);
        assert_true(gensim_f32(t, 54 + ch / 8, ch % 8) == (float)ch);       /* rndz */
    }
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(gensim_u32(t, 46, k), k);                          /* (k+1) - 1 */
        assert_true(gensim_f32(t, 48, k) == 2.0f);
        assert_true(gensim_f32(t, 50, k) == 8.0f - 15.0f * (float)k);       /* lrp */
    }
    assert_int_equal(t->flag[4], 0xfe);                                     /* f1.0 (ne) */
    assert_int_equal(gensim_u32(t, 49, 0), 0);
    /* fdiv r10 / r12: 1/2, 2/4 ...; 8/1, 9/3, 10/5 */
    assert_true(gensim_f32(t, 56, 1) == 0.5f);
    assert_true(gensim_f32(t, 57, 0) == 8.0f);
    assert_true(gensim_f32(t, 57, 1) == 3.0f);
    assert_true(gensim_f32(t, 57, 2) == 2.0f);
    /* irem r14 % r15 = k+1 (since k+1 < k+9); iqot (8|M8) r15 / r16 */
    const int32_t q[8] = {9, 5, 3, 3, 2, 2, 2, 2};
    for (unsigned k = 0; k < 8; k++) {
        assert_int_equal(gensim_u32(t, 58, k), k + 1);
        assert_int_equal((int32_t)gensim_u32(t, 59, k), q[k]);
    }
    /* a0.0 = (0 << 4) + 0xC0 = r6: Vx1 broadcast r6.0 and r6.1; VxH takes
     * a0.0 for channel 0 and a0.1..7 (= 0, r0.0) for the rest; the final
     * indirect mov writes r62 into r6 */
    for (unsigned k = 0; k < 8; k++) {
        assert_true(gensim_f32(t, 62, k) == 40.0f);
        assert_true(gensim_f32(t, 63, k) == 41.0f);
        assert_true(gensim_f32(t, 6, k) == 40.0f);
    }
    assert_true(gensim_f32(t, 64, 0) == 40.0f);
    assert_int_equal(gensim_u32(t, 64, 1), gensim_u32(t, 0, 0));
    gensim_thread_free(t);
    gensim_program_free(p);
    free(text);
}

/* ---- every kernel here is real IGA syntax ---------------------------------- */

static void test_kernels_assemble(void **state)
{
    (void)state;
    if (system("command -v iga64 >/dev/null 2>&1") != 0)
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    char dir[] = "/tmp/gensim_igaXXXXXX";
    if (!mkdtemp(dir))
        fail_msg("../shared/docs/gen9-examples not found (set ST_GEN9_EXAMPLES)");
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        char path[256], cmd[700];
        snprintf(path, sizeof path, "%s/%s.asm", dir, kernels[i].name);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(kernels[i].text, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "iga64 -p=9 -a %s -o %s/%s.krn >%s/%s.log 2>&1 && ! grep -qi error %s/%s.log",
                 path, dir, kernels[i].name, dir, kernels[i].name, dir, kernels[i].name);
        if (system(cmd) != 0)
            fail_msg("iga64 rejects kernel '%s' (see %s)", kernels[i].name, dir);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fail_msg("cannot remove %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_examples_parse),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_simd32_halves),
        cmocka_unit_test(test_channel_enable_and_dispatch_masks),
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_loop_break),
        cmocka_unit_test(test_predication),
        cmocka_unit_test(test_cmod_sel),
        cmocka_unit_test(test_math),
        cmocka_unit_test(test_int_ops),
        cmocka_unit_test(test_denormals),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_oword_one),
        cmocka_unit_test(test_mad_lrp_pln),
        cmocka_unit_test(test_mad_is_fused),
        cmocka_unit_test(test_lrp_rounds_once),
        cmocka_unit_test(test_indirect),
        cmocka_unit_test(test_halt),
        cmocka_unit_test(test_sampler_and_rt),
        cmocka_unit_test(test_sampler_short_response),
        cmocka_unit_test(test_simd32_rt_writes),
        cmocka_unit_test(test_run_errors),
        cmocka_unit_test(test_example_ps_simd16),
        cmocka_unit_test(test_example_ps_simd8_discard),
        cmocka_unit_test(test_example_vs_simd8),
        cmocka_unit_test(test_example_control_flow),
        cmocka_unit_test(test_example_cs_simd16),
        cmocka_unit_test(test_example_memory),
        cmocka_unit_test(test_example_regions_alu),
        cmocka_unit_test(test_kernels_assemble),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
