/*-------------------------------------------------------------------------
 *
 * run.h
 *		  Running a plan: the executor of a call, its guards at every level,
 *		  the write budget, Citus, confirmation, policy under SET ROLE, audit
 *		  and statistics.  Uses answer/ and below.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/run/run.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_RUN_H
#define NAT_RUN_H

#include "answer/answer.h"

/* ---- in run/call_guard.c: what statements run for a call may do ---- */

extern void nat_guard_install(void);
extern void nat_guard_begin(bool read_only, MemoryContext cxt);
extern void nat_guard_check_end(void);
extern void nat_guard_end(void);
extern bool nat_split_allowed_function(const char *entry, char **schema, char **name);
extern bool nat_function_may_write(Oid funcid);
extern bool nat_guard_active(void);
extern bool nat_guard_read_only(void);

/* ---- in run/setting_guard.c: settings a call may not change or raise ---- */

extern void nat_setting_guard_install(void);

/* citus_calls.c */
extern void nat_citus_call_begin(bool read_only);
extern void nat_citus_call_end(void);
extern bool nat_citus_call_active(void);
extern void nat_citus_call_abort(void);
extern void nat_citus_call_write_limit(int64 limit);
extern void nat_citus_call_check_utility(PlannedStmt *pstmt, const char *queryString);
extern bool nat_citus_own_lock_switch(PlannedStmt *pstmt, const char *queryString);

/* citus_worker.c */
extern void nat_citus_worker_install(void);
extern bool nat_citus_worker_from_coordinator(PlannedStmt *pstmt);
extern void nat_citus_worker_statement_done(void);
extern void nat_citus_worker_coordinator_setting(bool on);
extern bool nat_citus_worker_coordinator_setting_now(void);
extern void nat_citus_worker_check_utility(Node *stmt);

/* call_guard.c, for citus_worker.c */
extern void nat_guard_begin_remote(bool read_only, TimestampTz deadline, MemoryContext cxt);
extern bool nat_guard_remote(void);
extern void nat_setting_guard_begin(void);

/* ---- in run/write_count.c: the rows a call changes, at every level ---- */

struct QueryDesc;
extern void nat_writes_begin(MemoryContext cxt);
extern void nat_writes_end(void);
extern void nat_writes_set_limit(int64 limit);
extern int64 nat_writes_total(void);
extern void nat_writes_pause(void);
extern void nat_writes_resume(void);
extern void nat_writes_finish(QueryDesc *queryDesc);
extern int64 nat_writes_citus_exact(int64 rows);
extern void nat_writes_watch(struct QueryDesc *queryDesc);
extern void nat_writes_check(void);
extern void nat_writes_add(int64 rows);
extern void nat_writes_utility_before(Node *stmt);
extern void nat_writes_utility_after(Node *stmt);
extern void nat_writes_utility_end(Node *stmt);

/* ---- in run/execute.c: the errors of the call's limits ---- */

pg_noreturn extern void nat_throw_write_limit(int64 total, int64 limit) pg_attribute_noreturn();

/* ---- in run/guc_policy.c: the administrator's settings over startup options ---- */

extern void nat_policy_before_define(void);
extern void nat_policy_after_define(void);
extern void nat_policy_check(void);

typedef bool (*NatSettingItemFn) (const char *name, const char *value, void *arg);
extern bool nat_db_role_setting_scan(Relation rel, Snapshot snapshot,
									 Oid databaseid, Oid roleid,
									 NatSettingItemFn fn, void *arg);

/* ---- in run/role_policy.c: the current role's settings under SET ROLE ---- */

extern int	nat_role_policy_begin(void);
extern void nat_role_policy_end(int nest);

/* ---- in run/execute.c: the execution core ---- */

extern int	nat_call_time_ceiling;	/* ai_tool_run(): the time left to its
									 * calls */
extern void nat_call_settings_for_workers(void);
extern int	nat_effective_timeout(ToolCall *call);
extern Jsonb *nat_run_tool_call(const char *name, Jsonb *args,
								bool plan_only);

/* in run/tool_stats.c: per-tool statistics in shared memory */
extern void nat_stats_install(void);
extern void nat_stats_call_answered(ToolCall *call, Jsonb *answer);
extern void nat_stats_call_escaped(ToolCall *call);

/* ---- in run/connection_rules.c and run/audit.c ---- */

extern void nat_check_connection(void);
extern void nat_audit_call(ToolCall *call, const char *outcome);
extern char *nat_mask_literals(const char *sql);

/* ---- in run/confirmation.c: neon_ai_tools.confirmation and its limits ---- */

extern int	nat_confirmation;
extern int	nat_confirmation_timeout_ms;
extern int	nat_confirmation_min_rows;
extern void nat_confirmation_check(ToolCall *call, int64 affected);

#endif							/* NAT_RUN_H */
