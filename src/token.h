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

#include "neon_ai_tools.h"

/* in core/token.c */
extern char *nat_token_sign(const char *purpose, const char *binding,
							const char *payload);
extern char *nat_token_verify(const char *purpose, const char *binding,
							  const char *token);
extern char *nat_token_binding(ToolCall *call, const char *const *ignore);
extern Oid	nat_extension_schema(void);

/* in core/confirmation.c: neon_ai_tools.confirmation and its limits */
typedef enum NatConfirmation
{
	NAT_CONFIRMATION_FLAG,
	NAT_CONFIRMATION_TOKEN
} NatConfirmation;

extern int	nat_confirmation;
extern const struct config_enum_entry nat_confirmation_options[];
extern int	nat_confirmation_timeout_ms;
extern int	nat_confirmation_min_rows;
extern void nat_confirmation_check(ToolCall *call, int64 affected);

#endif							/* NAT_TOKEN_H */
