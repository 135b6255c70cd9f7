/*
 * metrics_cost: what one point-select request over HTTP costs in the
 * metrics (src/mcp/metrics.c), alone: the counting calls such a request
 * makes, 5,000,000 times, with metrics off and on, on THREADS threads at
 * once (the same counters, as libmicrohttpd's threads share them).
 * Prints the CPU time per request for each (CPU, not wall time: other
 * load on the machine does not count); test/bench/mcp_metrics.sh divides the
 * difference by the server's CPU time per call.
 *
 * Built by `make -C src/mcp metrics-cost`.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/metrics.h"

#define REQUESTS 5000000L

/* what metrics.o needs besides itself; never called on the counting path */
void	   *
mcp_realloc(void *ptr, size_t size)
{
	return realloc(ptr, size);
}

static void *
work(void *arg)
{
	static const char *const tools[] = {"select_query", "insert_data", "list_tables", "describe_table"};
	static const char *const roles[] = {"agent_a", "agent_b"};
	long		n = *(long *) arg;

	for (long i = 0; i < n; i++)
	{
		mcp_metrics_method("tools/call");
		mcp_metrics_pool_wait(0, false);
		mcp_metrics_tool_call(tools[i & 3], true, roles[i & 1], "ok", 0.35, 400);
		mcp_metrics_http_response(200, 900);
	}
	return NULL;
}

static double
run(int threads)
{
	pthread_t	t[64];
	long		each = REQUESTS / threads;
	struct timespec a,
				b;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, work, &each);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / REQUESTS;
}

int
main(int argc, char **argv)
{
	int			threads = argc > 1 ? atoi(argv[1]) : 1;
	double		off,
				on;

	if (threads < 1 || threads > 64)
		threads = 1;
	off = run(threads);
	mcp_metrics_enable();
	on = run(threads);
	printf("%d threads: %.1f ns per request off, %.1f on (CPU time per request, all threads)\n",
		   threads, off, on);
	return 0;
}
