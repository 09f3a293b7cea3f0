/* SPDX-License-Identifier: MIT */
/* What an axis of a benchmark means (docs/results.md): written by the descriptors
 * (bench.h) into results.json, read back by the fits, the plots, predict and the report,
 * which go by roles, never by benchmark or axis names. */
#ifndef MB_ROLE_H
#define MB_ROLE_H

typedef enum mb_role {
    MB_ROLE_NONE = -1,    /* not a role: an unknown name, or an axis without one */
    MB_ROLE_LABEL = 0,    /* categorical: each label is a series of its own */
    MB_ROLE_MESSAGE_SIZE, /* d: bytes per message (or per copy) */
    MB_ROLE_RANKS,        /* p: processes taking part */
    MB_ROLE_THREADS,      /* threads taking part */
    MB_ROLE_WORKING_SET,  /* bytes a memory benchmark cycles through */
    MB_ROLE_COUNT,        /* any other number */
} mb_role_t;

/* The role's name in results.json ("message_size", ...), or NULL for MB_ROLE_NONE. */
const char *mb_role_name(mb_role_t r);

/* The role called s in results.json, or MB_ROLE_NONE. */
mb_role_t mb_role_parse(const char *s);

#endif
