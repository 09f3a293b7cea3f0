/* SPDX-License-Identifier: MIT */
/* --runs K's records: each figure's mean and standard error over the runs that measured it
 * (seed 003's "mean values and error estimates ... averaging ten independent runs"), node
 * 0's as the headline (as a point's median is), every node's in "per_node". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "node_runs.h"
#include "record.h"
#include "stats.h"

json_t *mb_node_runs_stat(const double *values, size_t n)
{
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(list, json_real(values[i]));
    double mean, se;
    mb_stats_mean_stderr(values, n, &mean, &se);
    return json_pack("{s:I, s:o, s:o, s:o}", "k", (json_int_t)n, "mean",
                     isfinite(mean) ? json_real(mean) : json_null(), "stderr",
                     isfinite(se) ? json_real(se) : json_null(), "values", list);
}

/* One figure of one node over its runs: the value at `pick` of each reply's entry for
 * name (point index, or derived key), the first reason a run gave none. */
typedef struct combine_pick {
    const char *name;
    size_t point;      /* when key is NULL */
    const char *key;   /* a derived figure */
} combine_pick_t;

static json_t *combine_node(const json_t *node, const combine_pick_t *pick)
{
    const json_t *replies = json_object_get(node, "replies");
    size_t nrep = json_array_size(replies), n = 0, missing = 0, i;
    double *v = calloc(nrep ? nrep : 1, sizeof *v);
    const char *why = NULL;
    const json_t *reply;
    json_array_foreach(replies, i, reply)
    {
        const json_t *b = mb_record_find(reply, pick->name);
        const json_t *x = !b         ? NULL
                          : pick->key ? json_object_get(json_object_get(b, "derived"), pick->key)
                                      : json_array_get(json_object_get(b, "medians"), pick->point);
        if (json_is_number(x) && v) {
            v[n++] = json_number_value(x);
            continue;
        }
        missing++;
        if (!why && b && !pick->key)
            why = json_string_value(json_array_get(json_object_get(b, "reasons"), pick->point));
    }
    json_t *stat = mb_node_runs_stat(v, n);
    free(v);
    json_object_set_new(stat, "node", json_copy(json_object_get(node, "node")));
    missing += json_array_size(json_object_get(node, "errors"));
    if (missing) {
        json_object_set_new(stat, "failed_runs", json_integer((json_int_t)missing));
        const json_t *err = json_array_get(json_object_get(node, "errors"), 0);
        json_object_set_new(stat, "failed_why",
                            json_string(why                        ? why
                                        : json_is_string(err)      ? json_string_value(err)
                                                                   : "no value in that run"));
    }
    return stat;
}

/* Node 0's figure as the headline with every node's in "per_node". */
static json_t *combine_figure(const json_t *per_node, const combine_pick_t *pick)
{
    json_t *nodes = json_array();
    size_t i;
    const json_t *node;
    json_array_foreach(per_node, i, node)
        json_array_append_new(nodes, combine_node(node, pick));
    json_t *head = json_deep_copy(json_array_get(nodes, 0));
    json_object_del(head, "node");
    json_object_set_new(head, "per_node", nodes);
    return head;
}

void mb_node_runs_attach(json_t *result, const json_t *per_node)
{
    const char *name = json_string_value(json_object_get(result, "name"));
    if (!per_node || !name || json_array_size(per_node) == 0)
        return;
    size_t i;
    json_t *pt;
    json_array_foreach(json_object_get(result, "points"), i, pt)
    {
        combine_pick_t pick = {.name = name, .point = i};
        json_object_set_new(pt, "runs", combine_figure(per_node, &pick));
    }
    /* Every derived number any run of any node gave. */
    json_t *keys = json_object();
    const json_t *node, *reply;
    size_t j, r;
    json_array_foreach(per_node, j, node)
        json_array_foreach(json_object_get(node, "replies"), r, reply)
        {
            const char *key;
            json_t *x;
            json_object_foreach(json_object_get(mb_record_find(reply, name), "derived"), key, x)
                if (json_is_number(x))
                    json_object_set_new(keys, key, json_true());
        }
    if (json_object_size(keys) > 0) {
        json_t *derived = json_object();
        const char *key;
        json_t *x;
        json_object_foreach(keys, key, x)
        {
            combine_pick_t pick = {.name = name, .key = key};
            json_object_set_new(derived, key, combine_figure(per_node, &pick));
        }
        json_object_set_new(result, "derived_runs", derived);
    }
    json_decref(keys);
}
