/*-------------------------------------------------------------------------
 *
 * compat.h
 *		  Differences between PostgreSQL major versions, in one place.
 *
 * The extension supports PostgreSQL 15 to 19; CI builds and tests 15, 17,
 * 18 and 19 (16 is built against its headers where a package exists).
 * Everything that differs between those versions in the APIs we use is
 * bridged here, so the rest of the code is written against one API and
 * carries no PG_VERSION_NUM tests of its own.  Each bridge names the
 * version that changed and what changed.
 *
 * IDENTIFICATION
 *		  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_COMPAT_H
#define NAT_COMPAT_H

#include "catalog/pg_namespace.h"
#include "nodes/parsenodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "utils/acl.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#if PG_VERSION_NUM < 150000
#error "neon_ai_tools requires PostgreSQL 15 or later"
#endif

/*
 * Functions that never return.  Up to 17 the attribute follows the
 * declaration (pg_attribute_noreturn()); 18 replaced it with the C11
 * specifier pg_noreturn in front.  Declarations here write both; each
 * version defines one and the other is empty.
 */
#if PG_VERSION_NUM < 180000
#define pg_noreturn
#else
#define pg_attribute_noreturn()
#endif

/*
 * An intended fall through to the next case label.  19 builds with
 * -Wimplicit-fallthrough=5, which accepts only the attribute that its
 * pg_fallthrough stands for, not a comment.
 */
#ifndef pg_fallthrough
#ifdef __has_attribute
#if __has_attribute(fallthrough)
#define pg_fallthrough __attribute__((fallthrough))
#endif
#endif
#ifndef pg_fallthrough
#define pg_fallthrough do {} while (0)
#endif
#endif

/* raw_parser() in its default mode (the mode argument exists since 14) */
#define nat_raw_parser(str) raw_parser((str), RAW_PARSE_DEFAULT)

/*
 * USAGE on a schema: pg_namespace_aclcheck() became the generic
 * object_aclcheck() in 16.
 */
#if PG_VERSION_NUM >= 160000
#define nat_namespace_aclcheck(nspid, roleid, mode) \
	object_aclcheck(NamespaceRelationId, (nspid), (roleid), (mode))
#else
#define nat_namespace_aclcheck(nspid, roleid, mode) \
	pg_namespace_aclcheck((nspid), (roleid), (mode))
#endif

/* a qualified name's parts; 16 added a soft-error context (NULL: raise) */
#if PG_VERSION_NUM >= 160000
#define nat_qualified_name_list(str) stringToQualifiedNameList((str), NULL)
#else
#define nat_qualified_name_list(str) stringToQualifiedNameList(str)
#endif

/* EXECUTE on a function: the same change */
#if PG_VERSION_NUM >= 160000
#define nat_proc_aclcheck(procid, roleid, mode) \
	object_aclcheck(ProcedureRelationId, (procid), (roleid), (mode))
#else
#define nat_proc_aclcheck(procid, roleid, mode) \
	pg_proc_aclcheck((procid), (roleid), (mode))
#endif

/*
 * The relation's primary key index.  18 added deferrable_ok; earlier
 * versions never return a deferrable one, and ON CONFLICT cannot use one.
 */
#if PG_VERSION_NUM >= 180000
#define nat_primary_key_index(rel) RelationGetPrimaryKeyIndex((rel), false)
#else
#define nat_primary_key_index(rel) RelationGetPrimaryKeyIndex(rel)
#endif

/*
 * An index scan of nkeys keys: 18 added the instrumentation argument, 19
 * the scan's flags.
 */
#if PG_VERSION_NUM >= 190000
#define nat_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0, SO_NONE)
#elif PG_VERSION_NUM >= 180000
#define nat_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0)
#else
#define nat_index_beginscan(heap, index, snapshot, nkeys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), 0)
#endif

/*
 * A syscache invalidation callback's cache id: an int up to 18, the enum
 * SysCacheIdentifier from 19 (a callback declared with int would be an
 * incompatible function pointer there).
 */
#if PG_VERSION_NUM >= 190000
typedef SysCacheIdentifier NatSysCacheId;
#else
typedef int NatSysCacheId;
#endif

/*
 * Building a jsonb value.  Up to 18, pushJsonbValue() takes a
 * JsonbParseState ** and returns the finished value when the outermost
 * container closes; 19 takes a JsonbInState * and leaves the finished value
 * in its "result" field.  NatJsonb holds either; a zeroed NatJsonb is an
 * empty builder in every version.  Only jsonb_out.c's nat_jsonb_push() uses
 * nat_jsonb_push_compat().
 */
typedef struct NatJsonb
{
#if PG_VERSION_NUM >= 190000
	JsonbInState in;
#else
	JsonbParseState *parse_state;
#endif
} NatJsonb;

/* the innermost container still open (NULL when none is) */
static inline JsonbValue *
nat_jsonb_open_container(NatJsonb *b)
{
#if PG_VERSION_NUM >= 190000
	return b->in.parseState ? &b->in.parseState->contVal : NULL;
#else
	return b->parse_state ? &b->parse_state->contVal : NULL;
#endif
}

static inline JsonbValue *
nat_jsonb_push_compat(NatJsonb *b, JsonbIteratorToken tok, JsonbValue *v)
{
#if PG_VERSION_NUM >= 190000
	pushJsonbValue(&b->in, tok, v);
	return b->in.result;
#else
	return pushJsonbValue(&b->parse_state, tok, v);
#endif
}

/*
 * planner_hook: 19 passes the EXPLAIN state as a fifth argument.
 * NAT_PLANNER_ARGS declares the hook's parameters, NAT_PLANNER_PASS(opts)
 * passes them on with the cursor options replaced.
 */
#if PG_VERSION_NUM >= 190000
#define NAT_PLANNER_ARGS Query *parse, const char *query_string, \
	int cursorOptions, ParamListInfo boundParams, ExplainState *es
#define NAT_PLANNER_PASS(opts) parse, query_string, (opts), boundParams, es
#else
#define NAT_PLANNER_ARGS Query *parse, const char *query_string, \
	int cursorOptions, ParamListInfo boundParams
#define NAT_PLANNER_PASS(opts) parse, query_string, (opts), boundParams
#endif

/*
 * Our per-call timer re-fires every 100 ms after its deadline, so that user
 * code which swallows one cancel is still stopped (enable_timeout_every()
 * exists from 15 on).
 */
#define nat_enable_timeout(id, fin) \
	enable_timeout_every((id), (fin), 100)

/*
 * Startup-option policy (guc_policy.c) reads the GUC variables and
 * re-parses the configuration files.
 *
 * nat_guc_variables(&n): every GUC variable and placeholder, n of them.  15
 * returns its internal array (get_guc_variables(void), the count from
 * GetNumConfigOptions()); 16 keeps variables in a hash table and returns a
 * palloc'd array, taking the count's address.  Both are declared in
 * utils/guc_tables.h, which the caller includes.
 *
 * NAT_CONF_FILE_START_DEPTH: the include depth ParseConfigFile() starts
 * at.  16 names it CONF_FILE_START_DEPTH in the new utils/conffiles.h; 15
 * passes a literal 0.
 */
#if PG_VERSION_NUM >= 160000
#include "utils/conffiles.h"
#define nat_guc_variables(n) get_guc_variables(n)
#define NAT_CONF_FILE_START_DEPTH CONF_FILE_START_DEPTH
#else
#define nat_guc_variables(n) (*(n) = GetNumConfigOptions(), get_guc_variables())
#define NAT_CONF_FILE_START_DEPTH 0
#endif

/*
 * Is roleid the owner of a relation (or has its privileges)?  16 replaced
 * each catalog's *_ownercheck() with object_ownercheck().
 */
#if PG_VERSION_NUM >= 160000
#define nat_relation_ownercheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define nat_relation_ownercheck(relid, roleid) \
	pg_class_ownercheck((relid), (roleid))
#endif

/*
 * One type's fields of a GUC record (utils/guc_tables.h), for
 * setting_guard.c.  Up to 18 each type's struct begins with the
 * config_generic; 19 put them in a union inside config_generic.
 */
#if PG_VERSION_NUM >= 190000
#define NAT_GUC_BOOL(g) (&(g)->_bool)
#define NAT_GUC_INT(g) (&(g)->_int)
#define NAT_GUC_REAL(g) (&(g)->_real)
#define NAT_GUC_STRING(g) (&(g)->_string)
#else
#define NAT_GUC_BOOL(g) ((struct config_bool *) (g))
#define NAT_GUC_INT(g) ((struct config_int *) (g))
#define NAT_GUC_REAL(g) ((struct config_real *) (g))
#define NAT_GUC_STRING(g) ((struct config_string *) (g))
#endif

/*
 * A type name to its OID and typmod (parser/parse_type.h).  16 replaced
 * parseTypeString()'s missing_ok with a soft-error context.
 * nat_parse_type() raises PostgreSQL's error; nat_parse_type_missing_ok()
 * sets InvalidOid for a type that does not exist (from 16 on, also for a
 * name that does not parse).
 */
#if PG_VERSION_NUM >= 160000
#define nat_parse_type(str, typid, typmod) \
	parseTypeString((str), (typid), (typmod), NULL)
#define nat_parse_type_missing_ok(str, typid, typmod) \
	do { \
		ErrorSaveContext nat_escontext_ = {T_ErrorSaveContext}; \
		if (!parseTypeString((str), (typid), (typmod), (Node *) &nat_escontext_)) \
			*(typid) = InvalidOid; \
	} while (0)
#else
#define nat_parse_type(str, typid, typmod) \
	parseTypeString((str), (typid), (typmod), false)
#define nat_parse_type_missing_ok(str, typid, typmod) \
	parseTypeString((str), (typid), (typmod), true)
#endif

/*
 * JSON text to jsonb without raising an error when it is not valid JSON
 * (false then).  16 has soft input errors (an ErrorSaveContext); 15 checks
 * the text with the JSON parser first, which reports instead of raising.
 */
#include "utils/fmgrprotos.h"

#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"

static inline bool
nat_jsonb_in_safe(char *str, Jsonb **result)
{
	ErrorSaveContext escontext = {T_ErrorSaveContext};
	Datum		d;

	if (!DirectInputFunctionCallSafe(jsonb_in, str, InvalidOid, -1,
									 (Node *) &escontext, &d))
		return false;
	*result = DatumGetJsonbP(d);
	return true;
}
#else
#include "common/jsonapi.h"
#include "mb/pg_wchar.h"

static inline bool
nat_jsonb_in_safe(char *str, Jsonb **result)
{
	JsonLexContext *lex = makeJsonLexContextCstringLen(str, strlen(str),
													   GetDatabaseEncoding(),
													   true);

	if (pg_parse_json(lex, &nullSemAction) != JSON_SUCCESS)
		return false;
	*result = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(str)));
	return true;
}
#endif

/*
 * A hash table in shared memory of at most n entries (tool_stats.c).  19
 * takes the one count where earlier versions take an initial and a
 * maximum size.
 */
#if PG_VERSION_NUM >= 190000
#define nat_shmem_init_hash(name, n, info, flags) \
	ShmemInitHash((name), (n), (info), (flags))
#else
#define nat_shmem_init_hash(name, n, info, flags) \
	ShmemInitHash((name), (n), (n), (info), (flags))
#endif

#endif							/* NAT_COMPAT_H */
