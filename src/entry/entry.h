/*-------------------------------------------------------------------------
 *
 * entry.h
 *		  The SQL entry points (ai_tool_list, ai_tool_call, ai_tool_run,
 *		  ai_tool_define, ...) and the definition of the settings.  Uses every
 *		  layer below.
 *
 * Each layer's header includes the one below it (Makefile, NAT_LAYERS;
 * README, "Layout"), so a file sees its own layer's declarations and
 * those of the layers under it, never those above.
 *
 * IDENTIFICATION
 *		  src/entry/entry.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NAT_ENTRY_H
#define NAT_ENTRY_H

#include "run/run.h"

/*
 * The flow of one call, top to bottom:
 *
 *	 ai_tool_call()  (entry/neon_ai_tools.c, thin entry point)
 *	   -> nat_run_tool_call(): subtransaction, timer,  (run/execute.c,
 *		  read-only, guards, error capture                base/call_timer.c)
 *		 -> registry lookup                              (registry/registry.c)
 *		 -> validate and decode the arguments once       (registry/args.c)
 *			into the tool's struct
 *		 -> the tool's planner fills a ToolPlan          (tools/, plan/tool_plan.h)
 *			  resolve names through the catalog          (plan/names.c)
 *			  build SQL with bound parameters            (plan/deparse.c, plan/filter.c,
 *														  plan/values.c)
 *		 -> run the plan: SPI, binding, caps             (run/execute.c,
 *														  answer/row_sink.c)
 *		 -> render: the success answer's keys            (answer/response.c)
 *	   -> or the error envelope                          (answer/response.c,
 *														  base/errors.c,
 *														  answer/error_enrich.c)
 */

/* ---- in entry/guc.c and entry/guc_answer.c: defining the settings ---- */

extern void nat_define_settings(void);
extern void nat_define_answer_settings(void);

/* ---- in entry/tool_define.c: defining custom tools ---- */

extern Jsonb *nat_define_tool(const char *name, const char *description,
							  const char *sql, Jsonb *parameters,
							  Jsonb *options);
extern Jsonb *nat_define_function_tool(Oid funcid, Jsonb *options);
extern void nat_drop_tool(const char *name, bool if_exists);

/* ---- in entry/tool_run.c: a model response's tool calls (ai_tool_run) ---- */

extern Jsonb *nat_run_model_response(Jsonb *response, Jsonb *options);

#endif							/* NAT_ENTRY_H */
