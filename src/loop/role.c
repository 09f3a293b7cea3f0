/* SPDX-License-Identifier: MIT */
#include "role.h"

#include <stddef.h>
#include <string.h>

static const char *const role_names[] = {
    [MB_ROLE_LABEL] = "label",
    [MB_ROLE_MESSAGE_SIZE] = "message_size",
    [MB_ROLE_RANKS] = "ranks",
    [MB_ROLE_THREADS] = "threads",
    [MB_ROLE_WORKING_SET] = "working_set",
    [MB_ROLE_COUNT] = "count",
};

#define ROLE_COUNT (sizeof role_names / sizeof role_names[0])

const char *mb_role_name(mb_role_t r)
{
    return r >= 0 && (size_t)r < ROLE_COUNT ? role_names[r] : NULL;
}

mb_role_t mb_role_parse(const char *s)
{
    for (size_t r = 0; s && r < ROLE_COUNT; r++)
        if (strcmp(s, role_names[r]) == 0)
            return (mb_role_t)r;
    return MB_ROLE_NONE;
}
