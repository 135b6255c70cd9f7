/*-------------------------------------------------------------------------
 *
 * calls.h
 *	  The in-flight registry's side that needs libpq (db.c's use).
 *
 * IDENTIFICATION
 *	  src/mcp/db/calls.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_CALLS_H
#define MCP_CALLS_H

#include "libpq-fe.h"
#include "db/db.h"

struct McpInflight
{
	char	   *key;			/* scope, 0x1f, id text */
	PGcancel   *cancel;			/* while a statement runs */
	bool		cancelled;
	struct McpInflight *next;
};

extern bool mcp_inflight_attach(McpInflight *inflight, PGcancel *cancel);
extern bool mcp_inflight_detach(McpInflight *inflight);
extern void mcp_inflight_cancel_one(McpInflight *inflight);

#endif							/* MCP_CALLS_H */
