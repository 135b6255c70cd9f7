/*-------------------------------------------------------------------------
 *
 * catalog_watch.c
 *	  Telling a stdio session that the tool list changed.
 *
 * Administrators add, replace and drop custom tools (ai_tool_define) and
 * change the settings the catalog follows while a client is connected.
 * Over stdio the program can tell the client (capability
 * tools.listChanged, notification notifications/tools/list_changed).  It
 * keeps no LISTEN on the server (the program must work behind a pooler in
 * transaction mode), so it looks instead: after a tools/call, at most once
 * every CHECK_INTERVAL_MS, it reads the catalog again and compares a hash of
 * its text with the one the client was last given by tools/list.
 *
 * Over HTTP nothing is pushed: 2026-07-28's tools/list carries ttlMs, and
 * the session revisions would need a GET stream this program does not
 * offer.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/catalog_watch.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <string.h>

#include "protocol/protocol.h"
#include "protocol/revision.h"

/* how often at most the catalog is read again */
#define CHECK_INTERVAL_MS 1000


/*
 * tools/list gave the client this list.
 */
void
mcp_catalog_seen(McpSession *session, const char *list_text)
{
	if (session == NULL || !session->watch_catalog)
		return;
	session->catalog_hash = mcp_text_hash(list_text);
	session->catalog_listed = true;
	session->catalog_checked_ms = mcp_now_ms();
}

/*
 * Has the list changed since the client was last given it?  Reads it again
 * if the last look is old enough.
 */
bool
mcp_catalog_changed(McpContext *ctx)
{
	McpSession *session = ctx->session;
	McpDbResult db;
	bool		changed = false;

	if (session == NULL || !session->watch_catalog || !session->catalog_listed ||
		mcp_now_ms() - session->catalog_checked_ms < CHECK_INTERVAL_MS)
		return false;
	mcp_db_query(ctx, mcp_tools_list_sql(ctx->revision), 0, NULL, &db);
	session->catalog_checked_ms = mcp_now_ms();
	if (db.status == MCP_DB_OK && db.values[0] != NULL)
	{
		uint64_t	hash = mcp_text_hash(db.values[0]);

		changed = hash != session->catalog_hash;
		session->catalog_hash = hash;
	}
	mcp_db_result_free(&db);
	if (changed)
		mcp_log(MCP_LOG_INFO, "the tool list changed; telling the client");
	return changed;
}

/*
 * notifications/tools/list_changed
 */
json_object *
mcp_list_changed_notification(void)
{
	json_object *message = json_object_new_object();

	json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
	json_object_object_add(message, "method",
						   json_object_new_string("notifications/tools/list_changed"));
	return message;
}

/*
 * The statement tools/list runs: outputSchema came with 2025-06-18, as
 * structuredContent did.
 */
const char *
mcp_tools_list_sql(const char *revision)
{
	return strcmp(revision, MCP_REVISION_2025_06_18) >= 0
		? "SELECT l::text, jsonb_typeof(l) FROM ai_tool_list('mcp') l"
		: "SELECT l::text, jsonb_typeof(l) FROM (SELECT coalesce(jsonb_agg(t - 'outputSchema' ORDER BY n), '[]') l"
		" FROM jsonb_array_elements(ai_tool_list('mcp')) WITH ORDINALITY e(t, n)) s";
}
