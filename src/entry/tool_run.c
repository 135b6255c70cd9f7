/*-------------------------------------------------------------------------
 *
 * tool_run.c
 *		  ai_tool_run(): run the tool calls of one model response and answer
 *		  with the messages that carry their results, in the response's
 *		  own dialect.
 *
 * Four dialects, as the providers document them:
 *
 *	 openai_chat		OpenAI Chat Completions: a whole completion
 *						(choices[0].message) or an assistant message, with
 *						tool_calls[] of {id, type: "function", function:
 *						{name, arguments}}, arguments a JSON string.  Answer:
 *						one {"role": "tool", "tool_call_id", "content"}
 *						message a call.
 *	 openai_responses	OpenAI Responses: a response (output[]) or its output
 *						items, of which those of type "function_call"
 *						({call_id, name, arguments}, a JSON string).  Answer:
 *						one {"type": "function_call_output", "call_id",
 *						"output"} item a call.
 *	 anthropic			Anthropic Messages: a message (content[]) or its
 *						content blocks, of which the "tool_use" blocks ({id,
 *						name, input}).  Answer: one user message whose
 *						content is a "tool_result" block a call ({tool_use_id,
 *						content}, with is_error: true on failures).
 *	 gemini				Google Gemini: a GenerateContentResponse
 *						(candidates[0].content), a Content ({role, parts}) or
 *						its parts, of which the "functionCall" parts ({name,
 *						args, id}).  Answer: one user Content whose parts are a
 *						"functionResponse" ({name, response, id}) a call.
 *
 * The dialect is detected from the response's shape, or forced with the
 * option "dialect".  Calls run in order, each exactly as ai_tool_call() runs
 * it (its own subtransaction: one that fails changes nothing and does not
 * stop the others); the result is the call's answer, as JSON text where the
 * provider wants a string.  Arguments that are not a JSON object (a string
 * that does not parse, for OpenAI) answer invalid_parameters without
 * running anything.  Calls past neon_ai_tools.max_tool_calls answer
 * limit_exceeded, unrun: every call must get an answer, or the provider
 * refuses the next request.  All the calls share one deadline,
 * neon_ai_tools.run_timeout (0: the role's max_timeout): each runs with at
 * most the time left, and calls past it answer timeout, unrun.  A response
 * without tool calls answers [].
 *
 * IDENTIFICATION
 *		  src/core/tool_run.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "entry/entry.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

typedef enum RunDialect
{
	DIALECT_NONE,
	DIALECT_OPENAI_CHAT,
	DIALECT_OPENAI_RESPONSES,
	DIALECT_ANTHROPIC,
	DIALECT_GEMINI
} RunDialect;

static const struct
{
	const char *name;
	RunDialect	dialect;
}			dialect_names[] = {
	{"openai_chat", DIALECT_OPENAI_CHAT},
	{"openai", DIALECT_OPENAI_CHAT},
	{"openai_responses", DIALECT_OPENAI_RESPONSES},
	{"anthropic", DIALECT_ANTHROPIC},
	{"gemini", DIALECT_GEMINI},
};

/* one tool call found in the response */
typedef struct ModelCall
{
	char	   *id;				/* the provider's call id, or NULL */
	char	   *name;			/* the tool, "" when missing */
	Jsonb	   *args;			/* an object; NULL when bad_args is set */
	char	   *bad_args;		/* why the arguments were refused */
} ModelCall;

/*
 * A member of a jsonb container, or NULL.
 */
static JsonbValue *
get(JsonbContainer *c, const char *key)
{
	if (c == NULL || !JsonContainerIsObject(c))
		return NULL;
	return getKeyJsonValueFromContainer(c, key, strlen(key), NULL);
}

/* the container of an array or object value, or NULL */
static JsonbContainer *
container(JsonbValue *v, bool array)
{
	if (v == NULL || v->type != jbvBinary)
		return NULL;
	if (array ? !JsonContainerIsArray(v->val.binary.data) :
		!JsonContainerIsObject(v->val.binary.data))
		return NULL;
	return v->val.binary.data;
}

static char *
get_text(JsonbContainer *c, const char *key)
{
	JsonbValue *v = get(c, key);

	if (v == NULL || v->type != jbvString)
		return NULL;
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/*
 * Arguments given as a JSON object (Anthropic's input, Gemini's args): the
 * object; absent: {}; anything else is refused.
 */
static void
object_args(ModelCall *mc, JsonbValue *v)
{
	if (v == NULL || v->type == jbvNull)
		mc->args = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}")));
	else if (container(v, false))
		mc->args = JsonbValueToJsonb(v);
	else
		mc->bad_args = pstrdup("the arguments are not a JSON object");
}

/*
 * Arguments given as a JSON string (OpenAI): parsed without raising; an
 * object inside is taken as it is (some compatible servers send one).
 */
static void
string_args(ModelCall *mc, JsonbValue *v)
{
	char	   *str;

	if (v != NULL && v->type == jbvString)
	{
		str = pnstrdup(v->val.string.val, v->val.string.len);
		/* an empty string: a call without arguments */
		if (strspn(str, " \t\r\n") == strlen(str))
			str = pstrdup("{}");
		if (!nat_jsonb_in_safe(str, &mc->args))
		{
			mc->args = NULL;
			mc->bad_args = pstrdup("the arguments are not valid JSON");
			return;
		}
		if (!JB_ROOT_IS_OBJECT(mc->args) || JB_ROOT_IS_SCALAR(mc->args))
		{
			mc->args = NULL;
			mc->bad_args = pstrdup("the arguments are not a JSON object");
		}
		return;
	}
	object_args(mc, v);
}

static ModelCall *
new_call(char *id, char *name)
{
	ModelCall  *mc = palloc0(sizeof(ModelCall));

	mc->id = id;
	mc->name = name ? name : "";
	return mc;
}

/*
 * The elements of an array container, in order.
 */
static List *
elements(JsonbContainer *array)
{
	List	   *items = NIL;

	if (array == NULL)
		return NIL;
	for (int i = 0; i < JsonContainerSize(array); i++)
	{
		CHECK_FOR_INTERRUPTS();
		items = lappend(items, getIthJsonbValueFromContainer(array, i));
	}
	return items;
}

static List *
openai_chat_calls(JsonbContainer *root)
{
	JsonbContainer *message = root;
	JsonbContainer *choices = container(get(root, "choices"), true);
	List	   *calls = NIL;
	ListCell   *lc;

	/* a whole completion: the first choice's message */
	if (choices && JsonContainerSize(choices) > 0)
		message = container(get(container(getIthJsonbValueFromContainer(choices, 0), false),
								"message"), false);
	foreach(lc, elements(container(get(message, "tool_calls"), true)))
	{
		JsonbContainer *tc = container(lfirst(lc), false);
		JsonbContainer *fn = container(get(tc, "function"), false);
		ModelCall  *mc = new_call(get_text(tc, "id"), get_text(fn, "name"));

		string_args(mc, get(fn, "arguments"));
		calls = lappend(calls, mc);
	}
	return calls;
}

static List *
openai_responses_calls(JsonbContainer *root)
{
	JsonbContainer *output = JsonContainerIsArray(root) ? root :
		container(get(root, "output"), true);
	List	   *calls = NIL;
	ListCell   *lc;

	foreach(lc, elements(output))
	{
		JsonbContainer *item = container(lfirst(lc), false);
		char	   *type = get_text(item, "type");
		ModelCall  *mc;

		if (type == NULL || strcmp(type, "function_call") != 0)
			continue;
		mc = new_call(get_text(item, "call_id"), get_text(item, "name"));
		string_args(mc, get(item, "arguments"));
		calls = lappend(calls, mc);
	}
	return calls;
}

static List *
anthropic_calls(JsonbContainer *root)
{
	JsonbContainer *content = JsonContainerIsArray(root) ? root :
		container(get(root, "content"), true);
	List	   *calls = NIL;
	ListCell   *lc;

	foreach(lc, elements(content))
	{
		JsonbContainer *block = container(lfirst(lc), false);
		char	   *type = get_text(block, "type");
		ModelCall  *mc;

		if (type == NULL || strcmp(type, "tool_use") != 0)
			continue;
		mc = new_call(get_text(block, "id"), get_text(block, "name"));
		object_args(mc, get(block, "input"));
		calls = lappend(calls, mc);
	}
	return calls;
}

static List *
gemini_calls(JsonbContainer *root)
{
	JsonbContainer *content = root;
	JsonbContainer *candidates = container(get(root, "candidates"), true);
	JsonbContainer *parts;
	List	   *calls = NIL;
	ListCell   *lc;

	/* a whole response: the first candidate's content */
	if (candidates && JsonContainerSize(candidates) > 0)
		content = container(get(container(getIthJsonbValueFromContainer(candidates, 0), false),
								"content"), false);
	parts = JsonContainerIsArray(root) ? root : container(get(content, "parts"), true);
	foreach(lc, elements(parts))
	{
		JsonbContainer *fc = container(get(container(lfirst(lc), false), "functionCall"), false);
		ModelCall  *mc;

		if (fc == NULL)
			continue;
		mc = new_call(get_text(fc, "id"), get_text(fc, "name"));
		object_args(mc, get(fc, "args"));
		calls = lappend(calls, mc);
	}
	return calls;
}

/*
 * The dialect a response is written in, from its shape; DIALECT_NONE if
 * none fits.  An array is a list of items, blocks or parts: its first
 * element with a type tells.
 */
static RunDialect
detect_dialect(JsonbContainer *root)
{
	if (JsonContainerIsArray(root))
	{
		ListCell   *lc;

		foreach(lc, elements(root))
		{
			JsonbContainer *item = container(lfirst(lc), false);
			char	   *type = get_text(item, "type");

			if (get(item, "functionCall") || (get(item, "text") && type == NULL))
				return DIALECT_GEMINI;
			if (type && (strcmp(type, "function_call") == 0 ||
						 strcmp(type, "message") == 0 || strcmp(type, "reasoning") == 0))
				return DIALECT_OPENAI_RESPONSES;
			if (type && (strcmp(type, "tool_use") == 0 || strcmp(type, "text") == 0 ||
						 strcmp(type, "thinking") == 0))
				return DIALECT_ANTHROPIC;
		}
		return DIALECT_NONE;
	}
	if (get(root, "choices") || get(root, "tool_calls") ||
		(get_text(root, "role") && container(get(root, "content"), true) == NULL &&
		 get(root, "parts") == NULL))
		return DIALECT_OPENAI_CHAT;
	if (container(get(root, "output"), true))
		return DIALECT_OPENAI_RESPONSES;
	if (get(root, "candidates") || container(get(root, "parts"), true))
		return DIALECT_GEMINI;
	if (container(get(root, "content"), true))
		return DIALECT_ANTHROPIC;
	return DIALECT_NONE;
}

/*
 * The option "dialect", or DIALECT_NONE: detect it.
 */
static RunDialect
option_dialect(Jsonb *options)
{
	NatJsonbKeys keys;
	const char *k;
	int			klen;
	JsonbValue	v;
	RunDialect	dialect = DIALECT_NONE;

	if (!JB_ROOT_IS_OBJECT(options) || JB_ROOT_IS_SCALAR(options))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("ai_tool_run options must be a JSON object")));
	nat_jsonb_keys_begin(&keys, &options->root);
	while (nat_jsonb_next_key(&keys, &k, &klen, &v))
	{
		char	   *key = pnstrdup(k, klen);
		char	   *name;
		int			i;

		if (strcmp(key, "dialect") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unrecognized ai_tool_run option \"%s\"", nat_clip(key)),
					 errhint("The only option is \"dialect\".")));
		name = v.type == jbvString ? pnstrdup(v.val.string.val, v.val.string.len) : "";
		for (i = 0; i < lengthof(dialect_names); i++)
			if (strcmp(name, dialect_names[i].name) == 0)
				dialect = dialect_names[i].dialect;
		if (dialect == DIALECT_NONE)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unrecognized dialect \"%s\"", nat_clip(name)),
					 errhint("Valid dialects are \"openai_chat\", \"openai_responses\", \"anthropic\" and \"gemini\".")));
	}
	return dialect;
}

/*
 * An error answer for a call that was not run, in the envelope's shape.
 */
typedef enum UnrunReason
{
	UNRUN_TOO_MANY,				/* past max_tool_calls */
	UNRUN_BAD_ARGS,				/* arguments that are no JSON object */
	UNRUN_DEADLINE				/* past run_timeout */
} UnrunReason;

static Jsonb *
unrun_answer(const ModelCall *mc, UnrunReason reason, const char *message)
{
	StringInfoData buf;
	instr_time	start;

	INSTR_TIME_SET_CURRENT(start);
	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"success\":false,\"status\":\"error\",\"tool\":");
	escape_json(&buf, mc->name[0] ? nat_clip(mc->name) : "ai_tool_run");
	appendStringInfoString(&buf, ",\"error\":");
	escape_json(&buf, message);
	if (reason == UNRUN_TOO_MANY)
		appendStringInfo(&buf, ",\"errorType\":\"limit_exceeded\",\"error_type\":\"limit_exceeded\","
						 "\"retryable\":false,\"suggestion\":\"Make fewer tool calls in one response (at most %d); make this one again in the next turn.\"",
						 nat_max_tool_calls);
	else if (reason == UNRUN_DEADLINE)
		appendStringInfoString(&buf, ",\"errorType\":\"timeout\",\"error_type\":\"timeout\","
							   "\"retryable\":true,\"suggestion\":\"The calls before it used the time all the calls of one response share; make this one again in the next turn, or fewer or faster calls in one response.\"");
	else
		appendStringInfoString(&buf, ",\"errorType\":\"invalid_parameters\",\"error_type\":\"invalid_request\","
							   "\"retryable\":false,\"suggestion\":\"Pass the arguments as one JSON object that matches the tool's parameters.\"");
	/* nothing ran: the time it took to say so, as every answer has one */
	appendStringInfoString(&buf, ",\"executionTime\":");
	escape_json(&buf, nat_format_elapsed(start));
	appendStringInfoChar(&buf, '}');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

/*
 * Run one call (or answer why not) and return its answer.
 */
static Jsonb *
run_call(const ModelCall *mc, int index, TimestampTz deadline, int run_ms)
{
	long		secs;
	int			usecs;
	int64		left_ms;
	Jsonb	   *volatile answer = NULL;

	if (index >= nat_max_tool_calls)
		return unrun_answer(mc, UNRUN_TOO_MANY,
							psprintf("the response has more tool calls than the limit of %d; this one was not run",
									 nat_max_tool_calls));
	if (mc->bad_args)
		return unrun_answer(mc, UNRUN_BAD_ARGS, mc->bad_args);
	TimestampDifference(GetCurrentTimestamp(), deadline, &secs, &usecs);
	left_ms = (int64) secs * 1000 + usecs / 1000;
	if (left_ms < 1)
		return unrun_answer(mc, UNRUN_DEADLINE,
							psprintf("the tool calls of this response ran past their shared time limit of %d ms; this one was not run",
									 run_ms));
	nat_call_time_ceiling = (int) Min(left_ms, (int64) INT_MAX);
	PG_TRY();
	{
		answer = nat_run_tool_call(mc->name, mc->args, false);
	}
	PG_FINALLY();
	{
		nat_call_time_ceiling = 0;
	}
	PG_END_TRY();
	return answer;
}

static bool
answer_failed(Jsonb *answer)
{
	JsonbValue *v = get(&answer->root, "success");

	return v == NULL || v->type != jbvBool || !v->val.boolean;
}

static char *
answer_text(Jsonb *answer)
{
	return JsonbToCString(NULL, &answer->root, VARSIZE(answer));
}

/* append "key": value as a JSON string, or nothing for NULL */
static void
append_member(StringInfo buf, const char *key, const char *value, bool comma)
{
	if (value == NULL)
		return;
	if (comma)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
	escape_json(buf, value);
}

/*
 * The result of one call, in the dialect's shape.
 */
static void
append_result(StringInfo buf, RunDialect dialect, const ModelCall *mc,
			  Jsonb *answer)
{
	switch (dialect)
	{
		case DIALECT_OPENAI_CHAT:
			appendStringInfoString(buf, "{\"role\":\"tool\"");
			append_member(buf, "tool_call_id", mc->id ? mc->id : "", true);
			append_member(buf, "content", answer_text(answer), true);
			appendStringInfoChar(buf, '}');
			break;
		case DIALECT_OPENAI_RESPONSES:
			appendStringInfoString(buf, "{\"type\":\"function_call_output\"");
			append_member(buf, "call_id", mc->id ? mc->id : "", true);
			append_member(buf, "output", answer_text(answer), true);
			appendStringInfoChar(buf, '}');
			break;
		case DIALECT_ANTHROPIC:
			appendStringInfoString(buf, "{\"type\":\"tool_result\"");
			append_member(buf, "tool_use_id", mc->id ? mc->id : "", true);
			append_member(buf, "content", answer_text(answer), true);
			if (answer_failed(answer))
				appendStringInfoString(buf, ",\"is_error\":true");
			appendStringInfoChar(buf, '}');
			break;
		case DIALECT_GEMINI:
			appendStringInfoString(buf, "{\"functionResponse\":{");
			append_member(buf, "id", mc->id, false);
			append_member(buf, "name", mc->name, mc->id != NULL);
			appendStringInfoString(buf, ",\"response\":");
			appendStringInfoString(buf, answer_text(answer));
			appendStringInfoString(buf, "}}");
			break;
		case DIALECT_NONE:
			break;
	}
}

/*
 * ai_tool_run(response, options): the result messages of the response's
 * tool calls, in its dialect.
 */
Jsonb *
nat_run_model_response(Jsonb *response, Jsonb *options)
{
	RunDialect	dialect = option_dialect(options);
	JsonbContainer *root = &response->root;
	List	   *calls;
	StringInfoData buf;
	ListCell   *lc;
	bool		wrapped;
	int			run_ms;
	TimestampTz deadline;

	if (JB_ROOT_IS_SCALAR(response))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("model response must be a JSON object or array")));
	if (dialect == DIALECT_NONE)
		dialect = detect_dialect(root);
	if (dialect == DIALECT_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("model response is in no known dialect"),
				 errdetail("Expected an OpenAI chat completion or assistant message, an OpenAI Responses response, an Anthropic message or a Gemini response."),
				 errhint("Pass the provider's response as it came, or name its dialect in the options, e.g. '{\"dialect\": \"anthropic\"}'.")));

	calls = dialect == DIALECT_OPENAI_CHAT ? openai_chat_calls(root) :
		dialect == DIALECT_OPENAI_RESPONSES ? openai_responses_calls(root) :
		dialect == DIALECT_ANTHROPIC ? anthropic_calls(root) :
		gemini_calls(root);

	/* Anthropic and Gemini answer with one message holding every result */
	wrapped = dialect == DIALECT_ANTHROPIC || dialect == DIALECT_GEMINI;
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	if (calls != NIL && wrapped)
		appendStringInfo(&buf, "{\"role\":\"user\",\"%s\":[",
						 dialect == DIALECT_ANTHROPIC ? "content" : "parts");
	/* one deadline for every call of the response */
	run_ms = nat_run_timeout_ms > 0 ? Min(nat_run_timeout_ms, nat_max_timeout_ms) :
		nat_max_timeout_ms;
	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), run_ms);
	foreach(lc, calls)
	{
		ModelCall  *mc = lfirst(lc);

		CHECK_FOR_INTERRUPTS();
		if (foreach_current_index(lc) > 0)
			appendStringInfoChar(&buf, ',');
		append_result(&buf, dialect, mc,
					  run_call(mc, foreach_current_index(lc), deadline, run_ms));
	}
	if (calls != NIL && wrapped)
		appendStringInfoString(&buf, "]}");
	appendStringInfoChar(&buf, ']');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}
