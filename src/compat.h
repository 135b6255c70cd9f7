/*-------------------------------------------------------------------------
 *
 * compat.h
 *		  Differences between PostgreSQL major versions, in one place.
 *
 * The extension is built and tested on PostgreSQL 15.  Everything that
 * changed between 13 and 17 in the APIs we use is bridged here so that the
 * rest of the code can be written against one API.
 *
 * IDENTIFICATION
 *		  src/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_COMPAT_H
#define NAT_COMPAT_H

#include "nodes/parsenodes.h"
#include "parser/parser.h"

#if PG_VERSION_NUM < 130000
#error "neon_ai_tools requires PostgreSQL 13 or later"
#endif

/* MarkGUCPrefixReserved() appeared in 15; older versions only warn */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/* raw_parser() gained a mode argument in 14 */
#if PG_VERSION_NUM >= 140000
#define nat_raw_parser(str) raw_parser((str), RAW_PARSE_DEFAULT)
#else
#define nat_raw_parser(str) raw_parser(str)
#endif

/* A_Const lost its embedded Value node in 15 */
#if PG_VERSION_NUM >= 150000
#define nat_aconst_is_null(c) ((c)->isnull)
#else
#define nat_aconst_is_null(c) ((c)->val.type == T_Null)
#endif

/* int64_to_numeric() is exported from 14 on */
#if PG_VERSION_NUM < 140000
#define int64_to_numeric(v) \
	DatumGetNumeric(DirectFunctionCall1(int8_numeric, Int64GetDatum(v)))
#endif

/*
 * Our per-call timer re-fires every 100 ms after its deadline, so that user
 * code which swallows one cancel is still stopped.  enable_timeout_every()
 * exists from 15 on; before that it fires once.
 */
#if PG_VERSION_NUM >= 150000
#define nat_enable_timeout(id, fin) \
	enable_timeout_every((id), (fin), 100)
#else
#define nat_enable_timeout(id, fin) \
	enable_timeout_at((id), (fin))
#endif

#endif							/* NAT_COMPAT_H */
