/*-------------------------------------------------------------------------
 *
 * token.h
 *		  HMAC-bound tokens (core/token.c), and the continuation and
 *		  confirmation tokens built on them.
 *
 * IDENTIFICATION
 *		  src/token.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_TOKEN_H
#define NAT_TOKEN_H

#include "plan/plan.h"

/* in plan/token.c */
extern char *nat_token_sign(const char *purpose, const char *binding,
							const char *payload);
extern char *nat_token_verify(const char *purpose, const char *binding,
							  const char *token);
extern char *nat_token_binding(ToolCall *call, const char *const *ignore);
extern Oid	nat_extension_schema(void);

#endif							/* NAT_TOKEN_H */
