/*-------------------------------------------------------------------------
 *
 * call_names.c
 *		  The names of a call's operation and of the reason its rows were
 *		  truncated, as answers, the audit log and the custom tools'
 *		  catalog write them.
 *
 * Code compares the enums (NatOperation, NatTruncation); a name is written
 * only where it leaves the module, and is taken from these tables, so
 * that each is spelled once.
 *
 * IDENTIFICATION
 *		  src/base/call_names.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "base/base.h"

/* "operation" of an answer and of an audit line, by NatOperation */
const char *const nat_operation_names[] = {
	[NAT_OP_NONE] = NULL,
	[NAT_OP_SELECT] = "select",
	[NAT_OP_INSERT] = "insert",
	[NAT_OP_UPDATE] = "update",
	[NAT_OP_DELETE] = "delete",
	[NAT_OP_EXECUTE] = "execute",
	[NAT_OP_EXPLAIN] = "explain",
	[NAT_OP_LIST] = "list",
	[NAT_OP_DESCRIBE] = "describe",
	[NAT_OP_TRUNCATE] = "truncate",
	[NAT_OP_DROP] = "drop",
};

StaticAssertDecl(lengthof(nat_operation_names) == NAT_OP_DROP + 1,
				 "nat_operation_names must name every NatOperation");

/* "truncation.reason" of an answer, by NatTruncation */
const char *const nat_truncation_names[] = {
	[NAT_TRUNCATION_NONE] = NULL,
	[NAT_TRUNCATION_ROW_LIMIT] = "row_limit",
	[NAT_TRUNCATION_BYTE_LIMIT] = "byte_limit",
	[NAT_TRUNCATION_MEMORY_LIMIT] = "memory_limit",
};

StaticAssertDecl(lengthof(nat_truncation_names) == NAT_TRUNCATION_MEMORY_LIMIT + 1,
				 "nat_truncation_names must name every NatTruncation");

/*
 * The operation a name stands for (a custom tool's, as its catalog row
 * stores it).  ai_tool_define() writes only the names of select, insert,
 * update, delete and execute; any other text, in a row edited by hand, is
 * taken as execute: the statement runs as a write, as one of unknown kind.
 */
NatOperation
nat_operation_from_name(const char *name)
{
	for (int op = NAT_OP_NONE + 1; op < lengthof(nat_operation_names); op++)
		if (strcmp(name, nat_operation_names[op]) == 0)
			return (NatOperation) op;
	return NAT_OP_EXECUTE;
}
