/*-------------------------------------------------------------------------
 *
 * call_memory.c
 *		  The memory cap of a tool call, neon_ai_tools.max_call_memory.
 *
 * Two walls hold it.
 *
 * The address space.  When a call starts, the backend's RLIMIT_AS is set to
 * what it maps now plus the cap, and put back when it ends
 * (limit_address_space()).  No allocation, however large and however
 * uninterruptible the C code that makes it (array_fill() of a huge array
 * allocates its whole result at once), takes the call past it: malloc()
 * fails and palloc() raises "out of memory", which execute.c answers as
 * resource_limit.  What the backend maps is learnt once from
 * /proc/self/statm, less what malloc holds then (mallinfo2(), ~0.1 us), and
 * again after a long or failed call; a call costs two setrlimit() calls and
 * no file read.  The stack is mapped down to max_stack_depth once per
 * backend first: a stack that had to grow under the limit would end the
 * backend with SIGSEGV, and the postmaster would restart every session.
 * execute.c turns JIT off inside calls: LLVM is a 100 MB library mapped on
 * first use.
 *
 * The private memory.  Memory the process had mapped before the call (a
 * malloc arena left large by earlier work) can be reused without mapping
 * more, so the backend's resident private memory, the anonymous pages of
 * /proc/self/statm (resident less shared: every memory context, sort and
 * hash tables, the planner's join search; not shared buffers), is read by
 * a timer of its own (a USER_TIMEOUT, like the deadline's) NAT_MEMORY_FIRST_MS
 * after the call starts, to take the call's base, then every
 * NAT_MEMORY_TICK_MS.  Reading the file takes open(), read() and close(),
 * which may be called in a signal handler.  A call over its cap gets what
 * the deadline gives a call over its time: a query cancel at once and at
 * every later tick, every statement, plan and function it starts refused
 * (nat_memory_check(), from call_guard.c's hooks), and, for code that
 * catches the cancel and goes on (a cancel was raised, and the call still
 * runs), NAT_MEMORY_KILL_MS later the end of the backend as
 * pg_terminate_backend() would, with an error context that says why.
 *
 * Arguments are measured before anything is done with them: a call whose
 * arguments are larger than a fraction of the cap (each value is copied a
 * few times on its way into a statement) is refused at once
 * (nat_memory_check_args()).
 *
 * IDENTIFICATION
 *		  src/core/call_memory.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include "miscadmin.h"
#include "base/base.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

/* when the base is taken, how often the size is read, when the backend ends */
#define NAT_MEMORY_FIRST_MS		5
#define NAT_MEMORY_TICK_MS		10
#define NAT_MEMORY_KILL_MS		1000

/* arguments may take this fraction of the cap (1/8) */
#define NAT_MEMORY_ARGS_SHIFT	3

int			nat_max_call_memory_kb = 256 * 1024;

static TimeoutId memory_timeout_id = MAX_TIMEOUTS;
static long page_kb = 4;

/* the call being measured; written by the handler */
static volatile sig_atomic_t measuring = false;
static volatile sig_atomic_t have_base = false;
static volatile long base_kb = 0;
static volatile long cap_kb = 0;
static volatile sig_atomic_t exceeded = false;
static volatile sig_atomic_t killed = false;
static TimestampTz swallowed_at = 0;
static ErrorContextCallback memory_context;

/*
 * The backend's mapped memory (VmSize) and resident private memory
 * (resident less shared), in kB, from /proc/self/statm; false if it cannot
 * be read.  Only calls that a signal handler may make.
 */
static bool
read_statm(long *mapped_kb, long *private_kb)
{
	char		buf[128];
	long		fields[3] = {0, 0, 0};
	int			fd;
	ssize_t		n;
	int			f = 0;
	ssize_t		i;

	fd = open("/proc/self/statm", O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	/* size resident shared ...: pages */
	for (i = 0; i < n && f < 3; i++)
	{
		if (buf[i] >= '0' && buf[i] <= '9')
			fields[f] = fields[f] * 10 + (buf[i] - '0');
		else if (buf[i] == ' ')
			f++;
	}
	if (f < 2)
		return false;
	*mapped_kb = fields[0] * page_kb;
	*private_kb = (fields[1] - fields[2]) * page_kb;
	return true;
}

/* ---- the address-space wall ---- */

/* the limit the backend had, what is mapped besides malloc's memory */
static bool as_known = false;
static struct rlimit as_original;
static long as_other_kb = 0;
static bool as_limited = false;
static TimestampTz as_calibrated_at = 0;
static char *stack_grown_to = NULL; /* the lowest stack address mapped */
static int	stack_grown_for = 0;	/* ... for this max_stack_depth */

/* how often what is mapped is learnt again (libraries loaded meanwhile) */
#define NAT_MEMORY_CALIBRATE_MS	1000

/* mapped memory that the limit leaves beyond the cap (estimate's error) */
#define NAT_MEMORY_AS_SLACK_KB	(8 * 1024)

/* what malloc holds (its heap and its own mappings), in kB: ~0.1 us */
static long
malloc_held_kb(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (long) ((mi.arena + mi.hblkhd) / 1024);
}

/* learn what is mapped besides malloc's memory (shared memory, libraries) */
static void
calibrate(void)
{
	long		vm;
	long		private_kb;

	if (read_statm(&vm, &private_kb))
		as_other_kb = vm - malloc_held_kb();
	as_calibrated_at = GetCurrentTimestamp();
}

/*
 * Map the stack down to max_stack_depth below its base (where PostgreSQL
 * measures the depth from), and a little more, the kernel's stack limit
 * permitting: with the address space limited, a stack that had to grow
 * would end the backend with SIGSEGV, and the postmaster would restart
 * every session.  The kernel never shrinks it, so this is done once, and
 * again only if max_stack_depth is raised.
 */
static void
grow_stack(void)
{
	pg_stack_base_t base;
	struct rlimit st;
	long		depth = (long) max_stack_depth * 1024L + 128 * 1024L;
	char		here;
	char	   *target;
	volatile char *p;
	long		bytes;
	long		i;

	if (stack_grown_to != NULL && stack_grown_for == max_stack_depth)
		return;
	base = set_stack_base();
	restore_stack_base(base);	/* set_stack_base() only to read the base */
	stack_grown_for = max_stack_depth;
	if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY)
		depth = Min(depth, (long) st.rlim_cur - 256 * 1024L);
	target = (char *) base - depth;
	if (stack_grown_to != NULL && stack_grown_to <= target)
		return;
	bytes = &here - target - 1024;	/* below this frame */
	if (bytes > 0)
	{
		p = alloca(bytes);
		for (i = bytes - 1; i >= 0; i -= 4096)
			p[i] = 0;
		p[0] = 0;
	}
	stack_grown_to = target;
}

/*
 * Limit the backend's address space to what it maps now plus the cap, so
 * that no allocation, however large and however uninterruptible the code
 * that makes it, takes the call past the cap: malloc() fails, and palloc()
 * raises "out of memory".  Two system calls a call (set, put back).
 */
static void
limit_address_space(void)
{
	struct rlimit lim;
	rlim_t		want;

	if (!as_known)
	{
		if (getrlimit(RLIMIT_AS, &as_original) != 0)
			return;
		calibrate();
		as_known = true;
	}
	else if (GetCurrentTimestamp() >=
			 TimestampTzPlusMilliseconds(as_calibrated_at, NAT_MEMORY_CALIBRATE_MS))
		calibrate();
	grow_stack();
	want = (rlim_t) (as_other_kb + malloc_held_kb() + cap_kb +
					 NAT_MEMORY_AS_SLACK_KB) * 1024;
	if (as_original.rlim_cur != RLIM_INFINITY && want > as_original.rlim_cur)
		want = as_original.rlim_cur;
	lim = as_original;
	lim.rlim_cur = want;
	as_limited = setrlimit(RLIMIT_AS, &lim) == 0;
}

static void
unlimit_address_space(bool recalibrate)
{
	if (!as_limited)
		return;
	(void) setrlimit(RLIMIT_AS, &as_original);
	as_limited = false;
	/* a long or failed call: learn the mappings again (libraries loaded) */
	if (recalibrate)
		calibrate();
}

/*
 * Runs in the SIGALRM handler: keep it minimal.
 */
static void
memory_tick_handler(void)
{
	long		mapped_kb;
	long		now_kb;

	if (!measuring || proc_exit_inprogress)
		return;
	if (!read_statm(&mapped_kb, &now_kb))
		return;
	if (!have_base)
	{
		base_kb = now_kb;
		have_base = true;
		return;
	}
	if (now_kb - base_kb <= cap_kb)
		return;
	if (!exceeded)
	{
		exceeded = true;
		swallowed_at = 0;
	}
	else if (!QueryCancelPending)
	{
		/*
		 * The last cancel was raised (ProcessInterrupts() clears the flag as
		 * it raises it) and the call goes on: its code caught it.  Code that
		 * is still busy in C, never reaching an interrupt check, keeps the
		 * flag set and is left to finish that step.
		 */
		if (swallowed_at == 0)
			swallowed_at = GetCurrentTimestamp();
		else if (GetCurrentTimestamp() >=
				 TimestampTzPlusMilliseconds(swallowed_at, NAT_MEMORY_KILL_MS))
		{
			killed = true;
			ProcDiePending = true;
		}
	}
	InterruptPending = true;
	QueryCancelPending = true;
	SetLatch(MyLatch);
}

static void
memory_error_context(void *arg)
{
	if (killed)
		errcontext("a tool call went over its memory limit of %ld kB and did not stop when cancelled",
				   (long) cap_kb);
}

/*
 * The call starts: measure it.  The base is taken at the first tick.
 */
void
nat_memory_arm(void)
{
	if (nat_max_call_memory_kb <= 0)
		return;
	if (memory_timeout_id == MAX_TIMEOUTS)
	{
		long		page = sysconf(_SC_PAGESIZE);

		page_kb = page > 0 ? page / 1024 : 4;
		memory_timeout_id = RegisterTimeout(USER_TIMEOUT, memory_tick_handler);
	}
	have_base = false;
	exceeded = false;
	killed = false;
	cap_kb = nat_max_call_memory_kb;
	limit_address_space();
	measuring = true;
	memory_context.callback = memory_error_context;
	memory_context.arg = NULL;
	memory_context.previous = error_context_stack;
	error_context_stack = &memory_context;
	enable_timeout_every(memory_timeout_id,
						 TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													 NAT_MEMORY_FIRST_MS),
						 NAT_MEMORY_TICK_MS);
}

/*
 * The call ends, on every way out.
 */
void
nat_memory_disarm(bool failed)
{
	if (!measuring)
		return;
	measuring = false;
	if (memory_timeout_id != MAX_TIMEOUTS)
		disable_timeout(memory_timeout_id, false);
	unlimit_address_space(failed || have_base);
	if (error_context_stack == &memory_context)
		error_context_stack = memory_context.previous;
}

/*
 * In a parallel worker of a call: the same address-space limit, for the
 * worker's own memory (the leader's cap each; the worker ends with the
 * statement, so nothing is put back).
 */
void
nat_memory_limit_worker(int worker_cap_kb)
{
	if (worker_cap_kb <= 0)
		return;
	if (page_kb <= 0 || memory_timeout_id == MAX_TIMEOUTS)
	{
		long		page = sysconf(_SC_PAGESIZE);

		page_kb = page > 0 ? page / 1024 : 4;
	}
	cap_kb = worker_cap_kb;
	limit_address_space();
}

/* did the call go over its cap? */
bool
nat_memory_exceeded(void)
{
	return exceeded;
}

/* the cap in force for the call, in kB */
int
nat_memory_cap_kb(void)
{
	return (int) cap_kb;
}

/*
 * Called by the guard's hooks whenever the call starts a statement, a plan
 * or a function: over the cap nothing more may run.
 */
void
nat_memory_check(void)
{
	if (!exceeded || !measuring)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("canceling statement: the tool call went over its memory limit of %d kB",
					(int) cap_kb)));
}

/*
 * Refuse arguments too large for the call's memory, before they are
 * copied.
 */
void
nat_memory_check_args(Size args_bytes)
{
	int64		allowed;

	if (nat_max_call_memory_kb <= 0)
		return;
	allowed = ((int64) nat_max_call_memory_kb * 1024) >> NAT_MEMORY_ARGS_SHIFT;
	if ((int64) args_bytes > allowed)
		nat_throw_memory_limit(psprintf("the arguments take %zu bytes, more than the %lld bytes a call limited to neon_ai_tools.max_call_memory = %d kB may take",
										args_bytes, (long long) allowed,
										nat_max_call_memory_kb));
}

/*
 * resource_limit: the call went over neon_ai_tools.max_call_memory.
 */
ToolError *
nat_memory_limit_error(void)
{
	ToolError  *err = nat_error(NAT_ERR_RESOURCE_LIMIT,
								"the tool call used more memory than neon_ai_tools.max_call_memory (%d kB) allows and was stopped; nothing was changed",
								nat_memory_cap_kb() > 0 ? nat_memory_cap_kb() : nat_max_call_memory_kb);

	err->suggestion = pstrdup("Ask for less at once: fewer or smaller values, a narrower filter, fewer rows or joined tables. The limit is the server's (neon_ai_tools.max_call_memory).");
	return err;
}

void
nat_throw_memory_limit(const char *what)
{
	ToolError  *err = nat_memory_limit_error();

	err->message = psprintf("%s; nothing was changed", what);
	nat_throw(err);
}
