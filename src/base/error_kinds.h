/*-------------------------------------------------------------------------
 *
 * error_kinds.h
 *		  The error categories of an answer: one row each, in one table
 *		  that the module and the MCP program both read.
 *
 * NAT_ERROR_KIND(id, errorType, portable type, retryable): the answer's
 * "errorType", the provider-neutral "error.type" beside it, and whether a
 * retry of the same call may succeed (README, "Errors").  Define the macro,
 * include this file, undefine it: base/base.h makes the NatErrorKind enum
 * of it and base/errors.c the names; the MCP program (src/mcp, through its
 * -I of this folder) names its own failures (no connection, a refused
 * login) with the same rows, so a client sees one set of categories
 * whichever side answered.  No include guard: it is meant to be read more
 * than once.
 *
 * IDENTIFICATION
 *		  src/base/error_kinds.h
 *
 *-------------------------------------------------------------------------
 */
NAT_ERROR_KIND(NAT_ERR_INVALID_TABLE, "invalid_table", "resource_not_found", false)
NAT_ERROR_KIND(NAT_ERR_INVALID_COLUMN, "invalid_column", "resource_not_found", false)
NAT_ERROR_KIND(NAT_ERR_SYNTAX_ERROR, "syntax_error", "syntax_error", false)
NAT_ERROR_KIND(NAT_ERR_CONSTRAINT_VIOLATION, "constraint_violation", "check_constraint", false)
NAT_ERROR_KIND(NAT_ERR_DEPENDENT_OBJECTS, "dependent_objects", "foreign_key_constraint", false)
NAT_ERROR_KIND(NAT_ERR_ALREADY_EXISTS, "already_exists", "resource_exists", false)
NAT_ERROR_KIND(NAT_ERR_INVALID_INPUT, "invalid_input", "invalid_input", false)
NAT_ERROR_KIND(NAT_ERR_PERMISSION_DENIED, "permission_denied", "permission_denied", false)
NAT_ERROR_KIND(NAT_ERR_READ_ONLY_VIOLATION, "read_only_violation", "read_only", false)
NAT_ERROR_KIND(NAT_ERR_TIMEOUT, "timeout", "timeout", true)
NAT_ERROR_KIND(NAT_ERR_CONFLICT, "conflict", "serialization_failure", true)
NAT_ERROR_KIND(NAT_ERR_RESOURCE_EXHAUSTED, "resource_exhausted", "resource_exhausted", true)
NAT_ERROR_KIND(NAT_ERR_CONNECTION_ERROR, "connection_error", "connection_error", true)
NAT_ERROR_KIND(NAT_ERR_AUTHENTICATION_ERROR, "authentication_error", "permission_denied", false)
NAT_ERROR_KIND(NAT_ERR_INVALID_PARAMETERS, "invalid_parameters", "invalid_request", false)
NAT_ERROR_KIND(NAT_ERR_UNKNOWN_TOOL, "unknown_tool", "invalid_request", false)
NAT_ERROR_KIND(NAT_ERR_CONFIRMATION_REQUIRED, "confirmation_required", "confirmation_required", false)
NAT_ERROR_KIND(NAT_ERR_LIMIT_EXCEEDED, "limit_exceeded", "limit_exceeded", false)
NAT_ERROR_KIND(NAT_ERR_TOOL_DISABLED, "tool_disabled", "permission_denied", false)
NAT_ERROR_KIND(NAT_ERR_RESOURCE_LIMIT, "resource_limit", "limit_exceeded", false)
NAT_ERROR_KIND(NAT_ERR_UNKNOWN_ERROR, "unknown_error", "unknown", false)
