/*-------------------------------------------------------------------------
 *
 * guc_policy.c
 *		  Keeping the administrator's policy when a client's startup option
 *		  for a neon_ai_tools.* setting is refused.
 *
 * The problem.  Unless the library is in shared_preload_libraries, our
 * settings do not exist when a session starts.  A client's startup option
 * (PGOPTIONS="-c neon_ai_tools.read_only=off") then creates a placeholder
 * with source "client", the highest source a session starts with, so the
 * values an administrator set with ALTER ROLE / ALTER DATABASE ... SET (and
 * the postgresql.conf / ALTER SYSTEM value the placeholder held before) are
 * skipped: they rank lower, and nothing keeps them.  When the library loads
 * and defines the real PGC_SUSET variable, PostgreSQL re-applies the
 * placeholder's value with the client's rights, refuses it ("permission
 * denied to set parameter") and leaves the variable at its built-in
 * default, which is our most permissive value.
 *
 * What we do.  Before the variables are defined, nat_policy_before_define()
 * notes the source of each of our placeholders.  Afterwards,
 * nat_policy_after_define() compares: a placeholder whose value came from
 * the client (or a later SET) and ended up with a lower source than it had
 * was refused.  Then the administrator's layers are applied again to those
 * variables only, each with its own source, as PostgreSQL would have
 * applied them had the client not sent the option:
 *
 *	 - pg_db_role_setting: the role-in-database, role, database and global
 *	   rows of this session, with PGC_S_DATABASE_USER, PGC_S_USER,
 *	   PGC_S_DATABASE and PGC_S_GLOBAL;
 *	 - postgresql.conf (with its includes) and postgresql.auto.conf (ALTER
 *	   SYSTEM), re-read, as the configuration file (PGC_S_FILE).
 *
 * Not restored: a value the postmaster got from its command line or its
 * environment (PGC_S_ARGV, PGC_S_ENV_VAR), of which a backend keeps no
 * copy.
 *
 * Sources are compared, not values: "-c neon_ai_tools.read_only=off" equals
 * the built-in default, yet it wipes a role's "on".  Values a client was
 * allowed to set (a superuser's, a role granted SET ON PARAMETER, the
 * user-settable ones) are accepted by PostgreSQL, keep their source and are
 * left alone; so are settings the client did not touch.  Values set at or
 * below the default-making sources are not transactional, so a rollback of
 * the transaction that loaded the library keeps the restored values.
 *
 * If a layer cannot be read or one of its values cannot be applied, the
 * session fails closed: nat_policy_check() makes every call raise an ERROR
 * telling the client to reconnect without the option.
 *
 * With shared_preload_libraries none of this runs: the variables exist
 * before the session starts, and PostgreSQL itself refuses the connection
 * (FATAL: permission denied to set parameter).
 *
 * IDENTIFICATION
 *		  src/core/guc_policy.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_db_role_setting.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "run/run.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#define NAT_GUC_PREFIX "neon_ai_tools."

/* one of our placeholders, as it was before the variables were defined */
typedef struct PlaceholderNote
{
	char	   *name;
	GucSource	source;			/* of the current value */
	GucSource	reset_source;	/* of the value RESET returns to */
} PlaceholderNote;

/* notes between nat_policy_before_define() and nat_policy_after_define() */
static List *placeholder_notes = NIL;

/* our variables whose client value was refused, while they are restored */
static List *refused_variables = NIL;

/* why calls are refused in this session, or NULL */
static const char *policy_broken = NULL;

static bool has_our_prefix(const char *name);
static struct config_generic *find_variable(const char *name);
static bool reapply_config_files(void);
static bool reapply_db_role_settings(void);
static bool reapply_db_role_row(Relation rel, Snapshot snapshot,
								Oid databaseid, Oid roleid, GucSource source);
static bool reapply_db_role_item(const char *name, const char *value, void *arg);
static bool reapply_value(const char *name, const char *value,
						  GucContext context, GucSource source);

/*
 * Is this one of our names?  GUC names are case-insensitive, so is this.
 */
static bool
has_our_prefix(const char *name)
{
	return pg_strncasecmp(name, NAT_GUC_PREFIX, strlen(NAT_GUC_PREFIX)) == 0;
}

/*
 * The GUC variable or placeholder called name, or NULL.  A linear scan:
 * 15 does not export a lookup by name, and this runs once per session.
 */
static struct config_generic *
find_variable(const char *name)
{
	struct config_generic **vars;
	int			nvars;
	int			i;

	vars = nat_guc_variables(&nvars);
	for (i = 0; i < nvars; i++)
	{
		if (pg_strcasecmp(vars[i]->name, name) == 0)
			return vars[i];
	}
	return NULL;
}

/*
 * Note the sources of our placeholders; called before the first
 * DefineCustom*Variable(), which frees them.
 */
void
nat_policy_before_define(void)
{
	MemoryContext workcxt;
	MemoryContext oldcxt;
	struct config_generic **vars;
	int			nvars;
	int			i;

	/* 16 and later return a palloc'd copy of the list of variables */
	workcxt = AllocSetContextCreate(CurrentMemoryContext,
									"neon_ai_tools placeholders",
									ALLOCSET_SMALL_SIZES);
	oldcxt = MemoryContextSwitchTo(workcxt);
	vars = nat_guc_variables(&nvars);
	MemoryContextSwitchTo(TopMemoryContext);
	for (i = 0; i < nvars; i++)
	{
		struct config_generic *var = vars[i];
		PlaceholderNote *note;

		if ((var->flags & GUC_CUSTOM_PLACEHOLDER) == 0 ||
			!has_our_prefix(var->name))
			continue;
		note = palloc(sizeof(PlaceholderNote));
		note->name = pstrdup(var->name);
		note->source = var->source;
		note->reset_source = var->reset_source;
		placeholder_notes = lappend(placeholder_notes, note);
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(workcxt);
}

/*
 * Compare our variables with their placeholders' notes and, if PostgreSQL
 * refused a value a client gave, apply the administrator's layers again.
 * Called after every variable is defined.
 */
void
nat_policy_after_define(void)
{
	MemoryContext workcxt;
	MemoryContext oldcxt;
	StringInfoData refused;
	ListCell   *lc;

	if (placeholder_notes == NIL)
		return;

	workcxt = AllocSetContextCreate(CurrentMemoryContext,
									"neon_ai_tools policy",
									ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(workcxt);

	initStringInfo(&refused);
	foreach(lc, placeholder_notes)
	{
		PlaceholderNote *note = (PlaceholderNote *) lfirst(lc);
		struct config_generic *var = find_variable(note->name);

		/*
		 * Only a value from the client or the session (sources above every
		 * administrator's layer) counts: an invalid postgresql.conf or ALTER
		 * ROLE value refused here keeps PostgreSQL's own behaviour (a
		 * WARNING, and the next layer or the default).  A variable that no
		 * longer exists (a misspelt name, removed by MarkGUCPrefixReserved)
		 * has nothing to restore.
		 */
		if (var != NULL && (var->flags & GUC_CUSTOM_PLACEHOLDER) == 0 &&
			((note->source >= PGC_S_CLIENT && note->source > var->source) ||
			 (note->reset_source >= PGC_S_CLIENT &&
			  note->reset_source > var->reset_source)))
		{
			refused_variables = lappend(refused_variables, var);
			appendStringInfo(&refused, "%s%s", refused.len > 0 ? ", " : "",
							 var->name);
		}
		pfree(note->name);
	}
	list_free_deep(placeholder_notes);
	placeholder_notes = NIL;

	if (refused.len > 0)
	{
		/*
		 * Refuse calls until the layers are back.  Should reading them raise
		 * an ERROR, the flag stays set, and a retried load of the library
		 * fails anyway (its variables are already defined): the session stays
		 * closed either way.
		 */
		policy_broken = "the administrator's settings could not be restored";

		/*
		 * Only the refused variables are touched: the others kept their
		 * administrator's or accepted client values.  Highest source first: a
		 * value that a higher layer already overrides is skipped
		 * (reapply_value), as PostgreSQL never applied it either.
		 * pg_db_role_setting needs a transaction; loading the library from a
		 * call, LOAD or session_preload_libraries always has one.
		 */
		if (IsTransactionState() &&
			reapply_db_role_settings() &&
			reapply_config_files())
			policy_broken = NULL;

		ereport(LOG,
				(errmsg("neon_ai_tools: the client's value of %s was refused; %s",
						refused.data,
						policy_broken ? "tool calls are refused in this session" :
						"the administrator's settings (roles, databases, configuration files) were applied again"),
				 policy_broken ? 0 :
				 errdetail("Values given on the server's command line or in its environment are not restored.")));
		list_free(refused_variables);
		refused_variables = NIL;
	}

	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(workcxt);
}

/*
 * Refuse the call if this session could not restore the administrator's
 * settings (see nat_policy_after_define()).
 */
void
nat_policy_check(void)
{
	if (policy_broken != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("neon_ai_tools cannot enforce its settings in this session"),
				 errdetail("A value this session gave a neon_ai_tools setting was refused, and %s.",
						   policy_broken),
				 errhint("Reconnect without \"-c neon_ai_tools.*\" in the connection's options (PGOPTIONS).")));
}

/*
 * Apply one value of an administrator's layer to the variable name, if it
 * is one whose client value was refused.  Other names are skipped: other
 * settings, and names that are not a defined variable (PostgreSQL only
 * warns about a misspelt name).  So is a value that a higher layer already
 * overrides, without checking it, as PostgreSQL would have done.  False if
 * the value could not be applied.
 */
static bool
reapply_value(const char *name, const char *value,
			  GucContext context, GucSource source)
{
	struct config_generic *var;

	if (!has_our_prefix(name))
		return true;
	var = find_variable(name);
	if (var == NULL || !list_member_ptr(refused_variables, var))
		return true;
	if (var->source > source && var->reset_source > source)
		return true;
	if (value == NULL)
		return false;

	/*
	 * A source at or below PGC_S_OVERRIDE makes the value the one RESET
	 * returns to as well, outside the transaction's undo.
	 */
	return set_config_option(var->name, value, context, source,
							 GUC_ACTION_SET, true, WARNING, false) > 0;
}

/*
 * pg_db_role_setting, the four rows that applied when this session
 * started, highest source first.  The role is the one that logged in
 * (PostgreSQL applied its rows then, before any SET SESSION AUTHORIZATION).
 */
static bool
reapply_db_role_settings(void)
{
	Oid			roleid = GetAuthenticatedUserId();
	Relation	rel;
	Snapshot	snapshot;
	bool		ok;

	rel = table_open(DbRoleSettingRelationId, AccessShareLock);
	snapshot = RegisterSnapshot(GetCatalogSnapshot(DbRoleSettingRelationId));

	ok = reapply_db_role_row(rel, snapshot, MyDatabaseId, roleid, PGC_S_DATABASE_USER) &&
		reapply_db_role_row(rel, snapshot, InvalidOid, roleid, PGC_S_USER) &&
		reapply_db_role_row(rel, snapshot, MyDatabaseId, InvalidOid, PGC_S_DATABASE) &&
		reapply_db_role_row(rel, snapshot, InvalidOid, InvalidOid, PGC_S_GLOBAL);

	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);
	return ok;
}

/*
 * reapply_db_role_row()'s item callback: the source travels in arg.
 */
static bool
reapply_db_role_item(const char *name, const char *value, void *arg)
{
	return reapply_value(name, value, PGC_SUSET, *(GucSource *) arg);
}

/*
 * One row of pg_db_role_setting: its "name=value" items for our prefix.
 * Whoever stored them had the right to (ALTER ROLE / DATABASE ... SET
 * checks that), so they are applied with PGC_SUSET, as at session start.
 */
static bool
reapply_db_role_row(Relation rel, Snapshot snapshot,
					Oid databaseid, Oid roleid, GucSource source)
{
	return nat_db_role_setting_scan(rel, snapshot, databaseid, roleid,
									reapply_db_role_item, &source);
}

/*
 * Call fn(name, value, arg) for each "name=value" item of our prefix in the
 * pg_db_role_setting row of (databaseid, roleid), in the row's order;
 * value is NULL for an item without "=".  Stops, and returns false, when
 * fn does.  rel is pg_db_role_setting, open; snapshot a catalog snapshot.
 * role_policy.c reads a role's rows with it too.
 */
bool
nat_db_role_setting_scan(Relation rel, Snapshot snapshot,
						 Oid databaseid, Oid roleid,
						 NatSettingItemFn fn, void *arg)
{
	ScanKeyData keys[2];
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		ok = true;

	ScanKeyInit(&keys[0], Anum_pg_db_role_setting_setdatabase,
				BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(databaseid));
	ScanKeyInit(&keys[1], Anum_pg_db_role_setting_setrole,
				BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(roleid));
	scan = systable_beginscan(rel, DbRoleSettingDatidRolidIndexId, true,
							  snapshot, 2, keys);
	while (ok && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		config;
		Datum	   *items;
		bool	   *nulls;
		int			nitems;
		int			i;

		config = heap_getattr(tuple, Anum_pg_db_role_setting_setconfig,
							  RelationGetDescr(rel), &isnull);
		if (isnull)
			continue;
		deconstruct_array_builtin(DatumGetArrayTypeP(config), TEXTOID,
								  &items, &nulls, &nitems);
		for (i = 0; i < nitems && ok; i++)
		{
			char	   *name;
			char	   *value;

			if (nulls[i])
				continue;
			ParseLongOption(TextDatumGetCString(items[i]), &name, &value);
			if (has_our_prefix(name))
				ok = fn(name, value, arg);
		}
	}
	systable_endscan(scan);
	return ok;
}

/*
 * postgresql.conf (with its includes) and then postgresql.auto.conf, read
 * again: the placeholder held their value before the client's replaced it,
 * and the backend keeps no other copy.  Like PostgreSQL, only the last
 * occurrence of a name counts.  A file PostgreSQL cannot parse fails.
 */
static bool
reapply_config_files(void)
{
	ConfigVariable *head = NULL;
	ConfigVariable *tail = NULL;
	ConfigVariable *item;

	if (ConfigFileName == NULL ||
		!ParseConfigFile(ConfigFileName, true, NULL, 0,
						 NAT_CONF_FILE_START_DEPTH, WARNING, &head, &tail))
		return false;
	/* relative to the data directory, and optional, as for the server */
	if (DataDir != NULL &&
		!ParseConfigFile(PG_AUTOCONF_FILENAME, false, NULL, 0,
						 NAT_CONF_FILE_START_DEPTH, WARNING, &head, &tail))
		return false;

	for (item = head; item != NULL; item = item->next)
	{
		ConfigVariable *later;
		bool		overridden = false;

		if (!has_our_prefix(item->name))
			continue;
		for (later = item->next; later != NULL && !overridden; later = later->next)
			overridden = pg_strcasecmp(later->name, item->name) == 0;
		if (!overridden &&
			!reapply_value(item->name, item->value, PGC_SIGHUP, PGC_S_FILE))
			return false;
	}
	return true;
}
