# Citus (issue 31, cases 1 and 5): a read-only call is read-only on every
# node, however its query reaches the workers; the settings that carry it
# there cannot be changed during the call; the caller's transaction is as
# it was after the call; and a call's deadline holds on a CPU-bound
# distributed join, with nothing left running on the workers.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatCitus;
use PostgreSQL::Test::Utils;
use JSON::PP;
use Test::More;
use Time::HiRes qw(time);

my $c = NatCitus->new('ro');
my $json_text = sub { JSON::PP->new->canonical->encode($_[0]) };
my $coord = $c->{coord};
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE events (tenant_id int NOT NULL, id bigint NOT NULL, kind int, payload text,
		PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('events', 'tenant_id');
	INSERT INTO events SELECT g % 100, g, g % 7, 'p' || g FROM generate_series(1, 50000) g;
	GRANT SELECT, INSERT, UPDATE, DELETE ON events TO agent, agent_ro;
	SELECT run_command_on_all_nodes($c$SET citus.enable_ddl_propagation = off;
		CREATE TABLE ro_sink (tenant_id int); GRANT ALL ON ro_sink TO PUBLIC$c$);
	CREATE FUNCTION ro_writer(t int) RETURNS int VOLATILE LANGUAGE plpgsql
		AS $f$ BEGIN INSERT INTO ro_sink VALUES (t); RETURN 1; END $f$;
	CREATE FUNCTION ro_stable_writer(t int) RETURNS int STABLE LANGUAGE plpgsql
		AS $f$ BEGIN RETURN ro_writer(t); END $f$;
	CREATE VIEW writing_view AS
		SELECT * FROM events WHERE ro_stable_writer(tenant_id) > 0;
	GRANT SELECT ON writing_view TO agent, agent_ro;
	CREATE FUNCTION pool_up() RETURNS int STABLE LANGUAGE sql
		SET citus.function_opens_transaction_block = off AS $f$ SELECT 1 $f$;
	CREATE FUNCTION stable_lock(t int) RETURNS bool STABLE LANGUAGE plpgsql
		AS $f$ BEGIN PERFORM pg_advisory_lock(t); RETURN true; END $f$;
	CREATE FUNCTION stable_unguard(t int) RETURNS bool STABLE LANGUAGE plpgsql
		AS $f$ BEGIN PERFORM set_config('neon_ai_tools.citus_call', '', true); RETURN true; END $f$;
	CREATE FUNCTION stable_reset(t int) RETURNS bool STABLE LANGUAGE plpgsql
		AS $f$ BEGIN PERFORM set_config('neon_ai_tools.citus_call', NULL, true); RETURN true; END $f$;
});

my $digests = sub { join "\n", map { $c->node_digest($_) } $c->all_nodes };
my $before = $digests->();
like($before, qr/ro_sink/, 'every node has its own ro_sink');

# --- 1. writes pushed down to the shards are refused ---------------------
my $writer = 'tenant_id IN (1, 2) AND ro_stable_writer(tenant_id) > 0';
my %paths = (
	'execute_sql' => [ 'execute_sql',
		qq({"sql": "SELECT count(*) FROM events WHERE $writer"}) ],
	'execute_sql, multi-shard' => [ 'execute_sql',
		q({"sql": "SELECT count(*) FROM events WHERE ro_stable_writer(tenant_id) > 0"}) ],
	'execute_sql, a CTE' => [ 'execute_sql',
		qq({"sql": "WITH w AS (SELECT * FROM events WHERE $writer) SELECT count(*) FROM w"}) ],
	'select_query on a view' => [ 'select_query',
		q({"table": "writing_view", "limit": 5}) ],
	'explain_query with analyze' => [ 'explain_query',
		qq({"sql": "SELECT count(*) FROM events WHERE $writer", "analyze": true}) ],
);
for my $path (sort keys %paths)
{
	my ($tool, $args) = @{ $paths{$path} };
	my $r = $c->call($tool, $args, 'agent_ro');
	is($r->{status}, 'error', "$path: refused");
	is($r->{errorType}, 'read_only_violation', "$path: read_only_violation")
	  or diag explain $r;
}
# a role that may write, in a call that is read-only by its tool
my $r = $c->call('select_query',
	q({"table": "writing_view", "limit": 5}), 'agent');
is($r->{errorType}, 'read_only_violation', 'select_query (read-only by tool) as a writer: refused');
is($digests->(), $before, 'nothing changed on any node after the read-only calls');

# the workers' shard queries ran read-only, with the call's deadline
$r = $c->call('execute_sql',
	q({"sql": "SELECT DISTINCT current_setting('transaction_read_only') AS ro, split_part(current_setting('neon_ai_tools.citus_call'), ',', 1) AS mode FROM events"}),
	'agent_ro');
is_deeply($r->{data}, [ { ro => 'on', mode => 'r' } ],
	'the shard queries run read-only, under the call\'s guard') or diag explain $r;

# --- 1b. the workers guard the call's shard queries -----------------------
# (neon_ai_tools is in the workers' shared_preload_libraries)
for my $case (
	[ 'a pushed-down session lock', 'tenant_id IN (1, 2) AND stable_lock(tenant_id)',
		qr/pg_advisory_lock.*(?:would outlive the tool call|is not allowed in a tool call)/ ],
	[ 'a pushed-down change of the call state',
		'tenant_id IN (1, 2) AND stable_unguard(tenant_id)',
		qr/cannot be changed during a tool call|set_config.* is not allowed in a read-only tool call/ ],
	[ 'a pushed-down reset of the call state',
		'tenant_id IN (1, 2) AND stable_reset(tenant_id)',
		qr/cannot be changed during a tool call|set_config.* is not allowed in a read-only tool call/ ])
{
	my ($name, $where, $msg) = @$case;
	for my $role ('agent', 'agent_ro')
	{
		$r = $c->call('execute_sql',
			qq({"sql": "SELECT count(*) FROM events WHERE $where"}), $role);
		is($r->{status}, 'error', "$name ($role): refused on the workers");
		like($r->{error}, $msg, "$name ($role): the worker says why") or diag explain $r;
	}
}
my $locks = 0;
$locks += $_->safe_psql('postgres', q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'})
  for $c->all_nodes;
is($locks, 0, 'no advisory lock is held on any node');
# Citus's own work on the workers passes the guard: intermediate results,
# repartitioned aggregates, a reference join
for my $case (
	[ 'a CTE broadcast as an intermediate result',
		q{WITH t AS (SELECT tenant_id FROM events WHERE kind = 1 ORDER BY id LIMIT 5) SELECT count(*) AS n FROM events e JOIN t USING (tenant_id)},
		2500 ],
	[ 'a multi-shard aggregate', q{SELECT count(DISTINCT kind) AS n FROM events}, 7 ],
	[ 'a subquery in WHERE', q{SELECT count(*) AS n FROM events WHERE id IN (SELECT max(id) FROM events GROUP BY tenant_id)}, 100 ])
{
	my ($name, $sql, $n) = @$case;
	$r = $c->call('execute_sql', qq({"sql": "$sql"}), 'agent_ro');
	is($r->{data}[0]{n}, $n, "$name: answered in a read-only call") or diag explain $r;
}

# --- 1c. ways around the workers' guard (found by review) ----------------
$coord->safe_psql('postgres', q{
	CREATE FUNCTION stable_runner(t int) RETURNS int STABLE LANGUAGE plpgsql
		AS $f$ BEGIN PERFORM run_command_on_workers('INSERT INTO ro_sink VALUES (-1)'); RETURN 1; END $f$;
});
my $sinks = sub { join ',', map { $_->safe_psql('postgres', 'SELECT count(*) FROM ro_sink') } $c->all_nodes };
my $sinks_before = $sinks->();
# the call's state switched off by the agent before its writer runs
$r = $c->call('execute_sql', $json_text->({ mode => 'multiple', max_affected => 10, sql =>
	q{DO $d$BEGIN PERFORM count(*) FROM events; BEGIN SET LOCAL neon_ai_tools.citus_call = ''; EXCEPTION WHEN others THEN NULL; END; END$d$;
	  SELECT sum(ro_writer(tenant_id)) AS n FROM events WHERE tenant_id = 1} }), 'agent');
is($r->{errorType}, 'limit_exceeded', 'the call state cannot be switched off: the workers still count')
  or diag explain $r;
# statements smuggled behind a SET LOCAL, which Citus sends as one string
$r = $c->call('execute_sql', $json_text->({ sql =>
	q{DO $d$BEGIN PERFORM count(*) FROM events WHERE tenant_id = 1; EXECUTE 'SET LOCAL work_mem = ''64kB''; COMMIT; INSERT INTO ro_sink VALUES (-2)'; END$d$} }),
	'agent');
like($r->{error} // '', qr/must be alone in its query string/, 'a SET LOCAL with more statements in its string: refused')
  or diag explain $r;
# SQL run on other nodes over Citus's own connections
$r = $c->call('execute_sql', q({"sql": "SELECT run_command_on_workers('SELECT 1')"}), 'agent');
like($r->{error} // '', qr/run_command_on_workers.* is not allowed in a tool call/,
	'run_command_on_workers in a writing call: refused');
$r = $c->call('execute_sql',
	q({"sql": "SELECT sum(stable_runner(tenant_id)) FROM events WHERE tenant_id = 1 AND id < 20"}), 'agent_ro');
is($r->{status}, 'error', 'run_command_on_workers pushed down in a read-only call: refused');
# shard queries out of a transaction block: turned on for the call
my $out = $coord->safe_psql(
	'postgres', q{
	SET citus.select_opens_transaction_block = off;
	SELECT ai_tool_call('execute_sql', '{"sql": "SELECT count(*) FROM events WHERE tenant_id = 37 AND id = 37 AND ro_stable_writer(tenant_id) > 0"}')->>'errorType';
}, extra_params => [ '-U', 'agent_ro' ]);
is($out, 'read_only_violation', 'a caller without select_opens_transaction_block: refused all the same');
is($sinks->(), $sinks_before, 'nothing written on any node by these calls');

# --- 2. the caller's transaction is as it was ----------------------------
# workers already in the caller's transaction before the call, which is
# carried to them by SET LOCAL inside its savepoint
$out = $coord->safe_psql(
	'postgres', q{
	BEGIN;
	SELECT count(*) FROM events;
	SELECT ai_tool_call('execute_sql', '{"sql": "SELECT count(*) FROM events WHERE ro_stable_writer(tenant_id) > 0"}')->>'errorType';
	SELECT ai_tool_call('select_query', '{"table": "events", "where": {"tenant_id": 1}, "limit": 1}')->>'rowCount';
	SELECT DISTINCT current_setting('transaction_read_only') || '/' || current_setting('statement_timeout') FROM events;
	SELECT count(*) FROM events WHERE ro_writer(tenant_id) > 0 AND tenant_id = 3;
	ROLLBACK;
}, extra_params => [ '-U', 'agent_ro' ]);
is($out, "50000\nread_only_violation\n1\noff/0\n500",
	'open worker transactions: the call refused, then the caller writes as before');

# a caller who turned off citus.function_opens_transaction_block: the call
# turns it on again for itself
$out = $coord->safe_psql(
	'postgres', q{
	SET citus.function_opens_transaction_block = off;
	SELECT ai_tool_call('execute_sql', '{"sql": "SELECT count(*) FROM events WHERE ro_stable_writer(tenant_id) > 0"}')->>'errorType';
	SHOW citus.function_opens_transaction_block;
}, extra_params => [ '-U', 'agent_ro' ]);
is($out, "read_only_violation
off",
	'a session without function_opens_transaction_block: refused all the same');

# a writing call: the workers' statement_timeout is the caller's
$out = $coord->safe_psql(
	'postgres', q{
	BEGIN;
	SELECT ai_tool_call('insert_data', '{"table": "events", "rows": [{"tenant_id": 5, "id": 900001, "kind": 1}]}')->>'affectedRows';
	SELECT DISTINCT current_setting('statement_timeout') FROM events;
	ROLLBACK;
}, extra_params => [ '-U', 'agent' ]);
is($out, "1\n0", 'after a writing call the workers have the caller\'s statement_timeout');

# ... and the workers no longer guard the caller's own statements
$out = $coord->safe_psql(
	'postgres', q{
	BEGIN;
	SELECT ai_tool_call('insert_data', '{"table": "events", "rows": [{"tenant_id": 5, "id": 900002, "kind": 1}]}')->>'affectedRows';
	SELECT count(*) FROM events WHERE ro_writer(tenant_id) > 0;
	ROLLBACK;
}, extra_params => [ '-U', 'agent' ]);
is($out, "1\n50001", 'after a writing call the caller writes on the workers as before');

# --- 2b. the write limit counts the rows changed on the shards ------------
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE kinds (id int PRIMARY KEY, name text);
	SELECT create_reference_table('kinds');
	INSERT INTO kinds SELECT g, 'k' || g FROM generate_series(0, 6) g;
	CREATE TABLE local_cl (id int PRIMARY KEY, v text);
	SELECT citus_add_local_table_to_metadata('local_cl');
	INSERT INTO local_cl SELECT g, 'v' FROM generate_series(1, 30) g;
	GRANT SELECT, INSERT, UPDATE, DELETE ON kinds, local_cl TO agent;
});
my $mid = $digests->();
$r = $c->call('execute_sql',
	q({"sql": "UPDATE events SET kind = kind WHERE tenant_id < 10"}), 'agent');
is($r->{errorType}, 'limit_exceeded',
	'a multi-shard UPDATE over the write limit is refused') or diag explain $r;
like($r->{error}, qr/would change \d+ rows(?: on a Citus worker)?, more than the (?:tool call's )?limit of 1000/, 'it says how many rows');
$r = $c->call('execute_sql',
	q({"sql": "DELETE FROM events WHERE tenant_id < 5", "max_affected": 100}), 'agent');
is($r->{errorType}, 'limit_exceeded', 'a multi-shard DELETE over max_affected is refused');
is($digests->(), $mid, 'nothing changed on any node by the refused writes');
for my $case (
	[ 'distributed, one shard', q{UPDATE events SET kind = kind WHERE tenant_id = 1 AND id < 500}, 5 ],
	[ 'distributed, all shards', q{UPDATE events SET kind = kind WHERE id < 300}, 299 ],
	[ 'reference', q{UPDATE kinds SET name = name}, 7 ],
	[ 'Citus local', q{UPDATE local_cl SET v = v WHERE id <= 12}, 12 ])
{
	my ($name, $sql, $rows) = @$case;
	$r = $c->call('execute_sql', qq({"sql": "$sql"}), 'agent');
	is($r->{affectedRows}, $rows, "$name: affectedRows counts the shards' rows") or diag explain $r;
}
# rows a pushed-down function or a pushed-down data-modifying WITH changes
# on a worker, which the coordinator does not see, count on that worker
$r = $c->call('execute_sql',
	q({"sql": "SELECT count(*) FROM events WHERE ro_writer(tenant_id) > 0"}), 'agent');
is($r->{errorType}, 'limit_exceeded', 'a pushed-down writer over the limit: refused on the workers')
  or diag explain $r;
like($r->{error}, qr/rows on a Citus worker, more than the tool call's limit of 1000/,
	'the worker says so');
$r = $c->call('execute_sql',
	q({"sql": "WITH u AS (UPDATE events SET kind = kind WHERE tenant_id = 2 RETURNING 1) SELECT count(*) FROM u", "max_affected": 10}),
	'agent');
is($r->{errorType}, 'limit_exceeded', 'a pushed-down data-modifying WITH over max_affected: refused')
  or diag explain $r;
$r = $c->call('execute_sql',
	q({"sql": "SELECT count(*) AS n FROM events WHERE tenant_id = 7 AND ro_writer(tenant_id) > 0"}), 'agent');
is($r->{data}[0]{n}, 500, 'a pushed-down writer within the limit runs');
$coord->safe_psql('postgres', q{SELECT run_command_on_all_nodes('TRUNCATE ro_sink')});
$r = $c->call('update_data',
	q({"table": "events", "where": {"kind": 3}, "set": {"kind": 3}, "max_affected": 10}), 'agent');
is($r->{errorType}, 'limit_exceeded', 'update_data over max_affected on a distributed table is refused')
  or diag explain $r;
$before = $digests->();

# --- 3. the settings that carry the call cannot be changed in it ---------
for my $case (
	[ 'function_opens_transaction_block off (DO)',
		q{DO $d$BEGIN SET LOCAL citus.function_opens_transaction_block = off; END$d$} ],
	[ 'function_opens_transaction_block off (function SET clause)',
		q{SELECT pool_up()} ],
	[ 'the connection cap raised',
		q{SELECT set_config('citus.max_adaptive_executor_pool_size', '16', true)} ])
{
	my ($name, $sql) = @$case;
	$sql =~ s/'/\\u0027/g;
	$r = $c->call('execute_sql', qq({"sql": "$sql"}), 'agent');
	is($r->{status}, 'error', "$name: refused");
	like($r->{error}, qr/cannot be (turned off|raised|changed) during a tool call/,
		"$name: the message says why") or diag explain $r;
}
# lowering is fine
$r = $c->call('execute_sql',
	q({"sql": "SELECT set_config(\u0027citus.max_adaptive_executor_pool_size\u0027, \u00272\u0027, true) AS v"}),
	'agent');
is($r->{data}[0]{v}, '2', 'the connection cap may be lowered');

# --- 4. the deadline of a CPU-bound distributed join ----------------------
my $join =
  'SELECT count(*) FROM events a JOIN events b ON a.tenant_id = b.tenant_id '
  . 'WHERE a.id % 3 = b.id % 5 AND md5(a.payload || b.payload) > md5(b.payload)';
for my $role ('agent', 'agent_ro')
{
	my $t0 = time;
	$r = $c->call('execute_sql', qq({"sql": "$join", "timeout_ms": 1000}), $role);
	my $secs = time - $t0;
	is($r->{errorType}, 'timeout', "$role: the join times out") or diag explain $r;
	# the call's own measure (psql's start on a loaded machine is not the call's)
	my ($ms) = ($r->{executionTime} // '') =~ /^([\d.]+)ms$/;
	cmp_ok($ms // 1e9, '<', 2000, "$role: answered within the timeout + 1 s ($ms ms; $secs s with psql)");
	my $left = 0;
	for my $w (@{ $c->{workers} })
	{
		$left += $w->safe_psql('postgres',
			q{SELECT count(*) FROM pg_stat_activity WHERE usename LIKE 'agent%' AND state = 'active'});
	}
	is($left, 0, "$role: nothing left running on the workers");
}

is($digests->(), $before, 'nothing changed on any node by the timed-out calls');
$c->stop;
done_testing();
