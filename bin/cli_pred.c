/* cli_pred.c — the predicate options of sc-compact and sc-split: the
 * conditions, kept as given until the element type is known, then read
 * in it and folded into the job's predicate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_pred_option(cli *c, int opt, const char *arg)
{
    if (opt == 'x') { c->job.pred.invert = 1; return 1; }
    if (opt < OPT_EQ || opt > OPT_MASK) return 0;
    /* Room doubles at each power of two. */
    if ((c->n_conds & (c->n_conds - 1)) == 0) {
        size_t cap = c->n_conds ? 2 * (size_t)c->n_conds : 1;
        struct cli_cond *more = realloc(c->conds, cap * sizeof *more);
        if (!more) {
            fprintf(stderr, "%s: out of memory\n", c->prog);
            exit(EXIT_FAIL);
        }
        c->conds = more;
    }
    c->conds[c->n_conds].opt = opt;
    c->conds[c->n_conds++].arg = arg;
    c->pred_given = 1;
    return 1;
}

/* Either zero of a float type (0 and -0). */
static int is_float_zero(sc_type t, uint64_t bits)
{
    uint64_t magnitude = sc_type_size(t) == 8 ? UINT64_MAX >> 1 : UINT32_MAX >> 1;
    return sc_type_is_float(t) && (bits & magnitude) == 0;
}

/* --mask: any word of the type's width, written as an unsigned number
 * or, in a signed type, as a negative value, which stands for its two's
 * complement: -1 is every bit, as in C's x & -1. */
static uint64_t cli_mask(const cli *c, const char *arg)
{
    sc_type t = c->job.type;
    int is_signed = sc_type_is_signed(t), neg = arg[0] == '-';
    uint64_t top = sc_type_size(t) == 8 ? UINT64_MAX : UINT32_MAX, bits;
    /* A negative number is read as i64 where the type is unsigned, only
     * to tell a malformed one from one out of range. */
    sc_status st = sc_value_parse(neg ? (is_signed ? t : SC_I64) : SC_U64,
                                  arg, strlen(arg), &bits);
    if (st == SC_OK && ((neg && !is_signed) || (!neg && bits > top)))
        st = SC_ERR_RANGE;
    if (st == SC_ERR_RANGE)
        cli_usage_error(c, "value '%s' for --mask is out of range for %s "
                        "(%s%llu to %llu)", arg, sc_type_name(t),
                        is_signed ? "-" : "",
                        is_signed ? (unsigned long long)(top / 2 + 1) : 0ULL,
                        (unsigned long long)top);
    if (st != SC_OK)
        cli_usage_error(c, "invalid value '%s' for --mask (an integer%s)", arg,
                        is_signed ? ", negative for its two's complement"
                                  : "");
    return bits;
}

/* One condition, in the element type. */
static void add_condition(cli *c, int opt, const char *arg)
{
    sc_pred *p = &c->job.pred;
    static const struct { int opt; sc_cmp cmp; const char *name; } cmps[] = {
        { OPT_EQ, SC_EQ, "--eq" }, { OPT_NE, SC_NE, "--ne" },
        { OPT_LT, SC_LT, "--lt" }, { OPT_LE, SC_LE, "--le" },
        { OPT_GT, SC_GT, "--gt" }, { OPT_GE, SC_GE, "--ge" } };
    for (size_t k = 0; k < sizeof cmps / sizeof cmps[0]; k++)
        if (cmps[k].opt == opt) {
            if (sc_pred_add_cmp(p, cmps[k].cmp,
                                cli_value(c, cmps[k].name, arg)))
                cli_usage_error(c, "too many %s conditions (at most %d)",
                                cmps[k].name, SC_PRED_MAX_TERMS);
            return;
        }
    if (opt == OPT_RANGE) {
        const char *colon = strchr(arg, ':');
        /* A leading '-' is a sign: the colon comes after LO. */
        if (!colon) cli_usage_error(c, "--range needs LO:HI, not '%s'", arg);
        char lo_text[64];
        size_t n = (size_t)(colon - arg);
        if (n >= sizeof lo_text)
            cli_usage_error(c, "invalid value '%s' for --range", arg);
        memcpy(lo_text, arg, n);
        lo_text[n] = '\0';
        uint64_t lo = cli_value(c, "--range", lo_text);
        uint64_t hi = cli_value(c, "--range", colon + 1);
        /* As C compares: 0:-0 is a range (of both zeros). */
        int zeros = is_float_zero(c->job.type, lo) &&
                    is_float_zero(c->job.type, hi);
        if (!zeros && sc_value_order(c->job.type, lo, hi) > 0)
            cli_usage_error(c, "--range %s: LO is above HI", arg);
        sc_pred_add_range(p, lo, hi);
        return;
    }
    if (sc_type_is_float(c->job.type))
        cli_usage_error(c, "--mask tests bits: it takes an integer --type");
    if (sc_pred_add_mask(p, cli_mask(c, arg)))
        cli_usage_error(c, "too many --mask conditions (at most %d)",
                        SC_PRED_MAX_TERMS);
}

/* The conditions given replace the default x != 0, in the type. */
void cli_build_pred(cli *c)
{
    sc_pred *p = &c->job.pred;
    uint32_t invert = p->invert;
    if (c->pred_given) sc_pred_all_type(p, c->job.type);
    else sc_pred_default_type(p, c->job.type);
    p->invert = invert;
    for (unsigned k = 0; k < c->n_conds; k++)
        add_condition(c, c->conds[k].opt, c->conds[k].arg);
    free(c->conds);
    c->conds = NULL;
    c->n_conds = 0;
}
