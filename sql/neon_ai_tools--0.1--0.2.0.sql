/* neon_ai_tools--0.1--0.2.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION neon_ai_tools UPDATE TO '0.2.0'" to load this file. \quit

-- From 0.1 as released (commit 2e8d298: ai_tool_list(text), ai_tool_call,
-- ai_error_info) to 0.2.0: what a fresh install of neon_ai_tools--0.2.0.sql
-- has, object for object (test/t/006_upgrade.pl compares them).
-- ai_tool_call(text, jsonb) and ai_error_info(text, text) are unchanged and
-- keep their privileges.

-- ai_tool_list(format) gained compact: a new signature, so the function is
-- replaced.  Privileges granted or revoked by hand on ai_tool_list(text) do
-- not carry over (README, "Upgrading"), and the update stops if a view or
-- function of the database depends on ai_tool_list(text).
DROP FUNCTION ai_tool_list(text);

CREATE FUNCTION ai_tool_list(format text DEFAULT 'native', compact boolean DEFAULT false)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_list'
LANGUAGE C STABLE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_list(text, boolean) IS
'catalog of the tools enabled for the caller, with JSON Schemas; format native, openai, openai_strict, anthropic, mcp or gemini; compact: short descriptions, no examples';

-- The plan ai_tool_call() would run, validated and planned as the caller
-- but not run: relation, columns, SQL text, parameter types and caps, never
-- the bound values.  VOLATILE like ai_tool_call: planning reads the catalog
-- as of now, under the call's guards.
CREATE FUNCTION ai_tool_plan(name text, args jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_plan'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_plan(text, jsonb) IS
'what ai_tool_call would run for these arguments, without running it: the resolved relation and columns, the SQL text, the parameter types and the caps';

-- The session's plan cache (README, "Plan cache"): what it keeps and how
-- often a kept plan was reused.  Per backend, so PARALLEL RESTRICTED: a
-- worker's cache is not the session's.
CREATE FUNCTION ai_tool_plan_cache_stats(OUT plans int4, OUT bytes int8,
    OUT hits int8, OUT misses int8, OUT evictions int8)
RETURNS record
AS 'MODULE_PATHNAME', 'ai_tool_plan_cache_stats'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ai_tool_plan_cache_stats() IS
'the session''s plan cache: plans kept, bytes they hold, and since the session began the lookups that reused a kept plan (hits) or prepared one (misses), and the plans evicted';

-- Custom tools (README, "Custom tools"): an administrator's named,
-- parameterized statements, checked by PostgreSQL's parser when they are
-- defined and served like the built-in tools.  The definitions are a
-- configuration table: pg_dump dumps its rows, and a restore puts them back
-- after CREATE EXTENSION.  No role but the owner has a privilege on it:
-- calls and catalogs read it without one, and ai_tool_define() and
-- ai_tool_drop() write it as its owner, so EXECUTE on them (revoked from
-- PUBLIC) is what an administrator grants.  The name's collation is "C":
-- the extension looks names up bytewise in its index.
CREATE TABLE ai_tool_definitions (
    name text COLLATE "C" PRIMARY KEY
        CHECK (name ~ '^[a-zA-Z0-9_-]{1,64}$'),
    description text NOT NULL,
    sql text NOT NULL,
    parameters jsonb NOT NULL,
    options jsonb NOT NULL,
    read_only boolean NOT NULL,
    operation text NOT NULL
);

COMMENT ON TABLE ai_tool_definitions IS
'custom tools defined with ai_tool_define() and ai_tool_from_function(), as they were checked and normalized; change them through those functions';

SELECT pg_catalog.pg_extension_config_dump('ai_tool_definitions', '');

REVOKE ALL ON ai_tool_definitions FROM PUBLIC;

CREATE FUNCTION ai_tool_define(name text, description text, sql text,
    parameters jsonb, options jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_define'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb) IS
'defines or replaces a custom tool: one SQL statement with $1..$n bound to the listed parameters, checked by the parser now; answers with its catalog entry';

CREATE FUNCTION ai_tool_from_function(function regprocedure,
    options jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_from_function'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_from_function(regprocedure, jsonb) IS
'defines or replaces a custom tool that calls the function, with its argument names and types as parameters and its comment as description';

CREATE FUNCTION ai_tool_drop(name text, if_exists boolean DEFAULT false)
RETURNS void
AS 'MODULE_PATHNAME', 'ai_tool_drop'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_drop(text, boolean) IS
'drops a custom tool';

-- Defining tools is an administrator's act: the extension's owner may
-- grant it (WITH GRANT OPTION: a database owner who installed the trusted
-- extension does not own these functions).
REVOKE ALL ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb),
    ai_tool_from_function(regprocedure, jsonb),
    ai_tool_drop(text, boolean) FROM PUBLIC;
-- The install script grants to @extowner@, the role that ran CREATE
-- EXTENSION and owns the extension.  In an update @extowner@ would be the
-- role running ALTER EXTENSION, perhaps a superuser other than the owner:
-- grant to the extension's owner, as a fresh install would have.
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'GRANT EXECUTE ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb), '
        'ai_tool_from_function(regprocedure, jsonb), '
        'ai_tool_drop(text, boolean) TO %I WITH GRANT OPTION',
        (SELECT pg_catalog.pg_get_userbyid(e.extowner) FROM pg_catalog.pg_extension e
         WHERE e.extname = 'neon_ai_tools'));
END
$$;

-- A model response's tool calls, run in order as ai_tool_call() runs each,
-- answered with the result messages in the response's dialect (OpenAI Chat
-- Completions, OpenAI Responses, Anthropic Messages, Gemini).
CREATE FUNCTION ai_tool_run(response jsonb, options jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_run'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_run(jsonb, jsonb) IS
'runs the tool calls of one model response (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages or Gemini) and answers with the messages that carry their results, in the same dialect';

-- The key of the tokens an agent carries between calls ("next", and
-- "confirmation_token"): 32 random bytes of this database
-- (gen_random_uuid() draws on pg_strong_random()), HMAC key of every
-- token.  No role but the table's owner is granted anything on it: the
-- extension reads it in C, past the privileges, so an agent's role can
-- neither read it nor forge a token.  Not dumped: a restored database makes
-- its own key, and older tokens stop working (README, "Tokens").
CREATE TABLE ai_tool_secret (
    secret bytea NOT NULL CHECK (octet_length(secret) = 32)
);
REVOKE ALL ON ai_tool_secret FROM PUBLIC;
INSERT INTO ai_tool_secret
SELECT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex');
COMMENT ON TABLE ai_tool_secret IS
'HMAC key of the tokens that neon_ai_tools hands to agents (next, confirmation_token); readable by its owner only';

-- Confirmation tokens already used (neon_ai_tools.confirmation = token):
-- each token's random nonce, kept until the token expires, so that a token
-- works once.  Written by the extension as the table's owner, in the
-- confirmed call's own transaction; granted to nobody else.
CREATE TABLE ai_tool_confirmation_used (
    nonce text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
REVOKE ALL ON ai_tool_confirmation_used FROM PUBLIC;
COMMENT ON TABLE ai_tool_confirmation_used IS
'nonces of the confirmation tokens already used, until they expire; written by neon_ai_tools only';

-- ai_tool_stats (issue 34)
-- Per-tool statistics (README, "Statistics"): calls, errors by errorType,
-- rows, answer bytes and time per role, database and tool, kept in shared
-- memory when neon_ai_tools is in shared_preload_libraries (an error
-- otherwise).  Everyone may call ai_tool_stats(): it shows other roles'
-- rows only to members of pg_read_all_stats (superusers included), as
-- pg_stat_statements does.  Resetting the counts, which are the whole
-- server's, is for superusers and the roles they grant EXECUTE to.
CREATE FUNCTION ai_tool_stats(
    OUT userid oid, OUT rolname name, OUT dbid oid, OUT datname name,
    OUT tool text, OUT calls int8, OUT errors int8,
    OUT errors_by_type jsonb, OUT rows int8, OUT affected_rows int8,
    OUT answer_bytes int8, OUT total_time float8, OUT mean_time float8,
    OUT max_time float8, OUT stats_since timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'ai_tool_stats'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ai_tool_stats() IS
'tool calls per role, database and tool since the server started or the counts were reset: calls, errors and errors by errorType, rows answered and changed, answer bytes, time in ms; other roles'' rows for pg_read_all_stats members only';

CREATE VIEW ai_tool_stats AS SELECT * FROM ai_tool_stats();
GRANT SELECT ON ai_tool_stats TO PUBLIC;

COMMENT ON VIEW ai_tool_stats IS
'tool calls per role, database and tool (ai_tool_stats())';

CREATE FUNCTION ai_tool_stats_reset()
RETURNS void
AS 'MODULE_PATHNAME', 'ai_tool_stats_reset'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
REVOKE ALL ON FUNCTION ai_tool_stats_reset() FROM PUBLIC;

COMMENT ON FUNCTION ai_tool_stats_reset() IS
'forgets the counts of ai_tool_stats(), for every role, database and tool; superusers only unless granted';
-- end of ai_tool_stats (issue 34)
