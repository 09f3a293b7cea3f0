/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the command line (src/run/options.c): the input is split on NUL
 * and newline bytes into arguments after "mbsuite", and parsed as main() parses argv (the
 * command names too, as main() looks them up first). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* More arguments than any command line needs; the rest of the input is one argument. */
#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy, so that each argument is its own NUL-terminated string in writable memory,
     * as argv's are (getopt may permute argv, never the strings). */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[FUZZ_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "mbsuite";
    char *arg = text;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || ((text[i] == '\0' || text[i] == '\n') && argc < FUZZ_MAX_ARGS)) {
            text[i] = '\0';
            argv[argc++] = arg;
            arg = text + i + 1;
        }
    }
    argv[argc] = NULL;

    (void)mb_options_command(argv[1]);
    /* The same command line twice gives the same answer (no state left from a parse), and
     * a refusal names what it refuses: an argument of this command line, never argv[0]. */
    mb_options_t first, second;
    char err1[512] = "", err2[512] = "";
    int rc1 = mb_options_parse(argc, argv, &first, err1, sizeof err1);
    int rc2 = mb_options_parse(argc, argv, &second, err2, sizeof err2);
    if (rc1 != rc2 || first.action != second.action || strcmp(err1, err2) != 0) {
        fprintf(stderr, "fuzz_options: two parses differ: %d '%s', then %d '%s'\n", rc1, err1, rc2,
                err2);
        abort();
    }
    if (rc1 != 0 && (!err1[0] || strncmp(err1, "unknown option 'mbsuite'", 24) == 0)) {
        fprintf(stderr, "fuzz_options: refused with '%s'\n", err1);
        abort();
    }
    free(text);
    return 0;
}
