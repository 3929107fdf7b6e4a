/* cli_record.c — --record N and --key OFF[:T], which every tool takes,
 * and --field OFF[:T], which the tools that write records take: the
 * layout is kept as given until every option is known (--type may come
 * after --key), then checked and put in the job, whose type becomes the
 * key's so that conditions, sc-gen's bounds, --bits, --carry-in and the
 * figures are read and written in it; the field goes to the job's output
 * options, where the writer takes it out of each record. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_record_option(cli *c, int opt, const char *arg)
{
    if (opt == OPT_RECORD) {
        uint64_t n = cli_number(c, "--record", arg, 0, UINT32_MAX);
        if (n < 4 || n > SC_RECORD_MAX || n % 4)
            cli_usage_error(c, "--record must be a multiple of 4 from 4 to "
                            "%d bytes (got '%s')", SC_RECORD_MAX, arg);
        c->record_size = (uint32_t)n;
        return 1;
    }
    if (opt == OPT_KEY || opt == OPT_FIELD) {
        /* sc-scan and sc-stat write keys, not records: --field is not
         * theirs, as getopt says of an option a tool lacks. */
        if (opt == OPT_FIELD && (c->job.kind == SC_JOB_SCAN ||
                                 c->job.kind == SC_JOB_STAT))
            cli_usage_error(c, "unrecognized option '--field': %s writes "
                            "the records' keys, not the records", c->prog);
        *(opt == OPT_KEY ? &c->key : &c->field) = arg;
        return 1;
    }
    return 0;
}

/* A place in a record of `size` bytes, "OFF[:T]" as --key or --field
 * (what: "key", "field") gives it, into *off and *type: T defaults to
 * *type. */
static void parse_place(const cli *c, const char *what, const char *arg,
                        uint32_t size, uint32_t *at, sc_type *type)
{
    char off[32], opt[16];
    snprintf(opt, sizeof opt, "--%s", what);
    size_t len = strcspn(arg, ":");
    if (len == 0 || len >= sizeof off)
        cli_usage_error(c, "invalid %s '%s' (OFF or OFF:TYPE)", opt, arg);
    memcpy(off, arg, len);
    off[len] = '\0';
    *at = (uint32_t)cli_number(c, opt, off, 0, UINT32_MAX);
    if (arg[len] && sc_type_parse(arg + len + 1, type) != SC_OK)
        cli_usage_error(c, "invalid %s type '%s' (u32, i32, f32, u64, "
                        "i64, f64)", opt, arg + len + 1);
    unsigned bytes = sc_type_size(*type);
    if (*at % bytes)
        cli_usage_error(c, "%s %s: the offset is not a multiple of the "
                        "%s %s's %u bytes", opt, arg, sc_type_name(*type),
                        what, bytes);
    if (*at + (uint64_t)bytes > size)
        cli_usage_error(c, "%s %s: the %s is not inside a record of %u "
                        "bytes", opt, arg, what, (unsigned)size);
}

void cli_build_record(cli *c)
{
    if (!c->record_size) {
        if (c->key || c->field)
            cli_usage_error(c, "%s goes with --record",
                            c->key ? "--key" : "--field");
        return;
    }
    sc_record rec = { c->record_size, 0, c->job.type };
    if (c->key) parse_place(c, "key", c->key, rec.size, &rec.key_off,
                            &rec.key_type);
    else if (sc_type_size(rec.key_type) > rec.size)
        cli_usage_error(c, "--record %u: a %s key does not fit (see --key)",
                        (unsigned)rec.size, sc_type_name(rec.key_type));
    if (c->job.in_fmt == SC_FMT_TEXT)
        cli_usage_error(c, "--in text: records are read raw, gzip or zstd");
    c->job.record = rec;
    c->job.type = rec.key_type;
    c->job.gen.type = rec.key_type;
    if (!c->field) return;
    sc_writer_opts *o = &c->job.out;
    o->field = 1;
    o->field_type = rec.key_type;
    parse_place(c, "field", c->field, rec.size, &o->field_off,
                &o->field_type);
}

