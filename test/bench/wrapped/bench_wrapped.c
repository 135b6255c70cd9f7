/*-------------------------------------------------------------------------
 *
 * bench_wrapped.c
 *	  The least a function running the hand-written statement adds to it
 *	  (benchmark workloads point_wrapped and update_wrapped; not part of
 *	  the extension).
 *
 * Each function runs the benchmark's hand-written statement, prepared once
 * and kept, through SPI inside a subtransaction (the least a tool needs to
 * answer a failure as a value), and returns its result.  It reads no
 * arguments document, resolves and checks nothing, arms no deadline and
 * builds no envelope.  Its tps against the hand-written statement bounds
 * what any tool called as a function can reach: the outer statement, the
 * function call, SPI, a second executor start and the subtransaction are
 * the only things it adds.
 *
 * IDENTIFICATION
 *	  test/bench/wrapped/bench_wrapped.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type_d.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bench_wrapped_point);
PG_FUNCTION_INFO_V1(bench_wrapped_update);

static SPIPlanPtr point_plan;
static SPIPlanPtr update_plan;

/* the benchmark's statement, prepared on first use and kept */
static SPIPlanPtr
kept_plan(SPIPlanPtr *plan, const char *sql, int nargs, Oid *argtypes)
{
	if (*plan == NULL)
	{
		SPIPlanPtr	p = SPI_prepare(sql, nargs, argtypes);

		if (p == NULL || SPI_keepplan(p) != 0)
			elog(ERROR, "could not prepare \"%s\"", sql);
		*plan = p;
	}
	return *plan;
}

/*
 * Run the statement with values in a subtransaction; returns the first
 * column of its first row (copied out), or NULL, and sets *processed.
 */
static Datum
run_wrapped(SPIPlanPtr *plan, const char *sql, int nargs, Oid *argtypes,
			Datum *values, bool *isnull, uint64 *processed)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	ResourceOwner caller_owner = CurrentResourceOwner;
	Datum		result = (Datum) 0;

	*isnull = true;
	BeginInternalSubTransaction(NULL);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_plan(kept_plan(plan, sql, nargs, argtypes), values, NULL,
						 false, 0) < 0)
		elog(ERROR, "could not run \"%s\"", sql);
	*processed = SPI_processed;
	if (SPI_tuptable != NULL && SPI_processed > 0)
	{
		result = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
							   1, isnull);
		if (!*isnull)
			result = SPI_datumTransfer(result, false, -1);
	}
	SPI_finish();
	ReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(caller_cxt);
	CurrentResourceOwner = caller_owner;
	return result;
}

/* point_sql.sql's statement for one id */
Datum
bench_wrapped_point(PG_FUNCTION_ARGS)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		values[1] = {PG_GETARG_DATUM(0)};
	bool		isnull;
	uint64		processed;
	Datum		result;

	result = run_wrapped(&point_plan,
						 "SELECT COALESCE(jsonb_agg(to_jsonb(b)), '[]') "
						 "FROM bench b WHERE id = $1",
						 1, argtypes, values, &isnull, &processed);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

/* update_sql.sql's statement for one lower bound; returns the rows updated */
Datum
bench_wrapped_update(PG_FUNCTION_ARGS)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		values[1] = {PG_GETARG_DATUM(0)};
	bool		isnull;
	uint64		processed;

	(void) run_wrapped(&update_plan,
					   "UPDATE bench SET qty = $1 % 100 "
					   "WHERE id BETWEEN $1 AND $1 + 9",
					   1, argtypes, values, &isnull, &processed);
	PG_RETURN_INT32((int32) processed);
}
