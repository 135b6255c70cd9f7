/*-------------------------------------------------------------------------
 *
 * custom_store.c
 *		  The table of custom tool definitions (ai_tool_define()).
 *
 * Definitions live in ai_tool_definitions, a configuration table of the
 * extension in its schema (pg_extension_config_dump: pg_dump dumps its rows
 * and a restore puts them back beside CREATE EXTENSION).  The table belongs
 * to the extension's owner and no other role has a privilege on it:
 *
 * - reading: every call and every catalog reads it here with an index scan
 *	 of its primary key, without a privilege check, as the catalog is read:
 *	 what a tool is and takes is public to whoever may call tools (the
 *	 call itself runs as the caller, with the caller's privileges);
 *	 nothing is cached, so a definition made, replaced or dropped is seen
 *	 by the next call of every session (and by the defining transaction
 *	 at once);
 *
 * - writing: ai_tool_define() and ai_tool_drop() (EXECUTE revoked from
 *	 PUBLIC) write through SPI as the table's owner, in a security-
 *	 restricted operation, so EXECUTE on them is the one privilege an
 *	 administrator grants.
 *
 * The name column has the "C" collation: the index scan's key compares
 * bytes (ScanKeyInit), as the index must.
 *
 * IDENTIFICATION
 *		  src/core/custom_store.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "registry/registry.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/* the table's columns, in order (sql/neon_ai_tools--*.sql) */
#define Anum_def_name			1
#define Anum_def_description	2
#define Anum_def_sql			3
#define Anum_def_parameters		4
#define Anum_def_options		5
#define Anum_def_read_only		6
#define Anum_def_operation		7
#define Natts_def				7

/* the table found last, checked before each use */
static Oid	cached_relid = InvalidOid;
static Oid	cached_nspid = InvalidOid;

/*
 * The schema the extension is installed in, or InvalidOid when it is not
 * installed (or is being created or dropped).  15 does not export
 * get_extension_schema(): pg_extension is read by its name index.
 */
static Oid
extension_schema(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			nspid = InvalidOid;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("neon_ai_tools"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		nspid = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return nspid;
}

/*
 * The definitions table, or InvalidOid when the extension (or the table)
 * is not there.
 */
static Oid
definitions_relid(void)
{
	char	   *name;

	if (OidIsValid(cached_relid) &&
		get_rel_namespace(cached_relid) == cached_nspid &&
		(name = get_rel_name(cached_relid)) != NULL &&
		strcmp(name, NAT_DEFINITIONS_TABLE) == 0)
		return cached_relid;

	cached_relid = InvalidOid;
	cached_nspid = extension_schema();
	if (OidIsValid(cached_nspid))
		cached_relid = get_relname_relid(NAT_DEFINITIONS_TABLE, cached_nspid);
	return cached_relid;
}

/*
 * One row as a CustomToolRow, copied into the current memory context.
 */
static CustomToolRow *
row_from_tuple(HeapTuple tuple, TupleDesc tupdesc)
{
	Datum		values[Natts_def];
	bool		nulls[Natts_def];
	CustomToolRow *row = palloc0(sizeof(CustomToolRow));

	if (tupdesc->natts != Natts_def)
		elog(ERROR, "table %s has %d columns, expected %d",
			 NAT_DEFINITIONS_TABLE, tupdesc->natts, Natts_def);
	heap_deform_tuple(tuple, tupdesc, values, nulls);
	for (int i = 0; i < Natts_def; i++)
		if (nulls[i])
			elog(ERROR, "table %s has a null in column %d",
				 NAT_DEFINITIONS_TABLE, i + 1);
	row->name = TextDatumGetCString(values[Anum_def_name - 1]);
	row->description = TextDatumGetCString(values[Anum_def_description - 1]);
	row->sql = TextDatumGetCString(values[Anum_def_sql - 1]);
	row->parameters = DatumGetJsonbPCopy(values[Anum_def_parameters - 1]);
	row->options = DatumGetJsonbPCopy(values[Anum_def_options - 1]);
	row->read_only = DatumGetBool(values[Anum_def_read_only - 1]);
	row->operation = nat_operation_from_name(TextDatumGetCString(values[Anum_def_operation - 1]));
	return row;
}

/*
 * The stored definitions (CustomToolRow *), in name order: the one called
 * name, or all of them when name is NULL.  NIL when the extension is not
 * installed.
 */
List *
nat_custom_tool_rows(const char *name)
{
	Oid			relid = definitions_relid();
	Relation	rel;
	Oid			indexid;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *rows = NIL;

	if (!OidIsValid(relid))
		return NIL;
	rel = table_open(relid, AccessShareLock);
	indexid = nat_primary_key_index(rel);
	if (!OidIsValid(indexid))
		elog(ERROR, "table %s has no primary key", NAT_DEFINITIONS_TABLE);
	if (name)
		ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_TEXTEQ,
					CStringGetTextDatum(name));
	scan = systable_beginscan(rel, indexid, true, NULL, name ? 1 : 0, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		CHECK_FOR_INTERRUPTS();
		rows = lappend(rows, row_from_tuple(tuple, RelationGetDescr(rel)));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return rows;
}

/*
 * Run one statement on the table as its owner, in a security-restricted
 * operation; returns SPI_processed.
 */
static uint64
run_as_owner(const char *sql_format, int nargs, Oid *types, Datum *values)
{
	Oid			relid = definitions_relid();
	Oid			owner;
	Oid			save_userid;
	int			save_sec_context;
	Relation	rel;
	char	   *sql;
	uint64		processed;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("extension \"neon_ai_tools\" is not installed in this database")));
	rel = table_open(relid, AccessShareLock);
	owner = rel->rd_rel->relowner;
	table_close(rel, AccessShareLock);
	sql = psprintf(sql_format,
				   quote_qualified_identifier(get_namespace_name(cached_nspid),
											  NAT_DEFINITIONS_TABLE));

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context |
						   SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, false, 0) < 0)
		elog(ERROR, "could not update table %s", NAT_DEFINITIONS_TABLE);
	processed = SPI_processed;
	SPI_finish();
	/* an error on the way restores these with the (sub)transaction */
	SetUserIdAndSecContext(save_userid, save_sec_context);
	return processed;
}

/*
 * Store a definition, replacing the one of the same name.
 */
void
nat_custom_tool_store(const CustomToolRow *row)
{
	Oid			types[Natts_def] = {TEXTOID, TEXTOID, TEXTOID, JSONBOID,
	JSONBOID, BOOLOID, TEXTOID};
	Datum		values[Natts_def];

	values[Anum_def_name - 1] = CStringGetTextDatum(row->name);
	values[Anum_def_description - 1] = CStringGetTextDatum(row->description);
	values[Anum_def_sql - 1] = CStringGetTextDatum(row->sql);
	values[Anum_def_parameters - 1] = JsonbPGetDatum(row->parameters);
	values[Anum_def_options - 1] = JsonbPGetDatum(row->options);
	values[Anum_def_read_only - 1] = BoolGetDatum(row->read_only);
	values[Anum_def_operation - 1] = CStringGetTextDatum(nat_operation_names[row->operation]);
	(void) run_as_owner("INSERT INTO %s AS d VALUES ($1, $2, $3, $4, $5, $6, $7) "
						"ON CONFLICT (name) DO UPDATE SET "
						"description = EXCLUDED.description, sql = EXCLUDED.sql, "
						"parameters = EXCLUDED.parameters, options = EXCLUDED.options, "
						"read_only = EXCLUDED.read_only, operation = EXCLUDED.operation",
						Natts_def, types, values);
}

/*
 * Delete the definition called name; false if there was none.
 */
bool
nat_custom_tool_delete(const char *name)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	values[0] = CStringGetTextDatum(name);
	return run_as_owner("DELETE FROM %s WHERE name = $1", 1, types, values) > 0;
}
