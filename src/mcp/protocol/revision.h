/*-------------------------------------------------------------------------
 *
 * revision.h
 *	  MCP protocol revisions (revision.c).
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/revision.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef MCP_REVISION_H
#define MCP_REVISION_H

#include "protocol/protocol.h"

/*
 * The revisions this program speaks, each written once.  They are dates:
 * strcmp() orders them, and "from 2025-06-18 on" is strcmp(r, ...) >= 0.
 */
#define MCP_REVISION_2024_11_05 "2024-11-05"
#define MCP_REVISION_2025_03_26 "2025-03-26"
/* structuredContent, outputSchema and serverInfo.title from here; no batches */
#define MCP_REVISION_2025_06_18 "2025-06-18"
#define MCP_REVISION_2025_11_25 "2025-11-25"
/* stateless: no session, version and capabilities in each request's _meta */
#define MCP_REVISION_2026_07_28 "2026-07-28"
#define MCP_REVISION_STATELESS MCP_REVISION_2026_07_28

extern const char *mcp_session_revision_for(const char *requested);
extern const char *mcp_known_revision(const char *revision);
extern bool mcp_revision_is_stateless(const char *revision);
extern json_object *mcp_supported_revisions(void);
extern json_object *mcp_resolve_revision(McpContext *ctx, const char *method,
										 json_object *id, json_object *params);
extern json_object *mcp_server_info(const char *revision);
extern void mcp_decorate_result(const McpContext *ctx, json_object *response);

#endif							/* MCP_REVISION_H */
