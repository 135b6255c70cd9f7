/*-------------------------------------------------------------------------
 *
 * row_sink.c
 *		  Rows going into the answer, under the row and byte caps.
 *
 * A statement's rows reach the answer through a DestReceiver: the
 * executor hands over one row at a time, and each is rendered straight
 * into the answer ("columns" once, then rows in "data") or counted and
 * dropped.  Nothing is materialized past the caps:
 *
 * - A query stops the executor as soon as a cap is reached (it reads the
 *   row cap plus one rows, to report truncation honestly).  Stopping early
 *   is the same as a LIMIT, so the plan may use parallel workers.
 * - A data-modifying statement runs to its end, because stopping it would
 *   change only some of the rows: its RETURNING rows past the caps are
 *   counted and dropped, never kept.
 *
 * The byte cap counts the rows as rendered in the call's format (json
 * objects, columnar arrays, or lines of csv or markdown text: formats.c),
 * escapes and all, and it is shared by every statement of the call.  A value is converted
 * only if its stored size fits in what remains (see jsonb_out.c), so one
 * huge value costs nothing but the row it was in.
 *
 * Until the answer is serialized, each row is a tree of JsonbValues, which
 * for narrow rows weighs much more than its text ({"n": 1} is 8 bytes of
 * text and some 400 bytes of tree; a columnar row weighs about half a json
 * row, its elements having no keys).  So the cap also stops the rows when
 * their estimated memory passes ANSWER_MEMORY_FACTOR times the byte cap,
 * or times ANSWER_MEMORY_FLOOR when the cap is smaller: whatever the rows,
 * the answer's memory stays a fixed multiple of max_response_bytes (8 MB
 * at the default), and a small cap is filled exactly in every format, as
 * the row cap (at most 10,000 rows) stops narrow rows before 8 MB.  The
 * answer says which of the two stopped them (truncation.reason byte_limit
 * or memory_limit).
 *
 * IDENTIFICATION
 *		  src/answer/row_sink.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "plan/continuation.h"
#include "executor/tuptable.h"
#include "answer/formats.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "tcop/dest.h"
#include "utils/datum.h"
#include "utils/memutils.h"

#define ANSWER_MEMORY_FACTOR 8
#define ANSWER_MEMORY_FLOOR		(1024 * 1024)

/*
 * A column in "columns": {"name": ..., "type": ...} and separators besides
 * its name (type names are short: "timestamp with time zone" is the
 * longest common one); in memory, its description (ColumnOutput, keys, a
 * to_jsonb() call) and its object in the answer.
 */
#define HEADER_BYTES_PER_COLUMN 64
#define HEADER_MEMORY_PER_COLUMN 1024

/* a row container's parse state in memory (a 64-byte chunk) */
#define ROW_STATE_MEMORY (64 + NAT_CHUNK_OVERHEAD)

typedef struct RowSink
{
	DestReceiver pub;			/* must be first */
	ToolCall   *call;
	RowCaps		caps;
	RowResult  *result;
	bool		stop_at_caps;	/* a query: stop the executor at a cap */
	bool		opened;			/* "columns" and "data" pushed */
	bool		full;			/* a cap was reached: no more rows added */
	TupleDesc	tupdesc;
	int			ncols;			/* the columns answered: the first ones */
	ColumnOutput *cols;
	JsonbValue *values;
	int			format;			/* NatAnswerFormat */
	StringInfo text;			/* csv, markdown: the rows' text */
	MemoryContext scratch;		/* csv, markdown: one row's workings */
	NatContinuation *cont;		/* the call's "next", or NULL */
	int			hidden;			/* columns ending each row, not answered:
								 * keyset sort keys (continuation.c), a
								 * write's count column */
	bool		count_only;		/* every column hidden: rows only counted */
	Size		row_memory;		/* json, columnar: a row's container */
} RowSink;

static void
mark_truncated(RowSink *sink, NatTruncation reason, int64 limit)
{
	sink->full = true;
	sink->result->truncated = true;
	sink->result->truncation_reason = reason;
	sink->result->truncation_limit = limit;
}

/* the memory the rows may hold */
static int64
memory_cap(RowSink *sink)
{
	return ANSWER_MEMORY_FACTOR * Max(sink->caps.max_bytes, ANSWER_MEMORY_FLOOR);
}

/*
 * What palloc takes for n bytes: a power of two (at least 8) up to 8 kB,
 * and its chunk header.
 */
static Size
chunk_memory(Size n)
{
	Size		chunk = 8;

	if (n > 8192)
		return n + NAT_CHUNK_OVERHEAD;
	while (chunk < n)
		chunk <<= 1;
	return chunk + NAT_CHUNK_OVERHEAD;
}

/*
 * One row's container in memory, as pushJsonbValue() builds it: its parse
 * state, its pairs (json: a key and a value each) or elements (columnar:
 * a value each), allocated four at first and doubled, and its place in
 * "data" (an array doubled too, so up to two values a row).  The values'
 * own memory is nat_datum_to_jsonb_value()'s.
 */
static Size
row_container_memory(int format, int natts)
{
	Size		slot = format == NAT_FORMAT_COLUMNAR ?
		sizeof(JsonbValue) : sizeof(JsonbPair);
	int			capacity = 4;

	while (capacity < natts)
		capacity *= 2;
	return ROW_STATE_MEMORY + chunk_memory(capacity * slot) +
		2 * sizeof(JsonbValue);
}

/*
 * The first rows (or the statement's description) arrive: push "columns"
 * and open "data".  A statement can describe its rows more than once (a
 * rule's extra statements do not reach us, but be safe): only the first
 * description counts.
 */
static void
sink_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	RowSink    *sink = (RowSink *) self;
	ToolCall   *call = sink->call;
	MemoryContext old;
	Size		header_bytes;
	Size		header_memory;
	int			natts;
	int			i;

	sink->stop_at_caps = (operation == CMD_SELECT);
	if (sink->opened || sink->full)
		return;
	if (sink->cont)
	{
		sink->cont->query = (operation == CMD_SELECT);
		if (sink->cont->mode == NAT_CONT_KEYSET)
			sink->hidden = sink->cont->nkeys;
	}
	natts = typeinfo->natts - sink->hidden;

	/* nothing to answer (RETURNING only to count): no columns, no data */
	if (natts == 0 && sink->hidden > 0)
	{
		sink->count_only = true;
		return;
	}

	/*
	 * The header counts against the budget like rows do: its text, and its
	 * memory (the columns' descriptions and a small object per column). Past
	 * the budget (many wide statements in one call), the statement's rows and
	 * header are left out.
	 */
	header_bytes = 2;
	for (i = 0; i < natts; i++)
		header_bytes += strlen(NameStr(TupleDescAttr(typeinfo, i)->attname)) + HEADER_BYTES_PER_COLUMN;
	/* a text format's header line repeats the names */
	if (NAT_FORMAT_IS_TEXT(sink->format))
		for (i = 0; i < natts; i++)
			header_bytes += strlen(NameStr(TupleDescAttr(typeinfo, i)->attname)) + 8;
	header_memory = natts * HEADER_MEMORY_PER_COLUMN;
	if (call->row_bytes + header_bytes > sink->caps.max_bytes)
	{
		mark_truncated(sink, NAT_TRUNCATION_BYTE_LIMIT, sink->caps.max_bytes);
		return;
	}
	if (call->row_memory + header_memory > memory_cap(sink))
	{
		mark_truncated(sink, NAT_TRUNCATION_MEMORY_LIMIT, memory_cap(sink));
		return;
	}
	call->row_bytes += header_bytes;
	call->row_memory += header_memory;

	old = MemoryContextSwitchTo(call->cxt);
	sink->opened = true;
	sink->tupdesc = CreateTupleDescCopy(typeinfo);
	sink->ncols = natts;
	sink->cols = nat_prepare_columns(sink->tupdesc, call->cxt);
	sink->values = palloc(sizeof(JsonbValue) * Max(sink->ncols, 1));
	sink->row_memory = row_container_memory(sink->format, sink->ncols);

	nat_response_columns(call, sink->cols, sink->ncols);
	if (NAT_FORMAT_IS_TEXT(sink->format))
	{
		sink->text = makeStringInfo();
		sink->scratch = AllocSetContextCreate(call->cxt, "neon_ai_tools text row",
											  ALLOCSET_DEFAULT_SIZES);
		nat_format_text_header(sink->format, sink->cols, sink->ncols,
							   sink->text);
	}
	MemoryContextSwitchTo(old);
}

/*
 * Keep the hidden sort keys of the row just added: the last one's make
 * the answer's "next" (continuation.c).
 */
static void
keep_keys(RowSink *sink, TupleTableSlot *slot)
{
	NatContinuation *cont = sink->cont;
	MemoryContext old = MemoryContextSwitchTo(sink->call->cxt);
	int			i;

	if (cont->last == NULL)
	{
		cont->last = palloc0(sizeof(Datum) * sink->hidden);
		cont->last_null = palloc0(sizeof(bool) * sink->hidden);
	}
	for (i = 0; i < sink->hidden; i++)
	{
		Form_pg_attribute att = TupleDescAttr(slot->tts_tupleDescriptor,
											  sink->ncols + i);

		if (cont->have_last && !cont->last_null[i] && !att->attbyval)
			pfree(DatumGetPointer(cont->last[i]));
		cont->last_null[i] = slot->tts_isnull[sink->ncols + i];
		cont->last[i] = cont->last_null[i] ? (Datum) 0 :
			datumCopy(slot->tts_values[sink->ncols + i],
					  att->attbyval, att->attlen);
	}
	cont->have_last = true;
	MemoryContextSwitchTo(old);
}

/*
 * Add one row to a text format's "data_text", if it is within the byte
 * cap (formats.c renders it).
 */
static void
add_text_row(RowSink *sink, TupleTableSlot *slot, Size budget)
{
	ToolCall   *call = sink->call;
	Size		size;
	const char *oversized;
	int			before = sink->text->len;

	slot_getallattrs(slot);
	if (!nat_format_text_row(sink->format, sink->cols, sink->ncols,
							 slot->tts_values, slot->tts_isnull, budget,
							 sink->text, sink->scratch, &size, &oversized))
	{
		mark_truncated(sink, NAT_TRUNCATION_BYTE_LIMIT, sink->caps.max_bytes);
		if (sink->result->row_count == 0)
			sink->result->oversized_column = oversized;
		return;
	}
	/* text weighs what it counts, but the headers' memory came first */
	if (call->row_memory + size > memory_cap(sink))
	{
		sink->text->len = before;	/* the line is not answered */
		sink->text->data[before] = '\0';
		mark_truncated(sink, NAT_TRUNCATION_MEMORY_LIMIT, memory_cap(sink));
		return;
	}
	call->row_bytes += size;
	call->row_memory += size;
	sink->result->row_count++;
	if (sink->hidden > 0)
		keep_keys(sink, slot);
}

/*
 * Add one row to the answer, if it is within the caps.
 */
static void
add_row(RowSink *sink, TupleTableSlot *slot)
{
	ToolCall   *call = sink->call;
	RowResult  *result = sink->result;
	int			natts = sink->ncols;
	Size		budget;
	Size		rowsize;
	Size		rowmemory = sink->row_memory;
	MemoryContext old;
	int			i;

	if (result->row_count >= sink->caps.max_rows)
	{
		mark_truncated(sink, NAT_TRUNCATION_ROW_LIMIT, sink->caps.max_rows);
		return;
	}

	budget = sink->caps.max_bytes > call->row_bytes ?
		sink->caps.max_bytes - call->row_bytes : 0;
	if (NAT_FORMAT_IS_TEXT(sink->format))
	{
		add_text_row(sink, slot, budget);
		return;
	}

	/*
	 * The brackets and the separator after the row: each value is counted
	 * with a separator after it, and the last one's is the row's.
	 */
	rowsize = natts > 0 ? 2 : 4;
	slot_getallattrs(slot);
	old = MemoryContextSwitchTo(call->cxt);
	for (i = 0; i < natts; i++)
	{
		Size		size;
		Size		memory;

		/* columnar: no key, a separator ", " instead */
		Size		unkeyed = sink->format == NAT_FORMAT_COLUMNAR ?
			sink->cols[i].key_size : 0;

		if (rowsize > budget ||
			!nat_datum_to_jsonb_value(&sink->cols[i], slot->tts_values[i],
									  slot->tts_isnull[i],
									  budget - rowsize + unkeyed,
									  &sink->values[i], &size, &memory))
		{
			mark_truncated(sink, NAT_TRUNCATION_BYTE_LIMIT, sink->caps.max_bytes);
			if (result->row_count == 0 && rowsize <= budget)
				result->oversized_column = sink->cols[i].name;
			MemoryContextSwitchTo(old);
			return;
		}
		rowsize += size - unkeyed + (unkeyed > 0 ? 2 : 0);
		/* the value's pair (or element) is in the container's memory */
		rowmemory += memory - sizeof(JsonbPair);
	}
	if (rowsize > budget)
	{
		mark_truncated(sink, NAT_TRUNCATION_BYTE_LIMIT, sink->caps.max_bytes);
		MemoryContextSwitchTo(old);
		return;
	}
	if (call->row_memory + rowmemory > memory_cap(sink))
	{
		mark_truncated(sink, NAT_TRUNCATION_MEMORY_LIMIT, memory_cap(sink));
		MemoryContextSwitchTo(old);
		return;
	}
	call->row_bytes += rowsize;
	call->row_memory += rowmemory;

	if (sink->format == NAT_FORMAT_COLUMNAR)
	{
		nat_jsonb_push(&call->state, WJB_BEGIN_ARRAY, NULL);
		for (i = 0; i < natts; i++)
			nat_jsonb_push(&call->state, WJB_ELEM, &sink->values[i]);
		nat_jsonb_push(&call->state, WJB_END_ARRAY, NULL);
	}
	else
	{
		nat_jsonb_push(&call->state, WJB_BEGIN_OBJECT, NULL);
		for (i = 0; i < natts; i++)
		{
			nat_push_key(&call->state, sink->cols[i].key);
			nat_jsonb_push(&call->state, WJB_VALUE, &sink->values[i]);
		}
		nat_jsonb_push(&call->state, WJB_END_OBJECT, NULL);
	}
	result->row_count++;
	MemoryContextSwitchTo(old);
	if (sink->hidden > 0)
		keep_keys(sink, slot);
}

/*
 * One row from the executor.  Returning false stops a query's execution.
 */
static bool
sink_receive(TupleTableSlot *slot, DestReceiver *self)
{
	RowSink    *sink = (RowSink *) self;

	/* an offset continuation of the agent's query: skip what was answered */
	if (sink->cont && sink->cont->skip > 0 && sink->stop_at_caps)
	{
		sink->cont->skip--;
		return true;
	}
	sink->result->received++;
	if (!sink->full && !sink->count_only)
		add_row(sink, slot);
	return !(sink->full && sink->stop_at_caps);
}

static void
sink_shutdown(DestReceiver *self)
{
}

static void
sink_destroy(DestReceiver *self)
{
}

/*
 * A receiver that pushes the rows of one statement into the answer at the
 * current level of call->state, under caps; the last hidden columns of
 * each row are left out (all of them: the rows are only counted).
 */
DestReceiver *
nat_row_sink_create(ToolCall *call, RowCaps caps, int hidden,
					RowResult *result)
{
	RowSink    *sink = MemoryContextAllocZero(call->cxt, sizeof(RowSink));

	memset(result, 0, sizeof(RowResult));
	sink->pub.receiveSlot = sink_receive;
	sink->pub.rStartup = sink_startup;
	sink->pub.rShutdown = sink_shutdown;
	sink->pub.rDestroy = sink_destroy;
	sink->pub.mydest = DestNone;
	sink->call = call;
	sink->caps = caps;
	sink->result = result;
	sink->format = call->format = nat_call_format(call);
	sink->cont = call->cont;
	sink->hidden = hidden;
	return &sink->pub;
}

/*
 * Close "data"; for a statement that returned no rows at all (no
 * RETURNING, a utility statement), push an empty "data".
 */
void
nat_row_sink_close(DestReceiver *self)
{
	RowSink    *sink = (RowSink *) self;
	MemoryContext old = MemoryContextSwitchTo(sink->call->cxt);

	nat_response_data_end(sink->call, sink->opened);
	if (NAT_FORMAT_IS_TEXT(sink->format))
		nat_format_text_end(sink->call, sink->format, sink->text);
	if (sink->scratch)
		MemoryContextDelete(sink->scratch);
	MemoryContextSwitchTo(old);
}
