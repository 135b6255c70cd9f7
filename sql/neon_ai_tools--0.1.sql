/* neon_ai_tools--0.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION neon_ai_tools" to load this file. \quit

-- Everything runs as the caller (SECURITY INVOKER, the default) and without
-- a SET clause, so the caller's privileges, row-level security policies and
-- search_path apply to what a tool does.  PARALLEL UNSAFE: a call opens a
-- subtransaction.

CREATE FUNCTION ai_tool_list(format text DEFAULT 'native')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_list'
LANGUAGE C STABLE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_list(text) IS
'catalog of the tools enabled for the caller, with JSON Schemas; format native, openai, anthropic or mcp';

CREATE FUNCTION ai_tool_call(name text, args jsonb DEFAULT '{}')
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_tool_call'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION ai_tool_call(text, jsonb) IS
'runs one tool as the caller and answers with one jsonb object: the rows, or a categorized error';

-- The classifier alone: no subtransaction, no catalog access, the same
-- answer for the same text (STABLE rather than IMMUTABLE only because the
-- pattern table grows between versions).  Not STRICT: a NULL code means
-- "look for one in the text", and a NULL message raises an error.
CREATE FUNCTION ai_error_info(message text, code text DEFAULT NULL)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'ai_error_info'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION ai_error_info(text, text) IS
'classifies an error text from PostgreSQL, MySQL or SeekDB/OceanBase (code: SQLSTATE, MySQL error number or ORA- code) into the error answer of ai_tool_call, with passwords masked';
