/*-------------------------------------------------------------------------
 *
 * rawjson.c
 *	  A message's JSON text as the client sent it: checks json-c does not
 *	  make, and the exact text of values inside it.
 *
 * json-c builds the tree the program reads, but two things must come from
 * the text itself:
 *
 *	- Validity.  json-c's UTF-8 check accepts overlong forms ("\xc0\xaf"),
 *	  UTF-16 surrogates and code points past U+10FFFF, its strict mode
 *	  still takes raw control characters inside strings, and from 0.17 on
 *	  it refuses valid numbers beyond 64 bits.  mcp_json_check() checks the
 *	  grammar and the encoding itself, so what is echoed to stdout is valid
 *	  UTF-8 and valid JSON, and json-c only builds the tree.
 *	- Exact values.  json-c keeps numbers as 64-bit integers or doubles
 *	  (123456789012345678901234567890 becomes 18446744073709551615) and
 *	  replaces unpaired \u surrogate escapes.  A tool's arguments and a
 *	  request's id are therefore taken from the text (mcp_json_member()),
 *	  not re-encoded from the tree.
 *
 * The span functions run only on text mcp_json_check() has accepted, but
 * they never read past the end they are given, whatever the text.
 *
 * IDENTIFICATION
 *	  src/mcp/protocol/rawjson.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

typedef struct Grammar
{
	const char *start;			/* the message */
	const char *end;
	int			max_depth;
	long		values_left;	/* values still allowed; < 0: no limit */
	long		containers_left;	/* objects and arrays still allowed */
	const char *error_at;		/* set on failure */
	const char *reason;
} Grammar;

static bool check_text(const char *txt, size_t len, int max_depth,
					   long max_values, long max_containers,
					   size_t *offset, const char **reason);
static bool grammar_value(Grammar *g, const char **pp, int depth);
static bool grammar_string(Grammar *g, const char **pp);
static bool grammar_number(Grammar *g, const char **pp);
static bool grammar_fail(Grammar *g, const char *at, const char *reason);
static const char *skip_space(const char *p, const char *end);
static const char *skip_string(const char *p, const char *end);
static const char *skip_value(const char *p, const char *end);
static bool key_equals(const char *start, const char *end, const char *key);
static size_t utf8_sequence(const unsigned char *p, const unsigned char *end);

/*
 * Check that text is one JSON value (RFC 8259, surrounding whitespace
 * allowed, nested at most max_depth deep) in UTF-8 (RFC 3629: shortest
 * form only, no surrogates, at most U+10FFFF).  Returns true when it is
 * fine; otherwise sets *offset to the first offending byte and *reason to
 * a short description.
 *
 * The grammar is checked here rather than by json-c's strict mode: that
 * lets raw control characters through, and newer json-c (0.17 on) refuses
 * numbers beyond 64 bits in it, which are valid JSON and must reach the
 * server as sent.
 */
bool
mcp_json_check(const char *txt, size_t len, int max_depth, size_t *offset,
			   const char **reason)
{
	return check_text(txt, len, max_depth, -1, -1, offset, reason);
}

/*
 * mcp_json_check() for a message json-c will build a tree of: also at most
 * MCP_MAX_MESSAGE_VALUES values, of which at most MCP_MAX_MESSAGE_CONTAINERS
 * objects and arrays.  json-c spends about 70 bytes on a scalar and about
 * 800 on an object, so "[{},{},...]" in 3 MB would take 800 MB; with these
 * limits a message's tree stays under about 25 MB.
 */
bool
mcp_json_check_message(const char *txt, size_t len, int max_depth,
					   size_t *offset, const char **reason)
{
	return check_text(txt, len, max_depth, MCP_MAX_MESSAGE_VALUES,
					  MCP_MAX_MESSAGE_CONTAINERS, offset, reason);
}

static bool
check_text(const char *txt, size_t len, int max_depth, long max_values,
		   long max_containers, size_t *offset, const char **reason)
{
	Grammar		g;
	const char *p = txt;

	if (!mcp_json_check_utf8(txt, len, offset, reason))
		return false;
	g.start = txt;
	g.end = txt + len;

	g.values_left = max_values;
	g.containers_left = max_containers;
	g.max_depth = max_depth;
	g.error_at = NULL;
	g.reason = NULL;
	if (grammar_value(&g, &p, 0))
	{
		p = skip_space(p, g.end);
		if (p == g.end)
			return true;
		grammar_fail(&g, p, "unexpected characters after the JSON value");
	}
	*offset = (size_t) (g.error_at - txt);
	*reason = g.reason;
	return false;
}

/*
 * The encoding part of mcp_json_check(), and no raw control character in a
 * string.
 */
bool
mcp_json_check_utf8(const char *txt, size_t len, size_t *offset,
					const char **reason)
{
	const unsigned char *start = (const unsigned char *) txt;
	const unsigned char *end = start + len;
	const unsigned char *p = start;
	bool		in_string = false;

	while (p < end)
	{
		size_t		n;

		if (*p < 0x80)
		{
			if (in_string && *p < 0x20)
			{
				*offset = (size_t) (p - start);
				*reason = "unescaped control character in a string";
				return false;
			}
			if (*p == '"')
				in_string = !in_string;
			else if (*p == '\\' && in_string && p + 1 < end && p[1] < 0x80)
			{
				/* an escape: the next byte neither ends nor starts anything */
				if (p[1] < 0x20)
				{
					*offset = (size_t) (p + 1 - start);
					*reason = "unescaped control character in a string";
					return false;
				}
				p++;
			}
			p++;
			continue;
		}
		n = utf8_sequence(p, end);
		if (n == 0)
		{
			*offset = (size_t) (p - start);
			*reason = "invalid UTF-8";
			return false;
		}
		p += n;
	}
	return true;
}

/*
 * Find the member called key in the JSON object whose text is object
 * (object_len bytes), and set *value and *value_len to the exact text of
 * its value.  When the key occurs more than once the last one counts, as in
 * json-c and in PostgreSQL's jsonb.  Returns false when there is no such
 * member (or the text is not an object).
 */
bool
mcp_json_member(const char *object, size_t object_len, const char *key,
				const char **value, size_t *value_len)
{
	const char *end = object + object_len;
	const char *p = skip_space(object, end);
	bool		found = false;

	if (p >= end || *p != '{')
		return false;
	p = skip_space(p + 1, end);
	if (p < end && *p == '}')
		return false;
	while (p < end)
	{
		const char *key_start = p;
		const char *key_end;
		const char *value_start;

		if (*p != '"' || (p = skip_string(p, end)) == NULL)
			return false;
		key_end = p;
		p = skip_space(p, end);
		if (p >= end || *p != ':')
			return false;
		value_start = p = skip_space(p + 1, end);
		if ((p = skip_value(p, end)) == NULL || p == value_start)
			return false;
		if (key_equals(key_start, key_end, key))
		{
			*value = value_start;
			*value_len = (size_t) (p - value_start);
			found = true;
		}
		p = skip_space(p, end);
		if (p < end && *p == ',')
		{
			p = skip_space(p + 1, end);
			continue;
		}
		if (p < end && *p == '}')
			return found;
		return false;
	}
	return false;
}

/*
 * Split the text of a JSON array into the texts of its elements: returns
 * how many there are, with their starts and lengths in freshly allocated
 * arrays (*starts and *lens; free both), or -1 when the text is not an
 * array.
 */
long
mcp_json_elements(const char *array, size_t array_len,
				  const char ***starts, size_t **lens)
{
	const char *end = array + array_len;
	const char *p = skip_space(array, end);
	size_t		n = 0;
	size_t		cap = 16;

	*starts = NULL;
	*lens = NULL;
	if (p >= end || *p != '[')
		return -1;
	*starts = mcp_malloc(cap * sizeof(**starts));
	*lens = mcp_malloc(cap * sizeof(**lens));
	p = skip_space(p + 1, end);
	if (p < end && *p == ']')
		return 0;
	while (p < end)
	{
		const char *start = p;

		if ((p = skip_value(p, end)) == NULL || p == start)
			break;
		if (n == cap)
		{
			cap *= 2;
			*starts = mcp_realloc(*starts, cap * sizeof(**starts));
			*lens = mcp_realloc(*lens, cap * sizeof(**lens));
		}
		(*starts)[n] = start;
		(*lens)[n] = (size_t) (p - start);
		n++;
		p = skip_space(p, end);
		if (p < end && *p == ',')
		{
			p = skip_space(p + 1, end);
			continue;
		}
		if (p < end && *p == ']')
			return (long) n;
		break;
	}
	free(*starts);
	free(*lens);
	*starts = NULL;
	*lens = NULL;
	return -1;
}

/*
 * The elements of a JSON array (checked already), one at a time: *pos
 * starts at 0; each call sets *start and *len to the next element and
 * returns true, or returns false after the last.
 */
bool
mcp_json_next_element(const char *array, size_t array_len, size_t *pos,
					  const char **start, size_t *len)
{
	const char *end = array + array_len;
	const char *p = array + *pos;
	const char *after;

	p = skip_space(p, end);
	if (p < end && (*p == '[' || *p == ','))
		p = skip_space(p + 1, end);
	if (p >= end || *p == ']')
		return false;
	if ((after = skip_value(p, end)) == NULL || after == p)
		return false;
	*start = p;
	*len = (size_t) (after - p);
	*pos = (size_t) (after - array);
	return true;
}

/*
 * The members of a JSON object (checked already), one at a time: *pos
 * starts at 0; each call sets *key and *key_len to the next member's key
 * as it is written (quotes and escapes included) and *value and
 * *value_len to its value's text, and returns true, or returns false after
 * the last.
 */
bool
mcp_json_next_member(const char *object, size_t object_len, size_t *pos,
					 const char **key, size_t *key_len,
					 const char **value, size_t *value_len)
{
	const char *end = object + object_len;
	const char *p = skip_space(object + *pos, end);
	const char *after;

	if (p < end && (*p == '{' || *p == ','))
		p = skip_space(p + 1, end);
	if (p >= end || *p != '"' || (after = skip_string(p, end)) == NULL)
		return false;
	*key = p;
	*key_len = (size_t) (after - p);
	p = skip_space(after, end);
	if (p >= end || *p != ':')
		return false;
	p = skip_space(p + 1, end);
	if ((after = skip_value(p, end)) == NULL || after == p)
		return false;
	*value = p;
	*value_len = (size_t) (after - p);
	*pos = (size_t) (after - object);
	return true;
}

/*
 * Append the JSON text text/len to out without the whitespace between its
 * tokens; strings and numbers are copied byte for byte.  out must have
 * room for len bytes; returns how many were written.
 */
size_t
mcp_json_minify(const char *txt, size_t len, char *out)
{
	const char *p = txt;
	const char *end = txt + len;
	char	   *o = out;

	while (p < end)
	{
		if (*p == '"')
		{
			const char *after = skip_string(p, end);

			if (after == NULL)
				after = end;
			memcpy(o, p, (size_t) (after - p));
			o += after - p;
			p = after;
		}
		else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		else
			*o++ = *p++;
	}
	return (size_t) (o - out);
}

/*
 * Is text/len a JSON integer (no fraction, no exponent) within the signed
 * 64-bit range?
 */
bool
mcp_json_is_int64(const char *txt, size_t len)
{
	const char *limit;
	size_t		digits;
	size_t		i;

	if (len > 0 && txt[0] == '-')
	{
		limit = "9223372036854775808";
		txt++;
		len--;
	}
	else
		limit = "9223372036854775807";
	digits = len;
	if (digits == 0 || (txt[0] == '0' && digits > 1))
		return false;
	for (i = 0; i < digits; i++)
		if (txt[i] < '0' || txt[i] > '9')
			return false;
	/* same number of digits as the limit: compare as strings */
	return digits < strlen(limit) ||
		(digits == strlen(limit) && memcmp(txt, limit, digits) <= 0);
}

/*
 * Does the string token text/len (quotes included) stand for valid
 * Unicode, that is, is every \u escape of a UTF-16 surrogate part of a
 * pair?  json-c replaces an unpaired one with U+FFFD, and many parsers
 * refuse it.
 */
bool
mcp_json_string_is_unicode(const char *txt, size_t len)
{
	const char *end = txt + len;
	const char *p;
	bool		need_low = false;

	for (p = txt; p < end; p++)
	{
		unsigned long code;
		char		hex[5];

		if (*p != '\\' || p + 1 >= end)
		{
			if (need_low)
				return false;
			continue;
		}
		if (p[1] != 'u' || end - p < 6)
		{
			if (need_low)
				return false;
			p++;				/* a one-character escape */
			continue;
		}
		memcpy(hex, p + 2, 4);
		hex[4] = '\0';
		code = strtoul(hex, NULL, 16);
		if (code >= 0xDC00 && code <= 0xDFFF)
		{
			if (!need_low)
				return false;
			need_low = false;
		}
		else if (need_low)
			return false;
		else if (code >= 0xD800 && code <= 0xDBFF)
			need_low = true;
		p += 5;
	}
	return !need_low;
}

/*
 * One value at *pp (whitespace before it skipped); *pp is left after it.
 */
static bool
grammar_value(Grammar *g, const char **pp, int depth)
{
	const char *p = skip_space(*pp, g->end);
	char		close;

	if (p == g->end)
		return grammar_fail(g, p, "unexpected end of message");
	if (g->values_left >= 0 && g->values_left-- == 0)
		return grammar_fail(g, p, "more JSON values than a message may have");
	switch (*p)
	{
		case '"':
			*pp = p;
			return grammar_string(g, pp);
		case '{':
		case '[':
			if (g->containers_left >= 0 && g->containers_left-- == 0)
				return grammar_fail(g, p, "more objects and arrays than a message may have");
			close = *p == '{' ? '}' : ']';
			if (depth + 1 > g->max_depth)
				return grammar_fail(g, p, "nesting too deep");
			p = skip_space(p + 1, g->end);
			if (p < g->end && *p == close)
			{
				*pp = p + 1;
				return true;
			}
			for (;;)
			{
				if (close == '}')
				{
					p = skip_space(p, g->end);
					if (p == g->end)
						return grammar_fail(g, p, "unexpected end of message");
					if (*p != '"')
						return grammar_fail(g, p, "object key expected");
					if (!grammar_string(g, &p))
						return false;
					p = skip_space(p, g->end);
					if (p == g->end)
						return grammar_fail(g, p, "unexpected end of message");
					if (*p != ':')
						return grammar_fail(g, p, "colon expected");
					p++;
				}
				if (!grammar_value(g, &p, depth + 1))
					return false;
				p = skip_space(p, g->end);
				if (p == g->end)
					return grammar_fail(g, p, "unexpected end of message");
				if (*p == close)
				{
					*pp = p + 1;
					return true;
				}
				if (*p != ',')
					return grammar_fail(g, p, "comma or end of container expected");
				p++;
			}
		case 't':
		case 'f':
		case 'n':
			{
				const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
				size_t		n = strlen(word);

				if ((size_t) (g->end - p) < n || memcmp(p, word, n) != 0)
					return grammar_fail(g, p, "unexpected character");
				*pp = p + n;
				return true;
			}
		default:
			if (*p == '-' || (*p >= '0' && *p <= '9'))
			{
				*pp = p;
				return grammar_number(g, pp);
			}
			return grammar_fail(g, p, "unexpected character");
	}
}

/*
 * A string at *pp (its opening quote); control characters and the
 * encoding were checked before.
 */
static bool
grammar_string(Grammar *g, const char **pp)
{
	const char *p;

	for (p = *pp + 1; p < g->end; p++)
	{
		if (*p == '"')
		{
			*pp = p + 1;
			return true;
		}
		if (*p != '\\')
			continue;
		if (++p == g->end)
			break;
		if (*p == 'u')
		{
			int			i;

			for (i = 1; i <= 4; i++)
				if (p + i >= g->end ||
					!((p[i] >= '0' && p[i] <= '9') ||
					  (p[i] >= 'a' && p[i] <= 'f') ||
					  (p[i] >= 'A' && p[i] <= 'F')))
					return grammar_fail(g, p - 1, "invalid \\u escape");
			p += 4;
		}
		else if (strchr("\"\\/bfnrt", *p) == NULL || *p == '\0')
			return grammar_fail(g, p - 1, "invalid escape");
	}
	return grammar_fail(g, g->end, "unexpected end of message");
}

/*
 * A number at *pp: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, of any
 * size (the server reads it as numeric).
 */
static bool
grammar_number(Grammar *g, const char **pp)
{
	const char *p = *pp;
	const char *e = g->end;

	if (*p == '-')
		p++;
	if (p < e && *p == '0')
		p++;
	else if (p < e && *p >= '1' && *p <= '9')
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	else
		return grammar_fail(g, p, "invalid number");
	if (p < e && *p == '.')
	{
		if (++p == e || *p < '0' || *p > '9')
			return grammar_fail(g, p, "invalid number");
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < e && (*p == 'e' || *p == 'E'))
	{
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (p == e || *p < '0' || *p > '9')
			return grammar_fail(g, p, "invalid number");
		while (p < e && *p >= '0' && *p <= '9')
			p++;
	}
	*pp = p;
	return true;
}

/*
 * Record a failure at position at; returns false.
 */
static bool
grammar_fail(Grammar *g, const char *at, const char *reason)
{
	g->error_at = at;
	g->reason = reason;
	return false;
}

/*
 * JSON whitespace.
 */
static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * p is at a string's opening quote; returns the position after its
 * closing quote, or NULL when the string does not end.
 */
static const char *
skip_string(const char *p, const char *end)
{
	for (p++; p < end; p++)
	{
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/*
 * p is at the start of a value; returns the position just after it, or
 * NULL when it does not end before end.
 */
static const char *
skip_value(const char *p, const char *end)
{
	if (p >= end)
		return NULL;
	if (*p == '"')
		return skip_string(p, end);
	if (*p == '{' || *p == '[')
	{
		size_t		depth = 0;

		while (p < end)
		{
			if (*p == '"')
			{
				if ((p = skip_string(p, end)) == NULL)
					return NULL;
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if ((*p == '}' || *p == ']') && --depth == 0)
				return p + 1;
			p++;
		}
		return NULL;
	}
	/* a number, true, false or null: up to the next delimiter */
	while (p < end && *p != ',' && *p != '}' && *p != ']' &&
		   *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
		p++;
	return p;
}

/*
 * Does the string token start..end (quotes included) decode to key?  Keys
 * with escapes ("argum\u0065nts") are decoded by json-c.
 */
static bool
key_equals(const char *start, const char *end, const char *key)
{
	size_t		len = (size_t) (end - start);
	size_t		key_len = strlen(key);
	json_tokener *tok;
	json_object *decoded;
	bool		equal = false;

	if (memchr(start, '\\', len) == NULL)
		return len == key_len + 2 && memcmp(start + 1, key, key_len) == 0;

	tok = json_tokener_new();
	decoded = json_tokener_parse_ex(tok, start, (int) len);
	if (decoded != NULL && json_object_is_type(decoded, json_type_string))
		equal = (size_t) json_object_get_string_len(decoded) == key_len &&
			memcmp(json_object_get_string(decoded), key, key_len) == 0;
	json_object_put(decoded);
	json_tokener_free(tok);
	return equal;
}

/*
 * The length of the well-formed UTF-8 sequence of two to four bytes at p
 * (RFC 3629, table 3-7 of the Unicode standard), or 0 when it is not one.
 */
static size_t
utf8_sequence(const unsigned char *p, const unsigned char *end)
{
	unsigned char lo = 0x80;
	unsigned char hi = 0xBF;
	size_t		n;
	size_t		i;

	if (*p >= 0xC2 && *p <= 0xDF)
		n = 2;
	else if (*p >= 0xE0 && *p <= 0xEF)
	{
		n = 3;
		if (*p == 0xE0)
			lo = 0xA0;			/* no overlong forms */
		else if (*p == 0xED)
			hi = 0x9F;			/* no surrogates */
	}
	else if (*p >= 0xF0 && *p <= 0xF4)
	{
		n = 4;
		if (*p == 0xF0)
			lo = 0x90;			/* no overlong forms */
		else if (*p == 0xF4)
			hi = 0x8F;			/* nothing past U+10FFFF */
	}
	else
		return 0;				/* 80-C1 and F5-FF never start one */
	if ((size_t) (end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return n;
}
