/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the configuration reader (src/run/config_*.c): the input is the
 * bytes of an INI file, applied on top of the defaults as `--config FILE` applies one
 * (mb_config_parse_buffer: the file reader's refusals, then inih and the key table). A
 * configuration that parses is also written back as JSON, as results.json records it. */
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mb_config_t defaults;
    static int have_defaults;
    if (!have_defaults) {
        mb_config_defaults(&defaults);
        have_defaults = 1;
    }
    mb_config_t cfg = defaults;
    char err[512];
    if (mb_config_parse_buffer(&cfg, (const char *)data, size, "fuzz.ini", err, sizeof err) == 0) {
        json_decref(mb_config_to_json(&cfg));
    }
    return 0;
}
