/*-------------------------------------------------------------------------
 *
 * context.c
 *	  The context one message is handled with (McpContext, base.h).
 *
 * Every layer reads it: the transports fill it, the protocol handlers set
 * what the message asked for, the database layer reads its role, cancel
 * scope and progress writer.  It is made here, below them all.
 *
 * IDENTIFICATION
 *	  src/mcp/base/context.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "base/base.h"

/*
 * A context for one message of session (NULL: none).
 */
void
mcp_context_init(McpContext *ctx, McpSession *session)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->session = session;
	ctx->scope = session != NULL ? session->id : "";
	ctx->client_fd = -1;
	ctx->input_fd = -1;
	ctx->outcome = "ok";
}
