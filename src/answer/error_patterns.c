/*-------------------------------------------------------------------------
 *
 * error_patterns.c
 *		  Error text from any database, classified: ai_error_info() and the
 *		  message-pattern layer of the error answers.
 *
 * Errors are classified (README, "Results") in three layers: the SQLSTATE, the
 * structured fields of PostgreSQL's ErrorData, then message patterns.  This
 * file is the last layer, and the whole classifier for error text that
 * comes without ErrorData: text reported by PostgreSQL clients, MySQL and
 * SeekDB/OceanBase (MySQL and Oracle modes), as an n8n workflow or an MCP
 * client sees it.
 *
 * For ai_error_info(message, code):
 *
 *	 1. secrets are masked (URI passwords, password=..., IDENTIFIED BY '...'),
 *		before anything else reads the text, so no field can echo them;
 *	 2. the code, given or found in the text ("ERROR 1146 (42S02)",
 *		"SQLSTATE[23505]", "ORA-00942"), picks the category: a SQLSTATE
 *		through nat_classify_sqlstate() (errors.c), a MySQL/OceanBase error
 *		number or an ORA- number through the tables of
 *		error_pattern_table.h;
 *	 3. the first message pattern that matches names the objects (table,
 *		referencing table, constraint, column, user, host, ...) and the
 *		advice; it also picks the category when there is no code, or only
 *		a generic one (a SQLSTATE of subclass 000, such as MySQL's 23000
 *		or 42000).  A specific code that disagrees with the pattern wins,
 *		and the pattern is then ignored as a whole;
 *	 4. name-only patterns (PostgreSQL DETAIL and HINT lines, hosts in
 *		client library messages) fill what the first pattern left open.
 *
 * Patterns are PostgreSQL advanced regular expressions, matched without
 * regard to case, newline-sensitive, under the C collation; each capturing
 * group has a role (one letter of ErrorPattern.roles).  A pattern never
 * captures a data value (MySQL's duplicate entry, PostgreSQL's key values):
 * only names, so suggestions never echo data.  The regular expressions are
 * compiled once per backend, on first use.
 *
 * The same layer serves every tool error: error_enrich.c merges what the
 * patterns find with what PostgreSQL's ErrorData names (nat_enrich_error),
 * for the tools and for ai_error_info() alike.
 *
 * IDENTIFICATION
 *		  src/answer/error_patterns.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "access/xlog.h"
#include "catalog/pg_collation.h"
#include "error_pattern_table.h"
#include "mb/pg_wchar.h"
#include "answer/answer.h"
#include "regex/regex.h"
#include "utils/formatting.h"
#include "utils/memutils.h"

/* only the start of a long text is searched */
#define MAX_ANALYZED_BYTES	NAT_ERROR_TEXT_READ

/* suggestions quote a syntax error's context up to this many characters */
#define MAX_TOKEN_CHARS		40

#define MASK				"********"

/* the compiled regular expressions, parallel to the tables; NULL until used */
static regex_t *compiled_patterns[lengthof(patterns)];
static regex_t *compiled_extras[lengthof(extras)];
static regex_t *compiled_code_patterns[lengthof(code_patterns)];

/* the text being searched, as pg_wchar */
typedef struct SearchText
{
	pg_wchar   *wide;
	int			len;
} SearchText;

/* what the patterns named */
typedef struct Found
{
	List	   *objects;		/* a */
	List	   *dependencies;	/* d */
	List	   *referenced;		/* r */
	List	   *columns;		/* k */
	char	   *constraint;		/* c, x */
	char	   *kind;			/* n */
	char	   *operation;		/* o */
	char	   *user;			/* u */
	char	   *host;			/* h */
	char	   *port;			/* p */
	char	   *token;			/* t */
	char	   *type;			/* y */
	char	   *location;		/* l */
	char	   *hint;			/* H */
	char	   *setting;		/* g */
} Found;

/* the code of an error, given or found in the text */
typedef struct ParsedCode
{
	char	   *error_code;		/* as reported: "23505", "1062", "ORA-00942" */
	char	   *sqlstate;		/* five characters, or NULL */
	int			number;			/* MySQL/OceanBase error number, or 0 */
	int			ora;			/* ORA- number, or 0 */
	char	   *symbol;			/* ER_DUP_ENTRY, ECONNREFUSED, ..., or NULL */
} ParsedCode;

/* the whole classification */
typedef struct Analysis
{
	ErrorCategory cat;
	bool		known;			/* cat is not unknown_error */
	Dialect		dialect;
	Found		found;
	char	   *suggestion;		/* specific advice, or NULL */
	char	   *generic;		/* the category's advice, or NULL */
	List	   *actions;
	List	   *affected;
	List	   *dependencies;
	char	   *constraint;
	char	   *column;
	char	   *hint;
} Analysis;


/* ---------------------------------------------------------------------
 * Masking secrets
 * ---------------------------------------------------------------------
 */

/* keys whose values are secrets, in key=value text */
static const char *const secret_keys[] = {
	"password", "passwd", "pwd", "sslpassword", "pgpassword", "secret",
	"client_secret", "api_key", "apikey", "access_token", "auth_token",
	"token", "identified by"
};

/*
 * A character that can be part of a key name.
 */
static bool
is_word_char(char c)
{
	return isalnum((unsigned char) c) || c == '_';
}

/*
 * p points just after a key: the length of the key's secret value, in
 * "key=value", "key = 'value'", "\"key\": \"value\"" or (for password and
 * IDENTIFIED BY) "key 'value'" form; *skip is set to the length of what
 * comes between the key and the value.  0 when there is no value to mask.
 */
static int
secret_value_length(const char *p, bool key_quoted, bool may_be_bare_quoted,
					int *skip)
{
	const char *start = p;
	const char *v;
	bool		separator = false;

	if (key_quoted && *p == '"')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '=' || (*p == ':' && key_quoted))
	{
		separator = true;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (!separator && !(may_be_bare_quoted && (*p == '\'' || *p == '"')))
		return 0;

	if (*p == '\'' || *p == '"')
	{
		char		q = *p++;

		for (v = p; *v && *v != q && *v != '\n'; v++)
			;
	}
	else
	{
		for (v = p; *v && !isspace((unsigned char) *v) &&
			 strchr(";&,)\"'", *v) == NULL; v++)
			;
	}
	*skip = p - start;
	return v - p;
}

/*
 * Replace the values of password-like keys with MASK.
 */
static char *
mask_key_values(const char *str)
{
	StringInfoData buf;
	const char *p = str;

	initStringInfo(&buf);
	while (*p)
	{
		bool		masked = false;
		int			i;

		if (p == str || !is_word_char(p[-1]))
		{
			bool		key_quoted = (*p == '"');
			const char *k = key_quoted ? p + 1 : p;

			for (i = 0; i < lengthof(secret_keys) && !masked; i++)
			{
				int			klen = strlen(secret_keys[i]);
				int			skip;
				int			vlen;

				if (pg_strncasecmp(k, secret_keys[i], klen) != 0 ||
					is_word_char(k[klen]))
					continue;
				vlen = secret_value_length(k + klen, key_quoted,
										   strcmp(secret_keys[i], "password") == 0 ||
										   strcmp(secret_keys[i], "identified by") == 0,
										   &skip);
				if (vlen <= 0)
					continue;
				appendBinaryStringInfo(&buf, p, (k + klen + skip) - p);
				appendStringInfoString(&buf, MASK);
				p = k + klen + skip + vlen;
				masked = true;
			}
		}
		if (!masked)
			appendStringInfoChar(&buf, *p++);
	}
	return buf.data;
}

/*
 * Replace the password of scheme://user:password@host URIs with MASK.
 */
static char *
mask_uri_passwords(const char *str)
{
	StringInfoData buf;
	const char *p = str;
	const char *scheme;

	initStringInfo(&buf);
	while ((scheme = strstr(p, "://")) != NULL)
	{
		const char *start = scheme + 3;
		const char *end = start;
		const char *at = NULL;
		const char *colon = NULL;
		const char *c;

		while (*end && strchr("/?#\"'`<> \t\n\r", *end) == NULL)
		{
			if (*end == '@')
				at = end;
			end++;
		}
		for (c = start; at && c < at; c++)
		{
			if (*c == ':')
			{
				colon = c;
				break;
			}
		}
		if (colon && colon + 1 < at)
		{
			appendBinaryStringInfo(&buf, p, colon + 1 - p);
			appendStringInfoString(&buf, MASK);
			p = at;
		}
		else
		{
			appendBinaryStringInfo(&buf, p, start - p);
			p = start;
		}
	}
	appendStringInfoString(&buf, p);
	return buf.data;
}

/*
 * The text with its secrets masked: the password of a URI
 * (postgresql://bob:********@db/app), the values of password, pwd, secret,
 * token and similar keys (password=********), and quoted passwords
 * (PASSWORD '********', IDENTIFIED BY '********').  MySQL's
 * "(using password: YES)" says nothing secret and is kept.
 */
char *
nat_mask_secrets(const char *str)
{
	return mask_key_values(mask_uri_passwords(str));
}


/* ---------------------------------------------------------------------
 * Regular expressions
 * ---------------------------------------------------------------------
 */

/*
 * The compiled form of a table's regular expression, compiled on first use
 * and kept for the life of the backend.
 */
static regex_t *
compiled(regex_t **slot, const char *pattern)
{
	MemoryContext old;
	pg_wchar   *wide;
	int			wlen;
	int			rc;
	regex_t    *re;

	if (*slot != NULL)
		return *slot;

	old = MemoryContextSwitchTo(TopMemoryContext);
	re = palloc(sizeof(regex_t));
	wide = palloc((strlen(pattern) + 1) * sizeof(pg_wchar));
	wlen = pg_mb2wchar_with_len(pattern, wide, strlen(pattern));
	rc = pg_regcomp(re, wide, wlen, REG_ADVANCED | REG_ICASE | REG_NEWLINE,
					C_COLLATION_OID);
	pfree(wide);
	MemoryContextSwitchTo(old);
	if (rc != REG_OKAY)
	{
		char		msg[128];

		pg_regerror(rc, re, msg, sizeof(msg));
		elog(ERROR, "invalid error pattern \"%s\": %s", pattern, msg);
	}
	*slot = re;
	return re;
}

/*
 * Search text from position start; on a match, fill pmatch (nmatch slots:
 * the whole match, then the groups).
 */
static bool
search(regex_t *re, SearchText *str, int start, regmatch_t *pmatch,
	   int nmatch)
{
	int			rc;

	rc = pg_regexec(re, str->wide, str->len, start, NULL, nmatch, pmatch, 0);
	if (rc == REG_NOMATCH)
		return false;
	if (rc != REG_OKAY)
	{
		char		msg[128];

		pg_regerror(rc, re, msg, sizeof(msg));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_REGULAR_EXPRESSION),
				 errmsg("could not match an error pattern: %s", msg)));
	}
	return true;
}

/*
 * The text of one group, or NULL when the group took no part in the match.
 */
static char *
group_text(SearchText *str, regmatch_t *m)
{
	int			len;
	char	   *buf;

	if (m->rm_so < 0 || m->rm_eo < m->rm_so)
		return NULL;
	len = m->rm_eo - m->rm_so;
	buf = palloc(len * pg_database_encoding_max_length() + 1);
	pg_wchar2mb_with_len(str->wide + m->rm_so, buf, len);
	return buf;
}

/*
 * The first len bytes of s as pg_wchar, for searching.
 */
static void
prepare_text(const char *s, SearchText *str)
{
	int			len = strlen(s);

	if (len > MAX_ANALYZED_BYTES)
		len = pg_mbcliplen(s, len, MAX_ANALYZED_BYTES);
	str->wide = palloc((len + 1) * sizeof(pg_wchar));
	str->len = pg_mb2wchar_with_len(s, str->wide, len);
}


/* ---------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------
 */

/*
 * A name as the message printed it, without its quotes: "s"."t",
 * `db`.`t` and 'db.t' all give db.t.  Bare names lose trailing
 * punctuation ("secrets." gives secrets).
 */
static char *
clean_name(const char *s)
{
	StringInfoData buf;
	const char *p = s;
	bool		quoted = false;

	initStringInfo(&buf);
	while (*p == ' ')
		p++;
	while (*p)
	{
		if (*p == '"' || *p == '\'' || *p == '`')
		{
			char		q = *p++;

			quoted = true;
			while (*p && *p != q)
				appendStringInfoChar(&buf, *p++);
			if (*p)
				p++;
		}
		else
			appendStringInfoChar(&buf, *p++);
	}
	while (buf.len > 0 &&
		   (buf.data[buf.len - 1] == ' ' ||
			(!quoted && strchr(".,:;", buf.data[buf.len - 1]) != NULL)))
		buf.data[--buf.len] = '\0';
	return buf.data;
}

/*
 * Append s to *list unless it is empty or there already.
 */
static void
add_name(List **list, char *s)
{
	ListCell   *lc;

	if (s == NULL || *s == '\0')
		return;
	foreach(lc, *list)
	{
		if (strcmp((char *) lfirst(lc), s) == 0)
			return;
	}
	*list = lappend(*list, s);
}

/*
 * Split a column list ("`a`, `b`", "a, b") into clean names.
 */
static void
add_columns(List **list, const char *s)
{
	StringInfoData part;
	const char *p;
	char		q = '\0';

	initStringInfo(&part);
	for (p = s;; p++)
	{
		if (*p == '\0' || (*p == ',' && q == '\0'))
		{
			add_name(list, clean_name(part.data));
			resetStringInfo(&part);
			if (*p == '\0')
				break;
			continue;
		}
		if (q == '\0' && (*p == '"' || *p == '\'' || *p == '`'))
			q = *p;
		else if (*p == q)
			q = '\0';
		appendStringInfoChar(&part, *p);
	}
}

/*
 * Text without a pair of surrounding quotes, trimmed.
 */
static char *
unquote(const char *s)
{
	int			len;

	while (*s == ' ')
		s++;
	len = strlen(s);
	while (len > 0 && s[len - 1] == ' ')
		len--;
	if (len >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') &&
		s[len - 1] == s[0])
		return pnstrdup(s + 1, len - 2);
	return pnstrdup(s, len);
}

/*
 * Keep the first value of a single-valued role.
 */
static void
set_once(char **field, char *value)
{
	if (*field == NULL && value != NULL && *value != '\0')
		*field = value;
}

/*
 * Record the text of a group under its role.
 */
static void
take_role(Found *f, char role, char *value)
{
	char	   *dot;

	if (value == NULL)
		return;
	switch (role)
	{
		case 'a':
			add_name(&f->objects, clean_name(value));
			break;
		case 'd':
			add_name(&f->dependencies, clean_name(value));
			break;
		case 'r':
			add_name(&f->referenced, clean_name(value));
			break;
		case 'k':
			add_columns(&f->columns, value);
			break;
		case 'c':
			set_once(&f->constraint, clean_name(value));
			break;
		case 'x':
			/* MySQL 8 reports 'table.key', older versions 'key' */
			value = clean_name(value);
			dot = strrchr(value, '.');
			if (dot && dot != value && dot[1] != '\0')
			{
				add_name(&f->objects, pnstrdup(value, dot - value));
				set_once(&f->constraint, pstrdup(dot + 1));
			}
			else
				set_once(&f->constraint, value);
			break;
		case 'n':
			value = asc_tolower(value, strlen(value));
			set_once(&f->kind, strcmp(value, "relation") == 0 ? "table" : value);
			break;
		case 'o':
			set_once(&f->operation, unquote(value));
			break;
		case 'u':
			set_once(&f->user, clean_name(value));
			break;
		case 'h':
			set_once(&f->host, clean_name(value));
			break;
		case 'p':
			set_once(&f->port, value);
			break;
		case 't':
			/* the empty text of "near '' at line 1" is kept: end of input */
			if (f->token == NULL)
				f->token = unquote(value);
			break;
		case 'y':
			set_once(&f->type, unquote(value));
			break;
		case 'l':
			set_once(&f->location, clean_name(value));
			break;
		case 'H':
			set_once(&f->hint, unquote(value));
			break;
		case 'g':
			set_once(&f->setting, value);
			break;
	}
}

/*
 * Run one pattern; on a match, record its groups and return true.  With
 * all_matches, every match is recorded.
 */
static bool
apply_pattern(const ErrorPattern *pat, regex_t **slot, SearchText *str,
			  Found *f, bool all_matches)
{
	regex_t    *re = compiled(slot, pat->regex);
	int			nmatch = re->re_nsub + 1;
	regmatch_t *pmatch = palloc(sizeof(regmatch_t) * nmatch);
	int			start = 0;
	bool		matched = false;

	while (start <= str->len && search(re, str, start, pmatch, nmatch))
	{
		int			i;

		matched = true;
		for (i = 1; i < nmatch && pat->roles[i - 1] != '\0'; i++)
			take_role(f, pat->roles[i - 1], group_text(str, &pmatch[i]));
		if (!all_matches)
			break;
		start = Max(pmatch[0].rm_eo, pmatch[0].rm_so + 1);
	}
	pfree(pmatch);
	return matched;
}


/* ---------------------------------------------------------------------
 * Codes
 * ---------------------------------------------------------------------
 */

/*
 * Five characters of digits and upper-case letters.
 */
static bool
is_sqlstate(const char *s)
{
	int			i;

	for (i = 0; i < 5; i++)
	{
		if (!(isdigit((unsigned char) s[i]) || isupper((unsigned char) s[i])))
			return false;
	}
	return s[5] == '\0';
}

/*
 * Read a code given by the caller: a SQLSTATE ("23505", "42S02"), a MySQL
 * or OceanBase error number ("1062", "-4012"), an Oracle-mode code
 * ("ORA-00942", "OBE-00942"), or a symbolic name ("ER_DUP_ENTRY",
 * "ECONNREFUSED").  Anything else is only reported back.
 */
static void
parse_code(const char *given, ParsedCode *pc)
{
	char	   *code = unquote(given);
	char	   *up = asc_toupper(code, strlen(code));
	const char *digits = up[0] == '-' ? up + 1 : up;
	int			ndigits = strspn(digits, "0123456789");

	if (*code == '\0')
		return;
	pc->error_code = code;
	if (ndigits > 0 && digits[ndigits] == '\0' &&
		(ndigits < 5 || (ndigits == 5 && up[0] == '-')))
		pc->number = atoi(digits);
	else if (is_sqlstate(up))
	{
		pc->sqlstate = up;
		pc->error_code = up;
	}
	else if ((strncmp(up, "ORA-", 4) == 0 || strncmp(up, "OBE-", 4) == 0) &&
			 up[4] != '\0' && strspn(up + 4, "0123456789") == strlen(up + 4))
	{
		pc->ora = atoi(up + 4);
		pc->error_code = up;
	}
	else if (strspn(up, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == strlen(up))
	{
		pc->symbol = up;
		pc->error_code = up;
	}
}

/*
 * Find the code in the text, where clients put it.
 */
static void
find_code(SearchText *str, ParsedCode *pc)
{
	int			i;

	for (i = 0; i < lengthof(code_patterns); i++)
	{
		const ErrorPattern *pat = &code_patterns[i];
		regex_t    *re = compiled(&compiled_code_patterns[i], pat->regex);
		regmatch_t	pmatch[3];
		int			g;

		if (!search(re, str, 0, pmatch, 3))
			continue;
		for (g = 1; g <= 2 && pat->roles[g - 1] != '\0'; g++)
		{
			char	   *value = group_text(str, &pmatch[g]);
			char	   *up = value ? asc_toupper(value, strlen(value)) : NULL;

			if (up == NULL)
				continue;
			switch (pat->roles[g - 1])
			{
				case 's':
					if (pc->sqlstate == NULL && is_sqlstate(up))
						pc->sqlstate = up;
					break;
				case 'n':
					if (pc->number == 0 && pc->ora == 0)
					{
						pc->number = atoi(up);
						pc->error_code = up;
					}
					break;
				case 'o':
					if (pc->number == 0 && pc->ora == 0)
					{
						pc->ora = atoi(up + 4);
						pc->error_code = up;
					}
					break;
				case 'S':
					if (pc->error_code == NULL)
					{
						pc->symbol = up;
						pc->error_code = up;
					}
					break;
			}
		}
	}
}

/*
 * The category of a NumberCategory entry.
 */
static ErrorCategory
number_category(const NumberCategory *entry)
{
	ErrorCategory cat = nat_category_of(entry->kind);

	if (entry->portable_type)
		cat.portable_type = entry->portable_type;
	return cat;
}

/*
 * The category a code gives, if any.  *strong is false for a SQLSTATE of
 * a whole class (subclass 000, e.g. MySQL's 23000, 42000 and HY000): a
 * message pattern may then say better.  *dialect says whose code it is.
 */
static bool
code_category(ParsedCode *pc, ErrorCategory *cat, bool *strong,
			  Dialect *dialect)
{
	int			i;

	*strong = true;
	for (i = 0; pc->symbol &&i < lengthof(mysql_numbers); i++)
	{
		if (mysql_numbers[i].name && strcmp(mysql_numbers[i].name, pc->symbol) == 0)
			pc->number = mysql_numbers[i].number;
	}
	for (i = 0; pc->symbol &&i < lengthof(client_codes); i++)
	{
		if (strcmp(client_codes[i].name, pc->symbol) == 0)
		{
			*cat = nat_category_of(client_codes[i].kind);
			*dialect = D_ANY;
			return true;
		}
	}
	if (pc->number != 0)
	{
		for (i = 0; i < lengthof(mysql_numbers); i++)
		{
			if (mysql_numbers[i].number != pc->number)
				continue;
			*cat = number_category(&mysql_numbers[i]);
			*dialect = pc->number >= 4000 && pc->number < 10000 ?
				D_OCEANBASE : D_MYSQL;
			if (pc->sqlstate == NULL && mysql_numbers[i].sqlstate)
				pc->sqlstate = pstrdup(mysql_numbers[i].sqlstate);
			return true;
		}
	}
	if (pc->ora != 0)
	{
		for (i = 0; i < lengthof(ora_numbers); i++)
		{
			if (ora_numbers[i].number != pc->ora)
				continue;
			*cat = number_category(&ora_numbers[i]);
			*dialect = D_ORACLE;
			return true;
		}
	}
	if (pc->sqlstate != NULL)
	{
		const char *s = pc->sqlstate;

		for (i = 0; i < lengthof(odbc_sqlstates); i++)
		{
			if (strcmp(odbc_sqlstates[i].sqlstate, s) == 0)
			{
				*cat = nat_category_of(odbc_sqlstates[i].kind);
				*dialect = D_MYSQL;
				return true;
			}
		}
		*cat = nat_classify_sqlstate(MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]));
		*dialect = strncmp(s, "HY", 2) == 0 ? D_MYSQL : D_PG;
		*strong = strcmp(s + 2, "000") != 0;
		return cat->kind != NAT_ERR_UNKNOWN_ERROR;
	}
	return false;
}


/* ---------------------------------------------------------------------
 * Advice
 * ---------------------------------------------------------------------
 */

/* "name" */
static char *
qn(const char *s)
{
	return psprintf("\"%s\"", s);
}

/* the first name of a list, or NULL */
static char *
first(List *list)
{
	return list != NIL ? (char *) linitial(list) : NULL;
}

/* "Table" from "table" */
static char *
capitalized(const char *s)
{
	char	   *c = pstrdup(s);

	c[0] = pg_toupper((unsigned char) c[0]);
	return c;
}

/* a MySQL account, 'bob'@'localhost', or a quoted user name */
static char *
account(Found *f, Dialect dialect)
{
	if (f->user == NULL)
		return NULL;
	if ((dialect == D_MYSQL || dialect == D_OCEANBASE) && f->host)
		return psprintf("'%s'@'%s'", f->user, f->host);
	return qn(f->user);
}

/* host:port, as far as known */
static char *
endpoint(Found *f)
{
	if (f->host == NULL)
		return NULL;
	if (f->port)
		return psprintf("%s:%s", f->host, f->port);
	return pstrdup(f->host);
}

/* the syntax error's context, shortened */
static char *
short_token(const char *token)
{
	int			len = strlen(token);

	if (pg_mbstrlen(token) <= MAX_TOKEN_CHARS)
		return pstrdup(token);
	len = pg_mbcharcliplen(token, len, MAX_TOKEN_CHARS);
	return psprintf("%.*s...", len, token);
}

/* "tables", "indexes" */
static char *
plural(const char *kind)
{
	int			len = strlen(kind);

	return psprintf("%s%s", kind, len > 0 && kind[len - 1] == 'x' ? "es" : "s");
}

/* the object type keyword of GRANT ... ON <type> name */
static char *
grant_object_type(const char *kind)
{
	if (strcmp(kind, "table") == 0 || strstr(kind, "view") != NULL ||
		strcmp(kind, "foreign table") == 0)
		return "TABLE";
	return asc_toupper(kind, strlen(kind));
}

/* the setting that bounds a statement's run time */
static const char *
timeout_setting(Dialect dialect)
{
	switch (dialect)
	{
		case D_PG:
			return "statement_timeout";
		case D_MYSQL:
			return "max_execution_time";
		case D_OCEANBASE:
			return "ob_query_timeout";
		default:
			return "the statement timeout";
	}
}

/* how to skip or update a duplicate row, in the database's own SQL */
static const char *
upsert_advice(Dialect dialect)
{
	switch (dialect)
	{
		case D_PG:
			return "skip or update the existing row (INSERT ... ON CONFLICT DO NOTHING or DO UPDATE)";
		case D_MYSQL:
		case D_OCEANBASE:
			return "skip or update the existing row (INSERT IGNORE or INSERT ... ON DUPLICATE KEY UPDATE)";
		case D_ORACLE:
			return "update the existing row instead (MERGE)";
		default:
			return "skip or update the existing row instead of inserting a duplicate";
	}
}

/* how to list the tables, in the database's own terms */
static char *
list_tables_action(Dialect dialect)
{
	switch (dialect)
	{
		case D_PG:
			return pstrdup("List the tables you can use (information_schema.tables, or the list_tables tool).");
		case D_MYSQL:
		case D_OCEANBASE:
			return pstrdup("List the tables with SHOW TABLES.");
		case D_ORACLE:
			return pstrdup("List the tables in ALL_TABLES.");
		default:
			return pstrdup("List the tables you can use.");
	}
}

/* how to list a table's columns, in the database's own terms */
static char *
list_columns_action(Dialect dialect, const char *table)
{
	if (table == NULL)
		return pstrdup("List the columns of the tables in the statement.");
	switch (dialect)
	{
		case D_PG:
			return psprintf("List the columns of %s (information_schema.columns, or the describe_table tool).", qn(table));
		case D_MYSQL:
		case D_OCEANBASE:
			return psprintf("List the columns with SHOW COLUMNS FROM %s.", table);
		case D_ORACLE:
			return psprintf("List the columns of %s in ALL_TAB_COLUMNS.", qn(table));
		default:
			return psprintf("List the columns of %s.", qn(table));
	}
}

/*
 * One sentence of advice for a category, when nothing more is known.
 */
static char *
generic_suggestion(ErrorCategory cat, bool class_only)
{
	const char *advice = nat_error_kind_text_suggestion(cat.kind);

	/* constraint_violation's advice depends on which constraint */
	if (cat.kind == NAT_ERR_CONSTRAINT_VIOLATION)
	{
		/* a class-level code (23000) does not say which constraint */
		if (class_only)
			advice = "The change breaks a constraint of the table; fix the values and retry.";
		else if (strcmp(cat.portable_type, "foreign_key_constraint") == 0)
			advice = "The change breaks a foreign key: a referenced row must exist, and a row cannot be removed while other rows reference it.";
		else if (strcmp(cat.portable_type, "unique_constraint") == 0)
			advice = "A row with the same key already exists; use a different value, or skip or update the existing row.";
		else if (strcmp(cat.portable_type, "not_null_constraint") == 0)
			advice = "A required column got no value; supply one.";
	}
	return advice ? pstrdup(advice) : NULL;
}

/*
 * Advice on rows referenced or referencing, dependent objects.
 */
static char *
advise_references(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *d = first(f->dependencies);
	char	   *r = first(f->referenced);
	char	   *k = f->columns != NIL ? nat_quoted_names(f->columns) : NULL;
	char	   *c = f->constraint;
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_FK_REFERENCED:
			{
				/*
				 * MySQL names the referencing columns (FOREIGN KEY (`x`)),
				 * PostgreSQL's DETAIL the referenced key (Key (id)=...).
				 */
				bool		fk_columns = dialect == D_MYSQL || dialect == D_OCEANBASE;
				char	   *target = a ? qn(a) : "these rows";
				char	   *via = c ? psprintf(" through foreign key %s", qn(c)) : "";

				if (k && fk_columns)
					via = psprintf("%s (column%s %s)", via,
								   list_length(f->columns) > 1 ? "s" : "", k);
				else if (k)
					target = psprintf("%s (key %s)", target, k);
				if (d)
				{
					s = psprintf("Rows of %s still reference %s%s. Delete or update those rows of %s first, then retry.",
								 nat_quoted_names(f->dependencies), target, via, qn(d));
					*actions = lappend(*actions,
									   psprintf("Find the rows of %s that reference the rows you are deleting or updating%s.",
												qn(d), k && fk_columns ? psprintf(" (by %s)", k) : ""));
					*actions = lappend(*actions,
									   psprintf("Delete or update those rows of %s, then retry.", qn(d)));
				}
				else
				{
					s = psprintf("Other rows still reference %s%s. Delete or update the referencing rows first, then retry.",
								 a ? psprintf("these rows of %s", qn(a)) : "the rows being deleted or updated", via);
					*actions = lappend(*actions,
									   a ? psprintf("Find the tables whose foreign keys reference %s and handle their rows first.", qn(a)) :
									   pstrdup("Find the tables whose foreign keys reference this table and handle their rows first."));
				}
				break;
			}

		case ADV_FK_MISSING:
			{
				char	   *target = r ? qn(r) : "the referenced table";

				s = psprintf("%s must match an existing row of %s%s. Insert that row first, or use a key that exists.",
							 k ? psprintf("The value of %s", k) : "The foreign key value", target,
							 c ? psprintf(" (foreign key %s%s)", qn(c),
										  a ? psprintf(" on %s", qn(a)) : "") : "");
				*actions = lappend(*actions, psprintf("Look up the existing keys of %s.", target));
				*actions = lappend(*actions, psprintf("Insert the missing row into %s first, then retry.", target));
				break;
			}

		case ADV_FK_DROP:
			if (d)
			{
				s = psprintf("Table %s references %s%s. Drop that foreign key or drop %s first, then drop %s.",
							 qn(d), a ? qn(a) : "this table",
							 c ? psprintf(" through foreign key %s", qn(c)) : "",
							 qn(d), a ? qn(a) : "this table");
				if (c)
					*actions = lappend(*actions,
									   psprintf("Drop the foreign key first (ALTER TABLE %s DROP %s %s), then retry.",
												d, dialect == D_MYSQL || dialect == D_OCEANBASE ?
												"FOREIGN KEY" : "CONSTRAINT", c));
				*actions = lappend(*actions,
								   psprintf("Or drop %s before %s.", qn(d), a ? qn(a) : "this table"));
			}
			else
			{
				s = psprintf("Foreign keys of other tables reference %s. Drop those foreign keys or those tables first, then retry.",
							 a ? qn(a) : "this table");
				*actions = lappend(*actions, pstrdup("Find the foreign keys that reference the table and drop them (or their tables) first."));
			}
			break;

		case ADV_DEPENDENT:
			if (f->dependencies != NIL)
				s = psprintf("Other objects depend on %s: %s. Drop or change them first, then retry.",
							 a ? qn(a) : "it", nat_quoted_names(f->dependencies));
			else
				s = psprintf("Other objects (foreign keys, views, ...) depend on %s. Find them (the error's DETAIL lists them) and drop or change them first, then retry.",
							 a ? qn(a) : "it");
			*actions = lappend(*actions, pstrdup("Drop or change the dependent objects first, then retry."));
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on unique, not-null, check constraints and views' check options.
 */
static char *
advise_constraint(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *k = f->columns != NIL ? nat_quoted_names(f->columns) : NULL;
	char	   *c = f->constraint;
	char	   *s = NULL;
	char	   *where;

	switch (advice)
	{
		case ADV_UNIQUE:
			where = a ? psprintf(" in %s", qn(a)) : "";
			/* MySQL names a key (index), the others a constraint */
			if (c)
				c = psprintf(dialect == D_MYSQL || dialect == D_OCEANBASE ?
							 "key %s" : "constraint %s", qn(c));
			if (k)
				s = psprintf("A row with the same %s already exists%s%s.", k, where,
							 c ? psprintf(" (%s)", c) : "");
			else if (c)
				s = psprintf("A row with the same value for %s already exists%s.", c, where);
			else
				s = psprintf("A row with the same key already exists%s.", where);
			s = psprintf("%s Use a different value, or %s.", s, upsert_advice(dialect));
			*actions = lappend(*actions, pstrdup("Check whether the row already exists before inserting it."));
			*actions = lappend(*actions, psprintf("Or %s.", upsert_advice(dialect)));
			break;

		case ADV_NOT_NULL:
		case ADV_NO_DEFAULT:
			if (k)
			{
				s = psprintf(advice == ADV_NOT_NULL ?
							 "Column %s%s cannot be null: supply a value for it." :
							 "Column %s%s has no default value: supply a value for it.",
							 k, a ? psprintf(" of %s", qn(a)) : "");
				*actions = lappend(*actions, psprintf("Give %s a value in every row.", k));
			}
			break;

		case ADV_CHECK:
			s = psprintf("The values break %s%s; pass values it accepts.",
						 c ? psprintf("check constraint %s", qn(c)) : "a check constraint",
						 a ? psprintf(" of %s", qn(a)) :
						 f->type ? psprintf(" of domain %s", qn(f->type)) : "");
			*actions = lappend(*actions, pstrdup("Read the constraint's definition (describe the table) to see which values it accepts."));
			break;

		case ADV_CHECK_OPTION:
			s = psprintf("The row would not be visible through view %s (WITH CHECK OPTION); write only rows that satisfy the view's condition.",
						 a ? qn(a) : "");
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on the statement itself: syntax, names that do not exist or already do.
 */
static char *
advise_statement(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *k = f->columns != NIL ? nat_quoted_names(f->columns) : NULL;
	char	   *c = f->constraint;
	const char *kind = f->kind ? f->kind : "table";
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_SYNTAX:
			if (f->token != NULL && f->token[0] != '\0')
			{
				char	   *t = short_token(f->token);

				s = psprintf("Check the SQL near \"%s\": a misspelt keyword, a missing comma, or an unbalanced quote or parenthesis is likely.", t);
				*actions = lappend(*actions, psprintf("Rewrite the statement near \"%s\" and retry.", t));
				break;
			}
			if (f->token == NULL)
				break;
			/* MySQL's near '': the statement ends too early */
			pg_fallthrough;
		case ADV_SYNTAX_END:
			s = pstrdup("The statement ends too early: complete it (a missing clause, parenthesis or closing quote).");
			break;

		case ADV_AMBIGUOUS:
			if (k)
				s = psprintf("Column %s is ambiguous: qualify it with its table name or alias.", k);
			break;

		case ADV_NO_TABLE:
			if (a)
				s = psprintf("%s %s does not exist. Check the name%s, and list the %s you can use.",
							 capitalized(kind), qn(a),
							 strcmp(kind, "database") == 0 || strcmp(kind, "schema") == 0 ? "" : " and the schema",
							 plural(kind));
			else
				s = pstrdup("A table named in the statement does not exist. Check the name and the schema, and list the tables you can use.");
			if (strcmp(kind, "database") != 0 && strcmp(kind, "schema") != 0)
				*actions = lappend(*actions, list_tables_action(dialect));
			if (a)
				*actions = lappend(*actions, psprintf("Check the spelling and the schema of %s.", qn(a)));
			break;

		case ADV_NO_COLUMN:
			if (k)
				s = psprintf("Column %s%s does not exist%s. Check the name, and list the table's columns.",
							 k, a ? psprintf(" of %s", qn(a)) : "",
							 f->location ? psprintf(" (in the %s)", f->location) : "");
			*actions = lappend(*actions, list_columns_action(dialect, a));
			break;

		case ADV_EXISTS:
			if (k)
				s = psprintf("Column %s already exists%s; choose another name, or use the existing column.",
							 k, a ? psprintf(" in %s", qn(a)) : "");
			else if (a)
				s = psprintf("%s %s already exists. Use the existing one, choose another name, or add IF NOT EXISTS.",
							 capitalized(kind), qn(a));
			break;

		case ADV_EXISTS_KEY:
			if (c)
				s = psprintf("An index or key named %s already exists; choose another name.", qn(c));
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on privileges, ownership, row-level security, read-only servers.
 */
static char *
advise_privilege(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *k = f->columns != NIL ? nat_quoted_names(f->columns) : NULL;
	const char *kind = f->kind ? f->kind : "table";
	char	   *s = NULL;
	char	   *who;

	switch (advice)
	{
		case ADV_PERMISSION:
			if (a)
			{
				s = psprintf("The role lacks a privilege on %s %s; ask the database administrator to grant it, or use another %s.",
							 kind, qn(a), kind);
				*actions = lappend(*actions, psprintf("Ask the administrator for the privilege you need (GRANT ... ON %s %s TO your role).",
													  grant_object_type(kind), a));
			}
			break;

		case ADV_GRANT:
			who = account(f, dialect);
			if (f->operation && a)
			{
				char	   *object = k ? psprintf("column %s of table %s", k, qn(a)) :
					psprintf("table %s", qn(a));
				char	   *grant = psprintf("GRANT %s%s ON %s TO %s", f->operation,
											 k ? psprintf(" (%s)", first(f->columns)) : "",
											 a, who ? who : "the user");

				s = psprintf("User %s may not run %s on %s. Ask the database administrator for %s, or use another table.",
							 who ? who : "", f->operation, object, grant);
				*actions = lappend(*actions, psprintf("Ask the administrator: %s.", grant));
				*actions = lappend(*actions, pstrdup("Or work with a table the user has access to."));
			}
			break;

		case ADV_DB_DENIED:
			who = account(f, dialect);
			if (a)
			{
				s = psprintf("User %s may not use database %s. Ask the database administrator for access (GRANT ... ON %s.* TO %s), or use another database.",
							 who ? who : "", qn(a), a, who ? who : "the user");
				*actions = lappend(*actions, psprintf("Ask the administrator for privileges on %s.", qn(a)));
			}
			break;

		case ADV_PRIVILEGE_NEEDED:
			if (f->operation)
				s = psprintf("This operation needs the %s privilege; ask the database administrator for it, or do without the operation.",
							 f->operation);
			break;

		case ADV_OWNER:
			if (a)
				s = psprintf("Only the owner of %s %s (or a superuser) may do this; ask its owner.",
							 kind, qn(a));
			break;

		case ADV_RLS:
			if (a)
				s = psprintf("A row-level security policy on %s does not allow this row for your role; write only rows the policy allows.",
							 qn(a));
			break;

		case ADV_READ_ONLY:
			/* PostgreSQL says the same on a standby: this server may be one */
			if (f->operation && dialect == D_PG && RecoveryInProgress())
				s = psprintf("%s is not allowed: the transaction is read-only, as every transaction is on this server, a hot standby (recovery in progress). Run writes on the primary server.",
							 f->operation);
			else if (f->operation)
				s = psprintf("%s is not allowed: the transaction is read-only. Run only reads, or use a read-write transaction.",
							 f->operation);
			else
				s = pstrdup("The database or transaction is read-only: run only reads, or connect to a writable server.");
			break;

		case ADV_STANDBY:
			s = f->operation ?
				psprintf("%s is not allowed: the server is a read-only hot standby (recovery in progress). Run it on the primary server, and use this one for reads.",
						 f->operation) :
				pstrdup("The server is a read-only hot standby (recovery in progress): run writes on the primary server, and use this one for reads.");
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on authentication and connections.
 */
static char *
advise_connection(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *s = NULL;
	char	   *who;
	char	   *where;

	switch (advice)
	{
		case ADV_AUTH:
			who = account(f, dialect);
			s = psprintf("Authentication failed%s: check the user name and its password or other credentials in the connection settings.",
						 who ? psprintf(" for user %s", who) : "");
			*actions = lappend(*actions, pstrdup("Check the user name and the password (or key) the connection uses."));
			*actions = lappend(*actions, pstrdup("Make sure the user exists and may log in from this host."));
			break;

		case ADV_NO_ROLE:
			if (f->user)
				s = psprintf("Role %s does not exist on the server: check the user name in the connection settings.",
							 qn(f->user));
			break;

		case ADV_HBA:
			s = psprintf("The server's pg_hba.conf has no entry allowing %s%s%s. Ask the administrator to allow it, or check the connection's SSL setting.",
						 f->user ? psprintf("user %s", qn(f->user)) : "this connection",
						 f->host ? psprintf(" from host %s", qn(f->host)) : "",
						 a ? psprintf(" to database %s", qn(a)) : "");
			break;

		case ADV_CONNECT:
			where = endpoint(f);
			s = psprintf("Could not connect to the database server%s: check the host and port, that the server is running and accepting connections, and any firewall in between.",
						 where ? psprintf(" at %s", where) : "");
			*actions = lappend(*actions, pstrdup("Check the host and port in the connection settings."));
			*actions = lappend(*actions, pstrdup("Make sure the database server is running and reachable, then retry."));
			break;

		case ADV_DNS:
			if (f->host)
				s = psprintf("The host name %s could not be resolved: check the host name in the connection settings.",
							 qn(f->host));
			break;

		case ADV_LOST:
			s = pstrdup("The connection to the server was lost: reconnect and retry, and check whether the last statement took effect before repeating a write.");
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on timeouts and transactions rolled back.
 */
static char *
advise_transaction(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_TIMEOUT:
			s = psprintf("The statement ran too long and was stopped. Narrow the filter, lower the limit, or raise %s.",
						 timeout_setting(dialect));
			*actions = lappend(*actions, pstrdup("Add a narrower filter or a smaller LIMIT."));
			*actions = lappend(*actions, pstrdup("Check with EXPLAIN that an index supports the filter."));
			break;

		case ADV_LOCK_TIMEOUT:
			s = psprintf("Another transaction held a lock too long%s. Retry the whole transaction, and keep transactions short.",
						 a ? psprintf(" on %s", qn(a)) : "");
			*actions = lappend(*actions, pstrdup("Retry the whole transaction after a short wait."));
			break;

		case ADV_TRX_TIMEOUT:
			s = pstrdup("The transaction ran too long and was stopped. Roll it back and retry it in smaller pieces, or raise ob_trx_timeout.");
			*actions = lappend(*actions, pstrdup("Roll back, then retry the work in smaller transactions."));
			break;

		case ADV_IDLE_TIMEOUT:
			s = pstrdup("The session was idle too long inside a transaction and was closed. Reconnect and retry the transaction without pauses between its statements.");
			break;

		case ADV_SERIALIZATION:
			s = pstrdup("A concurrent transaction changed the same data. Retry the whole transaction.");
			*actions = lappend(*actions, pstrdup("Roll back and retry the whole transaction from the start."));
			break;

		case ADV_DEADLOCK:
			s = pstrdup("Two transactions waited for each other's locks (a deadlock) and this one was rolled back. Retry the whole transaction; taking locks in a consistent order avoids it.");
			*actions = lappend(*actions, pstrdup("Roll back and retry the whole transaction from the start."));
			break;

		case ADV_ROLLED_BACK:
			s = pstrdup("The server rolled the transaction back. Retry the whole transaction from the start.");
			break;

		default:
			break;
	}
	return s;
}

/*
 * Advice on exhausted resources, values the columns refuse, Citus distribution columns.
 */
static char *
advise_value(Advice advice, Dialect dialect, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *k = f->columns != NIL ? nat_quoted_names(f->columns) : NULL;
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_CONNECTIONS:
			s = psprintf("The server has no free connection slots%s. Close idle connections or retry later.",
						 f->user && f->kind ? psprintf(" for %s %s", f->kind, qn(f->user)) : "");
			break;

		case ADV_MEMORY:
			s = pstrdup("The server ran out of memory. Retry later with a smaller request (fewer rows, a narrower query).");
			break;

		case ADV_DISK:
			s = psprintf("The server ran out of storage space%s. Ask the database administrator to free or add space.",
						 a ? psprintf(" for %s", qn(a)) : "");
			break;

		case ADV_TOO_LONG:
			if (k)
				s = psprintf("A value is too long for column %s. Shorten it, or widen the column.", k);
			else if (f->type)
				s = psprintf("A value is longer than %s allows. Shorten it, or widen the column.", f->type);
			break;

		case ADV_BAD_VALUE:
			if (f->type && k)
				s = psprintf("A value is not a valid %s for column %s. Pass it in the type's own format.", f->type, k);
			else if (f->type)
				s = psprintf("A value is not valid input for type %s. Pass it in the type's own format.", f->type);
			break;

		case ADV_OUT_OF_RANGE:
			if (k)
				s = psprintf("A value is out of range for column %s. Pass a smaller value, or widen the column's type.", k);
			else
				s = pstrdup("A number is out of range for its type. Pass a smaller value, or use a wider type.");
			break;

		case ADV_DIVISION:
			s = pstrdup("The statement divides by zero. Guard the divisor, e.g. NULLIF(divisor, 0).");
			break;

		case ADV_DIST_UPDATE:
			s = pstrdup("Citus does not allow an UPDATE to change the distribution column of a distributed table. Leave that column out of the update, or delete the row and insert it again with the new value in one transaction.");
			*actions = lappend(*actions, pstrdup("Leave the distribution column out of the columns being updated."));
			*actions = lappend(*actions, pstrdup("Find the table's distribution column in the citus_tables view (column distribution_column)."));
			break;

		case ADV_DIST_NULL:
			s = psprintf("The distribution column of Citus distributed table%s must have a value in every row: it decides the shard the row goes to. Supply a non-null value for it.",
						 a ? psprintf(" %s", qn(a)) : "s");
			*actions = lappend(*actions, pstrdup("Give the distribution column a non-null value in every row."));
			*actions = lappend(*actions, pstrdup("Find the table's distribution column in the citus_tables view (column distribution_column)."));
			break;

		default:
			break;
	}
	return s;
}

/* the step that finds a Citus table's distribution column */
#define CITUS_DIST_COLUMN_ACTION \
	"Find the table's distribution column in the citus_tables view (column distribution_column)."

/*
 * Advice on what Citus cannot run on distributed tables as written, and on
 * its nodes.  Citus's messages name no table (one does), so the advice
 * says how to find the distribution column.
 */
static char *
advise_citus(Advice advice, Found *f, List **actions)
{
	char	   *a = first(f->objects);
	char	   *where = endpoint(f);
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_CITUS_REPARTITION:
			s = pstrdup("Citus cannot run this join as written: its distributed tables are not co-located, or not joined on their distribution columns, so rows would have to be repartitioned between the nodes. Join the tables on their distribution columns if the question allows it; otherwise turn repartitioning on for the transaction: run SET LOCAL citus.enable_repartition_joins = on before the query, in the same transaction (with execute_sql: mode \"multiple\", the SET LOCAL as the first statement).");
			*actions = lappend(*actions, pstrdup("Find each table's distribution column in the citus_tables view (column distribution_column), and join on it."));
			*actions = lappend(*actions, pstrdup("Or run both in one execute_sql call with mode \"multiple\": SET LOCAL citus.enable_repartition_joins = on; then the query."));
			break;

		case ADV_CITUS_COLOCATION:
			s = pstrdup("Citus runs this query only when its distributed tables are co-located and joined (or correlated) on their distribution columns, and these are not. Join or correlate them on their distribution columns, or compute the other table's part first in a CTE (WITH x AS (SELECT ...)) and join to that: Citus runs the CTE on its own and joins its result.");
			*actions = lappend(*actions, pstrdup("Find each table's distribution column in the citus_tables view (column distribution_column), and join on it."));
			*actions = lappend(*actions, pstrdup("Or move the part that reads the other table into a WITH clause and join to it."));
			break;

		case ADV_CITUS_CORRELATED:
			s = psprintf("Citus cannot run a correlated subquery when the FROM clause contains %s. Rewrite the subquery as a join (a subquery in FROM, grouped by the correlated columns), or compute it in a CTE and join to that.",
						 f->operation ? f->operation : "such an item");
			*actions = lappend(*actions, pstrdup("Rewrite the correlated subquery as a join on the columns it compares."));
			break;

		case ADV_CITUS_MULTI_SHARD:
			/* "FOR UPDATE/SHARE commands", "subquery in LIMIT" */
			s = psprintf("Citus cannot run a query with %s%s across the shards of a distributed table. Add an equality filter on the distribution column of each distributed table (e.g. WHERE tenant_id = $1), so that the query reaches one shard, or rewrite it without them.",
						 f->operation && pg_strncasecmp(f->operation, "subquery", 8) == 0 ? "a " : "",
						 f->operation ? f->operation : "this clause");
			*actions = lappend(*actions, pstrdup(CITUS_DIST_COLUMN_ACTION));
			*actions = lappend(*actions, pstrdup("Filter each distributed table on its distribution column with =, or leave the clause out."));
			break;

		case ADV_CITUS_LOCAL_JOIN:
			s = pstrdup("Citus cannot join a distributed table directly with a local table here. Read the local table in a CTE (WITH l AS (SELECT ... FROM local_table)) and join to that, or set citus.local_table_join_policy with SET LOCAL before the query in the same transaction.");
			break;

		case ADV_CITUS_VOLATILE:
			s = pstrdup("Citus runs this statement on each shard of a distributed table and cannot use VOLATILE functions (random(), clock_timestamp(), nextval(), gen_random_uuid(), ...) in it: each shard would get another value. Compute the value first (a separate query, or the client) and pass it as a parameter, or use a STABLE function (now() rather than clock_timestamp()).");
			*actions = lappend(*actions, pstrdup("Compute the value in a separate query, then pass it as $1 in params."));
			break;

		case ADV_CITUS_MUTABLE:
			s = pstrdup("Citus evaluates non-IMMUTABLE functions once, on the coordinator, so a statement on a distributed table cannot use them with column references, inside CASE or COALESCE, or in RETURNING. Compute the value first and pass it as a parameter, or use an IMMUTABLE expression.");
			*actions = lappend(*actions, pstrdup("Compute the value in a separate query, then pass it as $1 in params."));
			break;

		case ADV_CITUS_UNIQUE:
			s = psprintf("Citus enforces a unique key or primary key inside each shard only, so on distributed table%s it must include the table's distribution column. Add the distribution column to the key (e.g. UNIQUE (tenant_id, id)).",
						 a ? psprintf(" %s", qn(a)) : "s");
			*actions = lappend(*actions, pstrdup(CITUS_DIST_COLUMN_ACTION));
			*actions = lappend(*actions, pstrdup("Add it to the columns of the UNIQUE or PRIMARY KEY constraint, or of the unique index."));
			break;

		case ADV_CITUS_DIST_ALTER:
			s = pstrdup("Citus cannot change the type of, or drop, a distributed table's distribution column: its value decides the shard of each row. Leave the column as it is; if it must change, the table's owner can redistribute the table with alter_distributed_table() or undistribute_table().");
			*actions = lappend(*actions, pstrdup(CITUS_DIST_COLUMN_ACTION));
			break;

		case ADV_CITUS_INTERMEDIATE:
			s = pstrdup("A CTE or subquery of this query returned more than Citus may gather in one place (citus.max_intermediate_result_size), which a tool call cannot raise. Filter or aggregate inside the CTE or subquery so that it returns less, or join on the distribution columns so that Citus runs it on the shards.");
			break;

		case ADV_CITUS_SETTING:
			s = psprintf("A tool call may not change %s: of Citus's settings, which keep the cluster consistent and the call's rules on every node, a call may change only those that shape one query's plan, with SET LOCAL: %s. Write the statement without changing %s.",
						 f->setting ? psprintf("Citus's setting %s", qn(f->setting)) : "this Citus setting",
						 nat_citus_allowed_settings(),
						 f->setting ? qn(f->setting) : "it");
			*actions = lappend(*actions, pstrdup("Leave the setting as it is, and retry the statement without the change."));
			break;

		case ADV_CITUS_NODE:
			s = psprintf("Citus could not reach its node%s, which holds shards this statement needs. Retry in a moment; if it keeps failing, the node is down or refuses connections: tell the database administrator.",
						 where ? psprintf(" %s", where) : "");
			*actions = lappend(*actions, pstrdup("Retry the call after a short wait."));
			*actions = lappend(*actions, pstrdup("If it keeps failing, ask the database administrator to check the Citus node."));
			break;

		default:
			break;
	}
	return s;
}

/*
 * The suggestion and suggested actions for what a pattern found.
 */
static void
advise(Advice advice, Dialect dialect, Found *f, char **suggestion,
	   List **actions)
{
	char	   *s = NULL;

	switch (advice)
	{
		case ADV_NONE:
			break;

		case ADV_FK_REFERENCED:
		case ADV_FK_MISSING:
		case ADV_FK_DROP:
		case ADV_DEPENDENT:
			s = advise_references(advice, dialect, f, actions);
			break;

		case ADV_UNIQUE:
		case ADV_NOT_NULL:
		case ADV_NO_DEFAULT:
		case ADV_CHECK:
		case ADV_CHECK_OPTION:
			s = advise_constraint(advice, dialect, f, actions);
			break;

		case ADV_SYNTAX:
		case ADV_SYNTAX_END:
		case ADV_AMBIGUOUS:
		case ADV_NO_TABLE:
		case ADV_NO_COLUMN:
		case ADV_EXISTS:
		case ADV_EXISTS_KEY:
			s = advise_statement(advice, dialect, f, actions);
			break;

		case ADV_PERMISSION:
		case ADV_GRANT:
		case ADV_DB_DENIED:
		case ADV_PRIVILEGE_NEEDED:
		case ADV_OWNER:
		case ADV_RLS:
		case ADV_READ_ONLY:
		case ADV_STANDBY:
			s = advise_privilege(advice, dialect, f, actions);
			break;

		case ADV_AUTH:
		case ADV_NO_ROLE:
		case ADV_HBA:
		case ADV_CONNECT:
		case ADV_DNS:
		case ADV_LOST:
			s = advise_connection(advice, dialect, f, actions);
			break;

		case ADV_TIMEOUT:
		case ADV_LOCK_TIMEOUT:
		case ADV_TRX_TIMEOUT:
		case ADV_IDLE_TIMEOUT:
		case ADV_SERIALIZATION:
		case ADV_DEADLOCK:
		case ADV_ROLLED_BACK:
			s = advise_transaction(advice, dialect, f, actions);
			break;

		case ADV_CONNECTIONS:
		case ADV_MEMORY:
		case ADV_DISK:
		case ADV_TOO_LONG:
		case ADV_BAD_VALUE:
		case ADV_OUT_OF_RANGE:
		case ADV_DIVISION:
		case ADV_DIST_UPDATE:
		case ADV_DIST_NULL:
			s = advise_value(advice, dialect, f, actions);
			break;

		case ADV_CITUS_REPARTITION:
		case ADV_CITUS_COLOCATION:
		case ADV_CITUS_CORRELATED:
		case ADV_CITUS_MULTI_SHARD:
		case ADV_CITUS_LOCAL_JOIN:
		case ADV_CITUS_VOLATILE:
		case ADV_CITUS_MUTABLE:
		case ADV_CITUS_UNIQUE:
		case ADV_CITUS_DIST_ALTER:
		case ADV_CITUS_INTERMEDIATE:
		case ADV_CITUS_NODE:
		case ADV_CITUS_SETTING:
			s = advise_citus(advice, f, actions);
			break;
	}
	*suggestion = s;
}


/* ---------------------------------------------------------------------
 * Classification
 * ---------------------------------------------------------------------
 */

/*
 * The affected resources, dependencies and details of what was found.
 */
static void
collect(Analysis *an)
{
	Found	   *f = &an->found;
	ListCell   *lc;
	StringInfoData buf;

	foreach(lc, f->objects)
		add_name(&an->affected, lfirst(lc));
	foreach(lc, f->referenced)
		add_name(&an->affected, lfirst(lc));
	foreach(lc, f->columns)
		add_name(&an->affected, lfirst(lc));
	if (f->constraint)
		add_name(&an->affected, f->constraint);
	an->dependencies = f->dependencies;
	an->constraint = f->constraint;
	if (f->columns != NIL)
	{
		initStringInfo(&buf);
		foreach(lc, f->columns)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? ", " : "",
							 (char *) lfirst(lc));
		an->column = buf.data;
	}
	an->hint = f->hint;
}

/*
 * Classify the text (secrets already masked) with its code, if any.
 * given_kind is a category already decided (the extension's own errors):
 * it counts as a specific code.
 */
static void
analyze(const char *str, ParsedCode *pc, bool find_code_in_text,
		const NatErrorKind *given_kind, Analysis *an)
{
	SearchText	st;
	ErrorCategory code_cat;
	bool		code_known;
	bool		strong = false;
	Dialect		code_dialect = D_ANY;
	const ErrorPattern *pat = NULL;
	int			i;

	memset(an, 0, sizeof(Analysis));
	prepare_text(str, &st);
	if (find_code_in_text)
		find_code(&st, pc);
	if (given_kind != NULL)
	{
		code_cat = nat_category_of(*given_kind);
		code_known = strong = true;
	}
	else
		code_known = code_category(pc, &code_cat, &strong, &code_dialect);

	for (i = 0; i < lengthof(patterns); i++)
	{
		if (apply_pattern(&patterns[i], &compiled_patterns[i], &st,
						  &an->found, false))
		{
			pat = &patterns[i];
			break;
		}
	}

	if (pat != NULL)
	{
		ErrorCategory pat_cat = nat_category_of(pat->kind);

		if (pat->portable_type)
			pat_cat.portable_type = pat->portable_type;
		if (!code_known || !strong)
			an->cat = pat_cat;
		else if (code_cat.kind == pat_cat.kind)
			an->cat = code_cat;
		else if (pat->refines && given_kind == NULL && pc->sqlstate &&
				 strstr(pat->refines, pc->sqlstate) != NULL)
			an->cat = pat_cat;	/* the pattern knows this code better */
		else
		{
			/* a specific code says otherwise: the pattern does not apply */
			an->cat = code_cat;
			memset(&an->found, 0, sizeof(Found));
			pat = NULL;
		}
	}
	else if (code_known)
		an->cat = code_cat;
	else
		an->cat = nat_category_of(NAT_ERR_UNKNOWN_ERROR);

	an->known = an->cat.kind != NAT_ERR_UNKNOWN_ERROR;
	if (!an->known)
		return;

	an->dialect = pat && pat->dialect != D_ANY ? pat->dialect : code_dialect;
	if (an->dialect == D_MYSQL && code_dialect == D_OCEANBASE)
		an->dialect = D_OCEANBASE;

	if (pat != NULL)
	{
		for (i = 0; i < lengthof(extras); i++)
			apply_pattern(&extras[i], &compiled_extras[i], &st, &an->found,
						  true);
		/* host:port in one piece */
		if (an->found.host && an->found.port == NULL)
		{
			char	   *colon = strrchr(an->found.host, ':');

			if (colon && colon == strchr(an->found.host, ':') &&
				colon[1] != '\0' && strspn(colon + 1, "0123456789") == strlen(colon + 1))
			{
				an->found.port = pstrdup(colon + 1);
				an->found.host = pnstrdup(an->found.host, colon - an->found.host);
			}
		}
		advise(pat->advice, an->dialect, &an->found, &an->suggestion,
			   &an->actions);
		collect(an);
	}
	/* PostgreSQL's "Perhaps you meant ..." is the best suggestion there is */
	if (an->hint && NAT_IS_DID_YOU_MEAN(an->hint))
		an->suggestion = an->hint;
	an->generic = generic_suggestion(an->cat, pat == NULL && !strong);
}

/*
 * The start of a text cut short (unread bytes were left out), without a
 * URI cut in its last word: masking finds a URI's password by the "@"
 * that follows it.  (A password=... value cut short is still masked.)
 */
char *
nat_whole_words(const char *str, int64 unread)
{
	int			len = strlen(str);
	int			word = len;

	if (unread <= 0)
		return pstrdup(str);
	while (word > 0 && !isspace((unsigned char) str[word - 1]))
		word--;
	if (strstr(str + word, "://") != NULL)
		len = word;
	return pnstrdup(str, len);
}

/*
 * The message-pattern layer, for nat_enrich_error() (error_enrich.c):
 * classify message (of which unread more bytes were left out) with code
 * (a SQLSTATE, a MySQL or Oracle-mode code, ...; NULL: look for one in the
 * text) or, instead of a code, a category the caller already decided
 * (given_kind).  Secrets are masked before anything reads the text, and
 * only its start is read.  Everything returned is allocated in the
 * current memory context; *info is always filled in (known false and
 * unknown_error when nothing is recognized).
 */
void
nat_analyze_error_text(const char *message, int64 unread, const char *code,
					   const NatErrorKind *given_kind, ErrorTextInfo *info)
{
	ParsedCode	pc;
	Analysis	an;
	size_t		len = message ? strnlen(message, MaxAllocSize) : 0;
	int			keep;

	memset(&pc, 0, sizeof(pc));
	memset(info, 0, sizeof(ErrorTextInfo));
	if (code != NULL)
		parse_code(nat_mask_secrets(code), &pc);
	/* only the start is searched: mask no more than that */
	keep = len > MAX_ANALYZED_BYTES ?
		pg_mbcliplen(message, len, MAX_ANALYZED_BYTES) : (int) len;
	analyze(nat_mask_secrets(nat_whole_words(message ? pnstrdup(message, keep) : "",
											 unread + len - keep)),
			&pc, pc.error_code == NULL && given_kind == NULL, given_kind, &an);
	info->category = an.cat;
	info->known = an.known;
	info->error_code = pc.error_code ? pc.error_code : pc.sqlstate;
	info->sqlstate = pc.sqlstate;
	info->suggestion = an.suggestion;
	info->generic_suggestion = an.generic;
	info->suggested_actions = an.actions;
	info->affected_resources = an.affected;
	info->dependencies = an.dependencies;
	info->constraint = an.constraint;
	info->column = an.column;
	info->hint = an.hint;
}
