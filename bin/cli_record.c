/* cli_record.c — --record N and --key OFF[:T], which every tool takes:
 * the layout is kept as given until every option is known (--type may
 * come after --key), then checked and put in the job, whose type becomes
 * the key's so that conditions, sc-gen's bounds, --bits, --carry-in and
 * the figures are read and written in it. */
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
    if (opt == OPT_KEY) {
        c->key = arg;
        return 1;
    }
    return 0;
}

/* "OFF[:T]" into rec's key: T defaults to the --type. */
static void parse_key(const cli *c, const char *arg, sc_record *rec)
{
    char off[32];
    size_t len = strcspn(arg, ":");
    if (len == 0 || len >= sizeof off)
        cli_usage_error(c, "invalid --key '%s' (OFF or OFF:TYPE)", arg);
    memcpy(off, arg, len);
    off[len] = '\0';
    rec->key_off = (uint32_t)cli_number(c, "--key", off, 0, UINT32_MAX);
    rec->key_type = c->job.type;
    if (arg[len] && sc_type_parse(arg + len + 1, &rec->key_type) != SC_OK)
        cli_usage_error(c, "invalid --key type '%s' (u32, i32, f32, u64, "
                        "i64, f64)", arg + len + 1);
    unsigned size = sc_type_size(rec->key_type);
    if (rec->key_off % size)
        cli_usage_error(c, "--key %s: the offset is not a multiple of the "
                        "%s key's %u bytes", arg,
                        sc_type_name(rec->key_type), size);
    if (rec->key_off + (uint64_t)size > rec->size)
        cli_usage_error(c, "--key %s: the key is not inside a record of %u "
                        "bytes", arg, (unsigned)rec->size);
}

void cli_build_record(cli *c)
{
    if (!c->record_size) {
        if (c->key) cli_usage_error(c, "--key goes with --record");
        return;
    }
    sc_record rec = { c->record_size, 0, c->job.type };
    if (c->key) parse_key(c, c->key, &rec);
    else if (sc_type_size(rec.key_type) > rec.size)
        cli_usage_error(c, "--record %u: a %s key does not fit (see --key)",
                        (unsigned)rec.size, sc_type_name(rec.key_type));
    if (c->job.in_fmt == SC_FMT_TEXT)
        cli_usage_error(c, "--in text: records are read raw, gzip or zstd");
    c->job.record = rec;
    c->job.type = rec.key_type;
    c->job.gen.type = rec.key_type;
}
