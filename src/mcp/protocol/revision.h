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

extern const char *mcp_session_revision_for(const char *requested);
extern const char *mcp_known_revision(const char *revision);
extern bool mcp_revision_is_stateless(const char *revision);
extern json_object *mcp_supported_revisions(void);
extern json_object *mcp_resolve_revision(McpContext *ctx, const char *method,
										 json_object *id, json_object *params);
extern json_object *mcp_server_info(const char *revision);
extern void mcp_decorate_result(const McpContext *ctx, json_object *response);

#endif							/* MCP_REVISION_H */
