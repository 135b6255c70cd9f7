/*-------------------------------------------------------------------------
 *
 * mask.c
 *	  Password masking for everything neon-ai-tools-mcp prints.
 *
 * A password can reach text in several ways: the connection string given
 * on the command line (URI userinfo or a password keyword), PGPASSWORD, and
 * libpq's error messages, which may quote a host or URI fragment built from
 * a malformed connection string.  Two layers hide it:
 *
 *	- known secrets: the password as libpq parses it, the raw and
 *	  percent-decoded userinfo password of every URI in the connection
 *	  string, the value of every password keyword, and PGPASSWORD.  Every
 *	  occurrence in a text is replaced.  Secrets shorter than
 *	  MIN_SECRET_LEN are not matched as substrings (they would garble
 *	  ordinary words); the structural layer still hides them where they
 *	  appear as a password;
 *	- structure: "scheme://user:SECRET@host" and "password=SECRET" (also
 *	  "sslpassword=", quoted values, URI query parameters) are masked
 *	  wherever they appear, whatever the secret.
 *
 * mcp_mask_text() returns a masked copy ("********" for each secret);
 * mcp_mask_in_place() overwrites secrets with '*' without changing the
 * length, for argv (so the password does not stay visible in ps).
 *
 * IDENTIFICATION
 *	  src/mcp/base/mask.c
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpq-fe.h"
#include "base/base.h"

#define MASK_TEXT "********"
#define MIN_SECRET_LEN 4

/* a byte range [start, end) of a text to hide */
typedef struct MaskRegion
{
	size_t		start;
	size_t		end;
} MaskRegion;

typedef struct MaskRegions
{
	MaskRegion *items;
	int			count;
	int			cap;
} MaskRegions;

static char **secrets = NULL;
static int	nsecrets = 0;

static void add_region(MaskRegions *regions, size_t start, size_t end);
static int	compare_regions(const void *a, const void *b);
static void find_secret_regions(const char *txt, MaskRegions *regions);
static void find_uri_regions(const char *txt, MaskRegions *regions);
static void find_keyword_regions(const char *txt, MaskRegions *regions);
static void find_regions(const char *txt, MaskRegions *regions);
static char *percent_decode(const char *s, size_t len);

/*
 * Remember one secret (copied).  NULL, short and duplicate secrets are
 * ignored.
 */
void
mcp_mask_add_secret(const char *secret)
{
	int			i;

	if (secret == NULL || strlen(secret) < MIN_SECRET_LEN)
		return;
	for (i = 0; i < nsecrets; i++)
		if (strcmp(secrets[i], secret) == 0)
			return;
	secrets = mcp_realloc(secrets, sizeof(char *) * (nsecrets + 1));
	secrets[nsecrets++] = mcp_strdup(secret);
}

/*
 * Remember every password a connection string (keyword/value or URI, even
 * a malformed one) and the environment carry.
 */
void
mcp_mask_add_conninfo_secrets(const char *conninfo)
{
	PQconninfoOption *options;
	char	   *errmsg = NULL;
	MaskRegions regions = {NULL, 0, 0};
	int			i;

	mcp_mask_add_secret(getenv("PGPASSWORD"));
	if (conninfo == NULL)
		return;

	/* what libpq itself would use */
	options = PQconninfoParse(conninfo, &errmsg);
	if (options != NULL)
	{
		PQconninfoOption *opt;

		for (opt = options; opt->keyword != NULL; opt++)
			if (opt->val != NULL &&
				(strcmp(opt->keyword, "password") == 0 ||
				 strcmp(opt->keyword, "sslpassword") == 0))
				mcp_mask_add_secret(opt->val);
		PQconninfoFree(options);
	}
	if (errmsg != NULL)
		PQfreemem(errmsg);

	/* what the text looks like it carries, raw and percent-decoded */
	find_uri_regions(conninfo, &regions);
	find_keyword_regions(conninfo, &regions);
	for (i = 0; i < regions.count; i++)
	{
		size_t		len = regions.items[i].end - regions.items[i].start;
		char	   *raw = mcp_strndup(conninfo + regions.items[i].start, len);
		char	   *decoded = percent_decode(raw, len);

		char	   *piece;
		char	   *next;

		mcp_mask_add_secret(raw);
		mcp_mask_add_secret(decoded);
		/* libpq ends userinfo at the first "@" and echoes the rest as host */
		for (piece = raw; piece != NULL; piece = next)
		{
			next = strchr(piece, '@');
			if (next != NULL)
				*next++ = '\0';
			mcp_mask_add_secret(piece);
		}
		free(decoded);
		free(raw);
	}
	free(regions.items);
}

/*
 * A masked copy of text (malloc'd; NULL in, NULL out).
 */
char *
mcp_mask_text(const char *txt)
{
	MaskRegions regions = {NULL, 0, 0};
	size_t		textlen;
	size_t		outlen;
	size_t		pos = 0;
	char	   *out;
	int			i;

	if (txt == NULL)
		return NULL;
	find_regions(txt, &regions);
	textlen = strlen(txt);
	outlen = textlen + (size_t) regions.count * strlen(MASK_TEXT) + 1;
	out = mcp_malloc(outlen);
	out[0] = '\0';
	for (i = 0; i < regions.count; i++)
	{
		strncat(out, txt + pos, regions.items[i].start - pos);
		strcat(out, MASK_TEXT);
		pos = regions.items[i].end;
	}
	strcat(out, txt + pos);
	free(regions.items);
	return out;
}

/*
 * Overwrite every secret in text with '*', keeping its length.
 */
void
mcp_mask_in_place(char *txt)
{
	MaskRegions regions = {NULL, 0, 0};
	int			i;

	if (txt == NULL)
		return;
	find_regions(txt, &regions);
	for (i = 0; i < regions.count; i++)
		memset(txt + regions.items[i].start, '*',
			   regions.items[i].end - regions.items[i].start);
	free(regions.items);
}

/*
 * Free the remembered secrets (at exit, so valgrind sees no leak).
 */
void
mcp_mask_forget(void)
{
	int			i;

	for (i = 0; i < nsecrets; i++)
	{
		memset(secrets[i], 0, strlen(secrets[i]));
		free(secrets[i]);
	}
	free(secrets);
	secrets = NULL;
	nsecrets = 0;
}

/*
 * All regions of text to hide, sorted and merged where they overlap.
 */
static void
find_regions(const char *txt, MaskRegions *regions)
{
	int			i;
	int			n = 0;

	find_secret_regions(txt, regions);
	find_uri_regions(txt, regions);
	find_keyword_regions(txt, regions);
	if (regions->count < 2)
		return;
	qsort(regions->items, regions->count, sizeof(MaskRegion), compare_regions);
	for (i = 1; i < regions->count; i++)
	{
		if (regions->items[i].start <= regions->items[n].end)
		{
			if (regions->items[i].end > regions->items[n].end)
				regions->items[n].end = regions->items[i].end;
		}
		else
			regions->items[++n] = regions->items[i];
	}
	regions->count = n + 1;
}

/*
 * Append one non-empty region.
 */
static void
add_region(MaskRegions *regions, size_t start, size_t end)
{
	if (end <= start)
		return;
	if (regions->count == regions->cap)
	{
		regions->cap = regions->cap ? regions->cap * 2 : 8;
		regions->items = mcp_realloc(regions->items,
									 sizeof(MaskRegion) * regions->cap);
	}
	regions->items[regions->count].start = start;
	regions->items[regions->count].end = end;
	regions->count++;
}

/*
 * qsort comparator: by start offset.
 */
static int
compare_regions(const void *a, const void *b)
{
	const MaskRegion *ra = a;
	const MaskRegion *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return 0;
}

/*
 * Every occurrence of every remembered secret.
 */
static void
find_secret_regions(const char *txt, MaskRegions *regions)
{
	int			i;

	for (i = 0; i < nsecrets; i++)
	{
		size_t		len = strlen(secrets[i]);
		const char *p = txt;

		while ((p = strstr(p, secrets[i])) != NULL)
		{
			add_region(regions, p - txt, p - txt + len);
			p += len;
		}
	}
}

/*
 * The password of "scheme://user:password@host...": the userinfo ends at
 * the last '@' of the URI before its query string, so a password with an
 * unencoded '@' is hidden whole.  The URI ends at whitespace or a quote.
 */
static void
find_uri_regions(const char *txt, MaskRegions *regions)
{
	const char *p = txt;

	while ((p = strstr(p, "://")) != NULL)
	{
		const char *start = p + 3;
		const char *end = start;
		const char *at = NULL;
		const char *colon;

		while (*end != '\0' && !isspace((unsigned char) *end) &&
			   *end != '"' && *end != '\'' && *end != '?' && *end != '#')
		{
			if (*end == '@')
				at = end;
			end++;
		}
		if (at != NULL)
		{
			colon = memchr(start, ':', at - start);
			if (colon != NULL)
				add_region(regions, colon + 1 - txt, at - txt);
		}
		p = start;
	}
}

/*
 * The value of "password = value" (any case, also sslpassword and URI query
 * parameters); single-quoted values as libpq writes them, with \' and \\.
 */
static void
find_keyword_regions(const char *txt, MaskRegions *regions)
{
	const char *p = txt;
	static const char keyword[] = "password";

	while (*p != '\0')
	{
		const char *v;

		if (strncasecmp(p, keyword, sizeof(keyword) - 1) != 0)
		{
			p++;
			continue;
		}
		v = p + sizeof(keyword) - 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != '=')
		{
			p += sizeof(keyword) - 1;
			continue;
		}
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == '\'')
		{
			const char *q = v + 1;

			while (*q != '\0' && *q != '\'')
			{
				if (*q == '\\' && q[1] != '\0')
					q++;
				q++;
			}
			add_region(regions, v + 1 - txt, q - txt);
			p = (*q != '\0') ? q + 1 : q;
		}
		else
		{
			const char *q = v;

			while (*q != '\0' && !isspace((unsigned char) *q) &&
				   *q != '&' && *q != '"')
				q++;
			add_region(regions, v - txt, q - txt);
			p = q;
		}
	}
}

/*
 * %XX-decoding of a URI component (invalid escapes are kept as they are).
 */
static char *
percent_decode(const char *s, size_t len)
{
	char	   *out = mcp_malloc(len + 1);
	size_t		i;
	size_t		o = 0;

	for (i = 0; i < len; i++)
	{
		if (s[i] == '%' && i + 2 < len &&
			isxdigit((unsigned char) s[i + 1]) &&
			isxdigit((unsigned char) s[i + 2]))
		{
			char		hex[3] = {s[i + 1], s[i + 2], '\0'};

			out[o++] = (char) strtol(hex, NULL, 16);
			i += 2;
		}
		else
			out[o++] = s[i];
	}
	out[o] = '\0';
	return out;
}
