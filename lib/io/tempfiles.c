/* tempfiles.c — temporary files to remove when a run fails or is killed.
 * A fixed table, so that the signal handler needs no allocation. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/io.h"

/* sc-split --ranges holds up to 256 part files and a backup of each
 * while it replaces them, beside what other jobs hold. */
#define MAX_TEMPS 600
#define MAX_PATH 4096

static char temps[MAX_TEMPS][MAX_PATH];
static volatile sig_atomic_t used[MAX_TEMPS];

int sc_temp_register(const char *path)
{
    if (strlen(path) >= MAX_PATH) return -1;
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!used[i]) {
            strcpy(temps[i], path);
            used[i] = 1;
            return 0;
        }
    return -1;
}

void sc_temp_unregister(const char *path)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (used[i] && strcmp(temps[i], path) == 0) {
            used[i] = 0;
            return;
        }
}

void sc_temp_remove_all(void)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (used[i]) {
            unlink(temps[i]);
            used[i] = 0;
        }
}

void sc_remove_temporaries(void) { sc_temp_remove_all(); }
