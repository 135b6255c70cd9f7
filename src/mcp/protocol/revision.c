/*-------------------------------------------------------------------------
 *
 * revision.c
 *	  Which MCP protocol revision a message is read under.
 *
 * Two eras share every transport:
 *
 *	- the session-based revisions (2025-11-25, 2025-06-18, 2025-03-26,
 *	  2024-11-05): initialize negotiates one for the session (stdio: the
 *	  process; HTTP: the Mcp-Session-Id), and every later request reads it
 *	  from there;
 *	- 2026-07-28, stateless: there is no handshake; each request carries
 *	  its revision and the client's capabilities in params._meta
 *	  ("io.modelcontextprotocol/protocolVersion", ".../clientCapabilities"),
 *	  and is served on its own.  Its results carry resultType "complete"
 *	  and the server's identity in _meta (basic/index.mdx).
 *
 * A request with the modern _meta is served statelessly even inside a
 * legacy session, as the specification's versioning page says a dual-era
 * server does.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/revision.c
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "protocol/protocol.h"
#include "protocol/revision.h"

/* session-based revisions, newest first; the first is initialize's default */
static const char *const SESSION_REVISIONS[] = {
	MCP_REVISION_2025_11_25,
	MCP_REVISION_2025_06_18,
	MCP_REVISION_2025_03_26,
	MCP_REVISION_2024_11_05,
	NULL
};

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define META_SERVER_INFO "io.modelcontextprotocol/serverInfo"

/*
 * The session revision initialize answers with for a client asking for
 * requested: the same if we speak it, else the newest.
 */
const char *
mcp_session_revision_for(const char *requested)
{
	int			i;

	for (i = 0; SESSION_REVISIONS[i] != NULL; i++)
		if (strcmp(requested, SESSION_REVISIONS[i]) == 0)
			return SESSION_REVISIONS[i];
	return SESSION_REVISIONS[0];
}

/*
 * Is revision one we speak (either era)?  Returns our constant for it.
 */
const char *
mcp_known_revision(const char *revision)
{
	int			i;

	if (revision == NULL)
		return NULL;
	if (strcmp(revision, MCP_REVISION_STATELESS) == 0)
		return MCP_REVISION_STATELESS;
	for (i = 0; SESSION_REVISIONS[i] != NULL; i++)
		if (strcmp(revision, SESSION_REVISIONS[i]) == 0)
			return SESSION_REVISIONS[i];
	return NULL;
}

bool
mcp_revision_is_stateless(const char *revision)
{
	return revision != NULL && strcmp(revision, MCP_REVISION_STATELESS) == 0;
}

/*
 * Every revision we speak, newest first, as a JSON array.
 */
json_object *
mcp_supported_revisions(void)
{
	json_object *list = json_object_new_array();
	int			i;

	json_object_array_add(list, json_object_new_string(MCP_REVISION_STATELESS));
	for (i = 0; SESSION_REVISIONS[i] != NULL; i++)
		json_object_array_add(list, json_object_new_string(SESSION_REVISIONS[i]));
	return list;
}

/*
 * Decide the revision of one request and set ctx->revision and
 * ctx->stateless.  Returns NULL, or the error response to send (with
 * ctx->http_status set for HTTP).
 */
json_object *
mcp_resolve_revision(McpContext *ctx, const char *method, json_object *id,
					 json_object *params)
{
	json_object *meta = NULL;
	json_object *version = NULL;
	json_object *capabilities = NULL;

	if (params != NULL && json_object_is_type(params, json_type_object) &&
		json_object_object_get_ex(params, "_meta", &meta) &&
		json_object_is_type(meta, json_type_object))
		json_object_object_get_ex(meta, META_VERSION, &version);

	ctx->stateless = false;
	if (version == NULL || strcmp(method, "initialize") == 0)
	{
		/* the session's revision; before initialize, the newest one */
		ctx->revision = ctx->session != NULL && ctx->session->revision != NULL
			? ctx->session->revision : SESSION_REVISIONS[0];
		return NULL;
	}

	if (!json_object_is_type(version, json_type_string) ||
		!mcp_revision_is_stateless(json_object_get_string(version)))
	{
		json_object *data = json_object_new_object();

		json_object_object_add(data, "supported", mcp_supported_revisions());
		json_object_object_add(data, "requested", json_object_get(version));
		ctx->http_status = 400;
		return jsonrpc_error(id, MCP_UNSUPPORTED_VERSION,
							 "Unsupported protocol version", data);
	}
	if (!json_object_object_get_ex(meta, META_CAPABILITIES, &capabilities) ||
		!json_object_is_type(capabilities, json_type_object))
	{
		ctx->http_status = 400;
		return jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
							 "Invalid params: _meta must carry \"" META_CAPABILITIES
							 "\" (an object) with \"" META_VERSION "\"", NULL);
	}
	ctx->revision = MCP_REVISION_STATELESS;
	ctx->stateless = true;
	return NULL;
}

/*
 * The server's identity, as initialize and _meta show it.
 */
json_object *
mcp_server_info(const char *revision)
{
	json_object *info = json_object_new_object();

	json_object_object_add(info, "name", json_object_new_string(MCP_PROGNAME));
	if (strcmp(revision, MCP_REVISION_2025_06_18) >= 0)
		json_object_object_add(info, "title", json_object_new_string("neon_ai_tools"));
	json_object_object_add(info, "version", json_object_new_string(MCP_VERSION));
	return info;
}

/*
 * A stateless request's result: add resultType and the server's identity.
 */
void
mcp_decorate_result(const McpContext *ctx, json_object *response)
{
	json_object *result;
	json_object *meta;

	if (!ctx->stateless ||
		!json_object_object_get_ex(response, "result", &result) ||
		!json_object_is_type(result, json_type_object))
		return;
	json_object_object_add(result, "resultType", json_object_new_string("complete"));
	if (!json_object_object_get_ex(result, "_meta", &meta))
	{
		meta = json_object_new_object();
		json_object_object_add(result, "_meta", meta);
	}
	json_object_object_add(meta, META_SERVER_INFO, mcp_server_info(ctx->revision));
}
