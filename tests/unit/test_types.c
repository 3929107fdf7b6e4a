/* test_types.c — libsc's element types through sc.h: values read and
 * written as text, the type's order, typed predicates, sorts and scans
 * on the CPU and, where there is one, the GPU. */
#include "sc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "tap.h"

static uint32_t f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void skip(const char *why, const char *what)
{
    n_tests++;
    printf("ok %d - %s # SKIP %s\n", n_tests, what, why);
}

static void test_values(void)
{
    static const struct { sc_type t; const char *text; uint64_t bits; } v[] = {
        { SC_I32, "-1", 0xffffffffu }, { SC_I32, "-2147483648", 0x80000000u },
        { SC_I32, "0x7fffffff", 0x7fffffffu }, { SC_F32, "-0", 0x80000000u },
        { SC_F32, "0.1", 0x3dcccccdu }, { SC_F32, "-inf", 0xff800000u },
        { SC_F32, "100", 0x42c80000u }, { SC_U32, "4294967295", 0xffffffffu },
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        uint64_t bits = 0;
        sc_status st = sc_value_parse(v[k].t, v[k].text, strlen(v[k].text), &bits);
        ok(st == SC_OK && bits == v[k].bits, "%s '%s' reads as 0x%llx",
           sc_type_name(v[k].t), v[k].text, (unsigned long long)v[k].bits);
        char buf[SC_VALUE_CHARS];
        sc_value_format(v[k].t, v[k].bits, buf);
        uint64_t back = 0;
        sc_value_parse(v[k].t, buf, strlen(buf), &back);
        ok(back == v[k].bits, "%s 0x%llx writes as '%s', which reads back",
           sc_type_name(v[k].t), (unsigned long long)v[k].bits, buf);
    }
    uint64_t bits;
    ok(sc_value_parse(SC_I32, "2147483648", 10, &bits) == SC_ERR_RANGE,
       "i32 2147483648 is out of range");
    ok(sc_value_parse(SC_F32, "1e39", 4, &bits) == SC_ERR_RANGE,
       "f32 1e39 is out of range");
    ok(sc_value_parse(SC_U32, "-1", 2, &bits) == SC_ERR_TEXT,
       "u32 -1 is malformed");
    ok(sc_value_order(SC_F32, 0x80000000u, 0) < 0 &&
       sc_value_order(SC_F32, 0xffc00000u, 0xff800000u) < 0 &&
       sc_value_order(SC_I32, 0xffffffffu, 1) < 0,
       "the order: -0 before +0, -NaN before -inf, -1 before 1");
}

static void test_pred(void)
{
    sc_pred p;
    sc_pred_default_type(&p, SC_F32);
    ok(!sc_pred_test(&p, f32(0.0f)) && !sc_pred_test(&p, f32(-0.0f)) &&
       sc_pred_test(&p, 0x7fc00000u) && sc_pred_test(&p, f32(-1.0f)),
       "f32's default drops both zeros and keeps NaN");
    sc_pred_all_type(&p, SC_F32);
    sc_pred_add_range(&p, f32(-1.5f), f32(2.0f));
    ok(sc_pred_test(&p, f32(-1.5f)) && sc_pred_test(&p, f32(-0.0f)) &&
       sc_pred_test(&p, f32(2.0f)) && !sc_pred_test(&p, f32(2.5f)) &&
       !sc_pred_test(&p, 0xffc00000u), "f32 range -1.5:2");
    ok(sc_pred_add_mask(&p, 1) == SC_ERR_USAGE, "a mask on floats is refused");
    sc_pred_all_type(&p, SC_I32);
    sc_pred_add_cmp(&p, SC_LT, 0);
    ok(sc_pred_test(&p, 0x80000000u) && !sc_pred_test(&p, 0) &&
       !sc_pred_test(&p, 0x7fffffffu), "i32 x < 0");
}

static void test_ops(sc_ctx *c, const char *dev)
{
    uint32_t v[] = { f32(1.5f), 0x7fc00000u, f32(-0.0f), f32(0.0f),
                     f32(-2.0f), 0xffc00000u, f32(-INFINITY) };
    uint32_t want[] = { 0xffc00000u, f32(-INFINITY), f32(-2.0f),
                        f32(-0.0f), f32(0.0f), f32(1.5f), 0x7fc00000u };
    ok(sc_sort_type(c, v, 7, SC_F32, 0, 32, 0) == SC_OK &&
       memcmp(v, want, sizeof v) == 0, "%s: f32 sort by totalOrder", dev);
    int32_t s[] = { 3, -1, 5, -7, 2 };
    uint32_t out[5];
    uint64_t carry = sc_scan_identity_of(SC_I32, SC_OP_MAX);
    ok(sc_scan_type(c, (uint32_t *)s, 5, SC_I32, SC_OP_MAX, 1, 0, out, &carry) == SC_OK &&
       (int32_t)out[1] == 3 && (int32_t)out[2] == 5 && (int32_t)carry == 5,
       "%s: i32 max scan", dev);
    int64_t wide[5];
    carry = 0;
    ok(sc_scan_type(c, (uint32_t *)s, 5, SC_I32, SC_OP_SUM, 1, 1, wide, &carry) == SC_OK &&
       wide[3] == 0 && wide[4] == 2 && (int64_t)carry == 2,
       "%s: i32 wide sum sign-extends", dev);
    float f[3] = { 0.5f, 0.25f, -2.0f }, fo[3];
    double d = 1.0;
    memcpy(&carry, &d, 8);
    ok(sc_scan_type(c, (uint32_t *)f, 3, SC_F32, SC_OP_SUM, 0, 0, fo, &carry) == SC_OK &&
       fo[0] == 1.0f && fo[2] == 1.75f && (memcpy(&d, &carry, 8), d == -0.25),
       "%s: f32 sum from a carry of 1", dev);
    ok(sc_scan_type(c, (uint32_t *)f, 3, SC_F32, SC_OP_XOR, 0, 0, fo, &carry) == SC_ERR_USAGE,
       "%s: xor of floats is refused", dev);
}

int main(void)
{
    test_values();
    test_pred();
    sc_ctx *cpu = NULL, *gpu = NULL;
    if (sc_ctx_new(&cpu, "cpu", 2) != SC_OK) {
        printf("Bail out! cannot make a context\n");
        return 1;
    }
    test_ops(cpu, "cpu");
    if (sc_ctx_new(&gpu, "cuda", 0) == SC_OK) test_ops(gpu, "cuda");
    else skip("no CUDA GPU", "cuda");
    sc_ctx_free(gpu);
    sc_ctx_free(cpu);
    printf("1..%d\n", n_tests);
    return n_failed != 0;
}
