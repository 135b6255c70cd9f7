/*-------------------------------------------------------------------------
 *
 * value_near_miss.c
 *		  The value an agent probably meant, when its type refused the one
 *		  it gave.
 *
 * Agents write values as people do: dates as 11/27/2026 or 27.11.2026,
 * numbers with thousands separators ("1,000", "1.000,50", "$1,000"),
 * booleans as "enabled", enum labels in the wrong case or spelling
 * ("Shipped", "canceled"), values wrapped in SQL quotes ("'2026-11-27'")
 * or spaces, the string "null" for JSON null.  For these the answer offers
 * the converted value as a suggestion; nothing is ever applied silently.
 *
 * Each candidate derives from the agent's own value and is checked with
 * the type's input function (of the base type, for a domain: a domain's
 * CHECK may call user functions, which an error answer does not run)
 * before it is offered, so an offer is always a value the type accepts.
 * A date that reads two ways (03/04/2026) gets both readings and no
 * single did-you-mean.  Integers get a note for NaN and Infinity, which
 * they cannot hold.
 *
 * IDENTIFICATION
 *		  src/answer/value_near_miss.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "answer/answer.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/formatting.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

/* labels of an enum compared with the value given, at most */
#define ENUM_LABELS_MATCHED 1000

/*
 * Run fn(arg) and say whether it finished without an error; an error is
 * swallowed with its subtransaction (a cancel is raised again).  For
 * input functions and type names, called while an error answer is built.
 */
bool
nat_run_safely(void (*fn) (void *), void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ErrorData  *volatile edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		fn(arg);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	if (edata == NULL)
		ReleaseCurrentSubTransaction();
	else
		RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	if (edata != NULL && edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
		ReThrowError(edata);
	return edata == NULL;
}

typedef struct InputCheck
{
	Oid			typid;
	int32		typmod;
	const char *text;
} InputCheck;

static void
input_check(void *arg)
{
	InputCheck *check = arg;
	Oid			infunc;
	Oid			ioparam;

	getTypeInputInfo(check->typid, &infunc, &ioparam);
	(void) OidInputFunctionCall(infunc, (char *) check->text, ioparam,
								check->typmod);
}

/*
 * Does the input function of typid accept text?
 */
static bool
input_accepts(Oid typid, int32 typmod, const char *str)
{
	InputCheck	check = {typid, typmod, str};

	return nat_run_safely(input_check, &check);
}

/*
 * Add a candidate (and what its reading assumes, or NULL) unless it is
 * empty (never a value to offer: did_you_mean is never empty), the value
 * given, or already offered.
 */
static void
add_candidate(NearMiss *nm, const char *given, char *value, const char *reading)
{
	if (nm->count >= 2 || value[0] == '\0' || strcmp(value, given) == 0)
		return;
	if (nm->count == 1 && strcmp(nm->values[0], value) == 0)
		return;
	nm->values[nm->count] = value;
	nm->readings[nm->count] = reading;
	nm->count++;
}

/*
 * The value without surrounding spaces and one pair of surrounding quotes
 * ('...', "...", `...`): an agent writing a SQL literal into a JSON value.
 */
static char *
unwrapped(const char *given)
{
	const char *start = given;
	const char *end = given + strlen(given);
	bool		quoted = false;

	for (;;)
	{
		while (start < end && isspace((unsigned char) *start))
			start++;
		while (end > start && isspace((unsigned char) end[-1]))
			end--;
		if (quoted || end - start < 2 || *start != end[-1] ||
			strchr("'\"`", *start) == NULL)
			break;
		start++;
		end--;
		quoted = true;
	}
	return pnstrdup(start, end - start);
}

/*
 * Parse d1 SEP d2 SEP yyyy at the start of s (SEP one of / . -, the same
 * twice); *rest is what follows (nothing, or a time after a space or T).
 */
static bool
parse_dmy(const char *s, int *a, int *b, int *year, const char **rest)
{
	int			n[3] = {0, 0, 0};
	int			len[3] = {0, 0, 0};
	char		sep = '\0';
	const char *p = s;

	for (int f = 0; f < 3; f++)
	{
		while (isdigit((unsigned char) *p) && len[f] < 5)
		{
			n[f] = n[f] * 10 + (*p++ - '0');
			len[f]++;
		}
		if (f == 2)
			break;
		if (sep == '\0' && (*p == '/' || *p == '.' || *p == '-'))
			sep = *p;
		if (*p != sep)
			return false;
		p++;
	}
	if (len[0] < 1 || len[0] > 2 || len[1] < 1 || len[1] > 2 || len[2] != 4)
		return false;
	if (*p != '\0' && *p != ' ' && *p != 'T')
		return false;
	*a = n[0];
	*b = n[1];
	*year = n[2];
	*rest = p;
	return true;
}

static bool
valid_date(int year, int month, int day)
{
	return year >= 1 && month >= 1 && month <= 12 && day >= 1 &&
		day <= day_tab[isleap(year)][month - 1];
}

/*
 * US (month first) and European (day first) dates as year-month-day,
 * the time after them kept: one candidate, or two when both readings are
 * dates.
 */
static void
date_candidates(NearMiss *nm, const char *given, const char *s)
{
	int			a,
				b,
				year;
	const char *rest;
	bool		us,
				eu;

	if (!parse_dmy(s, &a, &b, &year, &rest))
		return;
	us = valid_date(year, a, b);
	eu = valid_date(year, b, a) && a != b;
	if (us)
		add_candidate(nm, given, psprintf("%04d-%02d-%02d%s", year, a, b, rest),
					  eu ? "if the month comes first" : NULL);
	if (eu)
		add_candidate(nm, given, psprintf("%04d-%02d-%02d%s", year, b, a, rest),
					  us ? "if the day comes first" : NULL);
}

/*
 * Is every group after the first of s (digits separated by sep, the first
 * 1 to 3 digits) exactly three digits long?  "1,000,000" yes, "10,00" no.
 */
static bool
thousands_groups(const char *s, int len, char sep)
{
	int			group = 0;
	bool		first = true;

	for (int i = 0; i <= len; i++)
	{
		if (i == len || s[i] == sep)
		{
			if ((first && (group < 1 || group > 3)) || (!first && group != 3))
				return false;
			first = false;
			group = 0;
		}
		else if (isdigit((unsigned char) s[i]))
			group++;
		else
			return false;
	}
	return true;
}

/*
 * A number written with a currency sign, thousands separators (comma,
 * point, space, apostrophe, underscore) or a decimal comma, in plain form:
 * "$1,000.50" and "1.000,50" give "1000.50", "1 000" gives "1000", "1,5"
 * gives "1.5".  The last point or comma is the decimal separator when it
 * is the only one of its kind and either the other kind comes before it
 * or it is not followed by exactly three digits; "1.000" (one, or one
 * thousand) is left as it is.  NULL when it is not such a number, or its
 * groups are not of three digits.
 */
static char *
plain_number(const char *s)
{
	StringInfoData buf;
	const char *p = s;
	const char *end;
	const char *dec = NULL;
	const char *whole_end;
	const char *q;
	char		group = '\0';

	initStringInfo(&buf);
	if (*p == '-' || *p == '+')
		appendStringInfoChar(&buf, *p++);
	if (*p == '$')
		p++;
	else if (strncmp(p, "\xe2\x82\xac", 3) == 0)
		p += 3;					/* euro */
	else if (strncmp(p, "\xc2\xa3", 2) == 0)
		p += 2;					/* pound */
	end = p + strlen(p);
	if (end - p > 64 || !isdigit((unsigned char) *p))
		return NULL;
	if (strspn(p, "0123456789.,' _") != (size_t) (end - p))
		return NULL;
	for (q = end - 1; q > p && *q != '.' && *q != ','; q--)
		;
	if (q > p && strchr(p, *q) == q)
	{
		bool		other = strchr(p, *q == '.' ? ',' : '.') != NULL;

		if (other || end - q - 1 != 3)
			dec = q;
		else if (*q == '.')
			return NULL;
	}
	whole_end = dec ? dec : end;
	for (q = p; q < whole_end; q++)
		if (!isdigit((unsigned char) *q))
		{
			if (group != '\0' && *q != group)
				return NULL;
			group = *q;
		}
	if (group != '\0' && !thousands_groups(p, whole_end - p, group))
		return NULL;
	for (q = p; q < whole_end; q++)
		if (isdigit((unsigned char) *q))
			appendStringInfoChar(&buf, *q);
	if (dec != NULL)
	{
		if (strspn(dec + 1, "0123456789") != (size_t) (end - dec - 1))
			return NULL;
		appendStringInfo(&buf, ".%s", dec + 1);
	}
	return buf.data;
}

/*
 * Candidates for a number: the plain form of the given one; for an
 * integer, without a zero fraction ("18.0").  A note for NaN and Infinity
 * when the type is an integer.
 */
static void
number_candidates(NearMiss *nm, const char *given, const char *s, bool integer)
{
	char	   *plain;

	const char *unsigned_s = s + (*s == '-' || *s == '+');

	if (integer && (pg_strcasecmp(s, "nan") == 0 ||
					pg_strcasecmp(unsigned_s, "inf") == 0 ||
					pg_strcasecmp(unsigned_s, "infinity") == 0))
	{
		nm->note = "Integers have no NaN or Infinity (JSON null marks a missing value).";
		return;
	}
	plain = plain_number(s);
	if (plain == NULL)
		return;
	if (integer)
	{
		char	   *point = strchr(plain, '.');

		if (point != NULL && strspn(point + 1, "0") == strlen(point + 1))
			*point = '\0';
	}
	add_candidate(nm, given, plain, NULL);
}

/*
 * A boolean the input function refuses but people write.
 */
static void
boolean_candidates(NearMiss *nm, const char *given, const char *s)
{
	static const char *const truths[] = {"enabled", "enable", "active", "1.0", "checked"};
	static const char *const lies[] = {"disabled", "disable", "inactive", "0.0", "unchecked"};

	for (int i = 0; i < lengthof(truths); i++)
	{
		if (pg_strcasecmp(s, truths[i]) == 0)
			add_candidate(nm, given, pstrdup("true"), NULL);
		if (pg_strcasecmp(s, lies[i]) == 0)
			add_candidate(nm, given, pstrdup("false"), NULL);
	}
}

/*
 * The label of an enum meant by s: the same label but for case (one
 * only), else the closest by edit distance among the first
 * ENUM_LABELS_MATCHED.
 */
static void
enum_candidates(NearMiss *nm, const char *given, const char *s, Oid enumtypid)
{
	bool		more;
	List	   *labels = nat_enum_labels(enumtypid, ENUM_LABELS_MATCHED, &more);
	const char **names = palloc(sizeof(char *) * Max(list_length(labels), 1));
	const char *same_case = NULL;
	int			same_count = 0;
	const char *close;
	ListCell   *lc;

	foreach(lc, labels)
	{
		names[foreach_current_index(lc)] = lfirst(lc);
		if (strcmp(lfirst(lc), s) == 0)
		{
			add_candidate(nm, given, lfirst(lc), NULL);
			return;
		}
		if (pg_strcasecmp(lfirst(lc), s) == 0)
		{
			same_case = lfirst(lc);
			same_count++;
		}
	}
	if (same_count == 1)
	{
		add_candidate(nm, given, pstrdup(same_case), NULL);
		return;
	}
	if (same_count > 1)
		return;					/* "A" and "a" both exist: no guess */
	close = nat_closest_word(asc_tolower(s, strlen(s)), names, list_length(labels));
	if (close != NULL)
		add_candidate(nm, given, pstrdup(close), NULL);
}

/*
 * What the agent probably meant by given, a value of type typid (typmod)
 * that its input function refused: up to two candidates, each accepted by
 * the type, or a note.  nm is filled in; nm->count 0 when there is no
 * likely meaning ("eighteen").
 */
void
nat_value_near_miss(Oid typid, int32 typmod, const char *given, NearMiss *nm)
{
	int32		basetypmod = typmod;
	Oid			base = getBaseTypeAndTypmod(typid, &basetypmod);
	char	   *s;
	int			n = 0;

	memset(nm, 0, sizeof(NearMiss));
	if (given == NULL)
		return;
	s = unwrapped(given);
	if (pg_strcasecmp(s, "null") == 0 || pg_strcasecmp(s, "none") == 0)
	{
		nm->use_null = true;
		return;
	}
	if (type_is_enum(base))
		enum_candidates(nm, given, s, base);
	else if (base == DATEOID || base == TIMESTAMPOID || base == TIMESTAMPTZOID)
		date_candidates(nm, given, s);
	else if (base == INT2OID || base == INT4OID || base == INT8OID ||
			 base == NUMERICOID || base == FLOAT4OID || base == FLOAT8OID ||
			 base == MONEYOID)
		number_candidates(nm, given, s,
						  base == INT2OID || base == INT4OID || base == INT8OID);
	else if (base == BOOLOID)
		boolean_candidates(nm, given, s);
	if (nm->count == 0 && nm->note == NULL)
		add_candidate(nm, given, s, NULL);	/* only unwrapped */

	/* only what the type accepts is offered */
	for (int i = 0; i < nm->count; i++)
		if (input_accepts(base, basetypmod, nm->values[i]))
		{
			nm->values[n] = nm->values[i];
			nm->readings[n] = nm->readings[i];
			n++;
		}
	nm->count = n;
	if (n == 1)
		nm->readings[0] = NULL;
}
