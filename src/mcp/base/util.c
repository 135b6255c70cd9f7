/*-------------------------------------------------------------------------
 *
 * util.c
 *	  Memory helpers of neon-ai-tools-mcp.
 *
 * Allocation failures end the program (exit code 2, after a message on
 * stderr): a transport that cannot allocate cannot answer either, and an
 * MCP client shows the exit.
 *
 * IDENTIFICATION
 *	  src/mcp/base/util.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "base/base.h"

/* answers at least this large are followed by malloc_trim() */
#define MCP_RELEASE_MEMORY_BYTES (1024 * 1024)

static void out_of_memory(void) MCP_NORETURN;

/*
 * Report and exit.  Written with fputs so it allocates nothing.
 */
static void
out_of_memory(void)
{
	fputs(MCP_PROGNAME ": out of memory\n", stderr);
	exit(MCP_EXIT_FATAL);
}

/*
 * malloc that never returns NULL.
 */
void *
mcp_malloc(size_t size)
{
	void	   *p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

/*
 * realloc that never returns NULL.
 */
void *
mcp_realloc(void *ptr, size_t size)
{
	void	   *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

/*
 * strdup that never returns NULL.
 */
char *
mcp_strdup(const char *s)
{
	return mcp_strndup(s, strlen(s));
}

/*
 * Copy of the first len bytes of s, NUL-terminated.
 */
char *
mcp_strndup(const char *s, size_t len)
{
	char	   *p = mcp_malloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/*
 * sprintf into a fresh allocation.
 */
char *
mcp_psprintf(const char *fmt,...)
{
	va_list		ap;
	int			needed;
	char	   *buf;

	va_start(ap, fmt);
	needed = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (needed < 0)
		return mcp_strdup("");
	buf = mcp_malloc((size_t) needed + 1);
	va_start(ap, fmt);
	vsnprintf(buf, (size_t) needed + 1, fmt, ap);
	va_end(ap);
	return buf;
}

/*
 * Milliseconds on the monotonic clock.
 */
double
mcp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/*
 * FNV-1a, 64 bits, of a string: the same text, the same value, in every
 * process.  A name and a change detector, not a defence.
 */
uint64_t
mcp_text_hash(const char *txt)
{
	uint64_t	hash = UINT64_C(14695981039346656037);
	const unsigned char *p;

	for (p = (const unsigned char *) txt; *p != '\0'; p++)
		hash = (hash ^ *p) * UINT64_C(1099511628211);
	return hash;
}

/*
 * After a large answer: give the heap's free memory back to the system
 * (glibc keeps it, and the resident size would stay at its high-water
 * mark after a burst of large answers).
 */
void
mcp_release_memory(size_t bytes_handled)
{
#ifdef __GLIBC__
	if (bytes_handled >= MCP_RELEASE_MEMORY_BYTES)
		malloc_trim(0);
#endif
}
