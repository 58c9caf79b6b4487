/*
 * context.h - what the files of the prompts' context share (ks_context.c:
 * the population and the kernels; ks_findings.c: what earlier
 * generations found).  Private to them.
 */
#ifndef KS_CONTEXT_PRIVATE_H
#define KS_CONTEXT_PRIVATE_H

#include "ks_ask.h"

int ks_ctx_add_within(struct ks_buf *b, const struct ks_buf *piece, size_t limit);
long ks_ctx_find_id(const struct ks_cand *c, size_t n, const char *id);
const char *ks_ctx_parent_of(const struct ks_cand *c, const char *key);
const char *ks_ctx_plan_title(const struct ks_cand *c);

#endif
