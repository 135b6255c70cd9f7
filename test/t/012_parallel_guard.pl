# The guard holds in parallel workers.  A call's query may run in parallel
# workers (explain_query with analyze runs EXPLAIN ANALYZE, which plans with
# parallel query allowed; CREATE TABLE AS through execute_sql too); the
# workers get the call's state and refuse what the leader would refuse:
# functions that leave session state behind, volatile functions in a
# read-only call.  Outside calls the same queries run in workers as usual:
# the state leaks into no ordinary query, and survives no call (succeeded,
# failed or timed out).  No role but the extension itself can set the state.
#
# Every function below acts only when it runs in a parallel worker (its
# backend pid differs from the leader's, passed as a parameter), so a
# refusal in a call proves that a worker refused.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);
use Time::HiRes qw(time);

my $node = nat_node('main');
# parallel plans for small tables, all rows in the workers
$node->append_conf(
	'postgresql.conf', q{
max_worker_processes = 8
max_parallel_workers = 8
max_parallel_workers_per_gather = 2
parallel_setup_cost = 0
parallel_tuple_cost = 0
min_parallel_table_scan_size = 0
parallel_leader_participation = off
});
$node->start;

# debug_parallel_query from 16 on, force_parallel_mode before
my $force = $node->safe_psql('postgres',
	q{SELECT name FROM pg_settings WHERE name IN ('debug_parallel_query', 'force_parallel_mode')});
$node->safe_psql('postgres', "ALTER SYSTEM SET $force = on");
$node->reload;

$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE agent LOGIN;
	GRANT CREATE ON SCHEMA public TO agent;
	CREATE TABLE big AS SELECT g AS id FROM generate_series(1, 20000) g;
	ANALYZE big;
	GRANT SELECT ON big TO agent;

	CREATE FUNCTION in_worker(leader int) RETURNS bool
		LANGUAGE plpgsql STABLE PARALLEL SAFE
		AS $$BEGIN RETURN pg_backend_pid() <> leader; END$$;

	-- pg_cancel_backend is PARALLEL SAFE: it does run in workers
	CREATE FUNCTION worker_cancels(id int, leader int) RETURNS bool
		LANGUAGE plpgsql STABLE PARALLEL SAFE
		AS $$BEGIN
			IF pg_backend_pid() <> leader AND id % 5000 = 0 THEN
				PERFORM pg_cancel_backend(0);
			END IF;
			RETURN true;
		END$$;

	CREATE FUNCTION vol(id int) RETURNS int
		LANGUAGE plpgsql VOLATILE PARALLEL SAFE
		AS $$BEGIN RETURN id; END$$;
	CREATE FUNCTION worker_calls_volatile(id int, leader int) RETURNS bool
		LANGUAGE plpgsql STABLE PARALLEL SAFE
		AS $$BEGIN
			IF pg_backend_pid() <> leader THEN
				PERFORM vol(id);
			END IF;
			RETURN true;
		END$$;

	-- sleeps past a call's deadline in a worker, then tries a refused function
	CREATE FUNCTION worker_sleeps(id int, leader int) RETURNS bool
		LANGUAGE plpgsql STABLE PARALLEL SAFE
		AS $$BEGIN
			IF pg_backend_pid() <> leader AND id = 1 THEN
				PERFORM pg_sleep(10);
				PERFORM pg_cancel_backend(0);
			END IF;
			RETURN true;
		END$$;
});

is($node->safe_psql('postgres',
		q{SELECT string_agg(proname || ':' || proparallel::text, ',' ORDER BY proname) FROM pg_proc
		  WHERE proname IN ('pg_cancel_backend', 'in_worker', 'worker_cancels', 'vol')}),
	'in_worker:s,pg_cancel_backend:s,vol:s,worker_cancels:s',
	'the functions used are PARALLEL SAFE, so they run in workers');

# one session of the agent: the leader's pid is this session's own
sub agent_session
{
	my ($sql) = @_;
	# the library is loaded first, as by any call (it defines the settings)
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT ai_tool_list() \\g /dev/null\n$sql",
		extra_params => [ '-U', 'agent', '-v', 'ON_ERROR_STOP=1' ]);
	return wantarray ? ($out, $err) : $out;
}

# an explain_query call with analyze of $sql ($1 = the leader's pid)
sub explain_call
{
	my ($sql, $timeout_ms) = @_;
	$timeout_ms //= 30000;
	return qq{SELECT ai_tool_call('explain_query', jsonb_build_object(
		'sql', '$sql', 'params', jsonb_build_array(pg_backend_pid()),
		'analyze', true, 'timeout_ms', $timeout_ms))};
}

# a plain query run by the same session ($1 bound to its own pid)
sub plain
{
	my ($sql) = @_;
	$sql =~ s/\$1/:leader/g;
	return qq{SELECT pg_backend_pid() AS leader \\gset
$sql;};
}

# 1. a call's query really runs in workers
my $answer = agent_session(explain_call('SELECT * FROM big WHERE in_worker($1)') . q{ AS a \gset
SELECT :'a'::jsonb #>> '{data,0,Plan,Node Type}', :'a'::jsonb #>> '{data,0,Plan,Workers Launched}',
       :'a'::jsonb #>> '{data,0,Plan,Actual Rows}'});
my ($node_type, $launched, $rows) = split /\|/, $answer;
is($node_type, 'Gather', 'a call gets a parallel plan (explain_query, analyze)');
cmp_ok($launched, '>=', 1, "... workers are launched ($launched)");
cmp_ok($rows, '==', 20000, '... and every row was filtered in a worker, not in the leader');

# ... and so do the rows a query returns to the answer (execute_sql and
# select_query stream them through a receiver that stops at the caps, which
# allows parallel plans): a row only passes the filter in a worker
is( agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object(
		'sql', 'SELECT id FROM big WHERE in_worker($1) AND id <= 3 ORDER BY id',
		'params', jsonb_build_array(pg_backend_pid()))) ->> 'rowCount'}),
	'3', 'execute_sql: the query runs in workers and its rows reach the answer');
is( agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object(
		'sql', 'SELECT id FROM big WHERE in_worker($1)',
		'params', jsonb_build_array(pg_backend_pid()), 'limit', 5)) #>> '{truncation,reason}'}),
	'row_limit', '... and stops at the row cap, truncation reported');
like(
	agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object(
		'sql', 'SELECT id FROM big WHERE id % 5000 = 0 AND worker_cancels(id, $1)',
		'params', jsonb_build_array(pg_backend_pid()))) ->> 'error'}),
	qr/^function pg_cancel_backend\(integer\) is not allowed in a tool call$/,
	'... and a worker of such a query refuses pg_cancel_backend');

# the call's lock_timeout (neon_ai_tools.lock_timeout, 5 s by default,
# lowered by assignment in the leader) reaches its workers too
is( agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object(
		'sql', 'SELECT current_setting(''lock_timeout'') AS t FROM big WHERE in_worker($1) LIMIT 1',
		'params', jsonb_build_array(pg_backend_pid()))) #>> '{data,0,t}'}),
	'5s', "a worker has the call's lock_timeout");
is( agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object(
		'sql', 'SELECT current_setting(''lock_timeout'') AS t FROM big WHERE in_worker($1) LIMIT 1',
		'params', jsonb_build_array(pg_backend_pid()), 'read_only', true)) #>> '{data,0,t}'}),
	'5s', '... in a read-only call too');

# 2. a function that leaves session state behind, called in a worker
like(
	agent_session(
		explain_call('SELECT * FROM big WHERE worker_cancels(id, $1)')
		  . q{ ->> 'error'}),
	qr/^function pg_cancel_backend\(integer\) is not allowed in a tool call$/,
	'a worker refuses pg_cancel_backend called from a PARALLEL SAFE function');

# 3. read-only rules in the worker
is( agent_session(
		explain_call('SELECT * FROM big WHERE worker_calls_volatile(id, $1)')
		  . q{ ->> 'errorType'}),
	'read_only_violation',
	'a worker refuses a volatile function in a read-only call');
like(
	agent_session(
		explain_call('SELECT * FROM big WHERE worker_calls_volatile(id, $1)')
		  . q{ ->> 'error'}),
	qr/^function vol\(integer\) is not allowed in a read-only tool call$/,
	'... naming the function');

# ... and neon_ai_tools.read_only_allowed_functions holds there too
is( $node->safe_psql('postgres',
		"SET neon_ai_tools.read_only_allowed_functions = 'public.vol';\n"
		  . explain_call('SELECT * FROM big WHERE worker_calls_volatile(id, $1) AND in_worker($1)')
		  . q{ #>> '{data,0,Plan,Actual Rows}'}) + 0,
	20000,
	'a volatile function on the allow-list runs in the workers of a read-only call');

# 4. a writable call (CREATE TABLE AS runs its query in parallel): volatile
# functions run in its workers, session-state functions are still refused.
# The 20,000 rows it writes count against the write limit (issue 29), so
# the agent may write that many here.
$node->safe_psql('postgres', 'ALTER ROLE agent SET neon_ai_tools.max_affected_rows = 100000');
my ($out, $err) = agent_session(q{
SELECT ai_tool_call('execute_sql', jsonb_build_object('sql',
	format('CREATE TABLE copy1 AS SELECT id FROM big WHERE worker_calls_volatile(id, %s) AND in_worker(%s)',
		pg_backend_pid(), pg_backend_pid()))) ->> 'success';
SELECT count(*) FROM copy1;
SELECT ai_tool_call('execute_sql', jsonb_build_object('sql',
	format('CREATE TABLE copy2 AS SELECT id FROM big WHERE worker_cancels(id, %s)',
		pg_backend_pid()))) ->> 'error';
});
is($out,
	"true\n20000\nfunction pg_cancel_backend(integer) is not allowed in a tool call",
	'a writable call: volatile functions run in its workers, pg_cancel_backend is refused there')
  or diag($err);
$node->safe_psql('postgres', 'ALTER ROLE agent RESET neon_ai_tools.max_affected_rows');

# 5. the state leaks into no ordinary query and survives no call: after a
# successful call, a refused one and a timed-out one, in the same session
# (also inside one transaction), the same functions run in workers
my $plain_checks = plain('SELECT count(*) FROM big WHERE worker_cancels(id, $1) AND in_worker($1)') . "\n"
  . plain('SELECT count(*) FROM big WHERE worker_calls_volatile(id, $1) AND in_worker($1)');

($out, $err) = agent_session($plain_checks);
is($out, "20000\n20000", 'outside calls, workers run pg_cancel_backend and volatile functions');
like($err, qr/WARNING:  PID 0 is not a PostgreSQL (server|backend) process/,
	'... and pg_cancel_backend did run in them');

($out, $err) = agent_session(
	explain_call('SELECT * FROM big WHERE in_worker($1)') . q{ ->> 'success';} . "\n$plain_checks");
is($out, "true\n20000\n20000", 'after a successful call, workers run them');

($out, $err) = agent_session(
	explain_call('SELECT * FROM big WHERE worker_cancels(id, $1)') . q{ ->> 'errorType';} . "\n$plain_checks");
is($out, "permission_denied\n20000\n20000", 'after a refused call, workers run them');

($out, $err) = agent_session("BEGIN;\n"
	  . explain_call('SELECT * FROM big WHERE worker_calls_volatile(id, $1)')
	  . q{ ->> 'errorType';} . "\n$plain_checks\nCOMMIT;");
is($out, "read_only_violation\n20000\n20000", 'after a refused call in a transaction, workers run them');

# a worker sleeping past the deadline: the call ends at its limit, and the
# worker never reaches the refused function (that would be
# permission_denied)
my $start = time;
($out, $err) = agent_session(
	explain_call('SELECT * FROM big WHERE worker_sleeps(id, $1)', 300) . q{ ->> 'errorType';} . "\n$plain_checks");
my $secs = time - $start;
is($out, "timeout\n20000\n20000", 'after a timed-out parallel call, workers run them');
# (the worker sleeps 10 s: 5 s for all three leaves a slow machine room)
cmp_ok($secs, '<', 5, sprintf('... and the call ended at its limit (%.2f s for all three)', $secs));

# 6. no ordinary role sets the state, in either direction
($out, $err) = agent_session(q{SET neon_ai_tools.call_state = 'r,1,1'});
like($err, qr/permission denied to set parameter "neon_ai_tools.call_state"/, 'SET is refused');
($out, $err) = agent_session(q{BEGIN; SET LOCAL neon_ai_tools.call_state = 'r,1,1'});
like($err, qr/permission denied to set parameter "neon_ai_tools.call_state"/, 'SET LOCAL is refused');
($out, $err) = agent_session(q{SELECT set_config('neon_ai_tools.call_state', 'r,1,1', false)});
like($err, qr/permission denied to set parameter "neon_ai_tools.call_state"/, 'set_config() is refused');
($out, $err) = agent_session(q{RESET neon_ai_tools.call_state});
like($err, qr/permission denied to set parameter "neon_ai_tools.call_state"/, 'RESET is refused');
($out, $err) = agent_session(q{SHOW neon_ai_tools.call_state});
like($err, qr/must be superuser|permission denied/, 'it cannot be read either');
is(agent_session(q{SELECT count(*) FROM pg_settings WHERE name = 'neon_ai_tools.call_state'}),
	'0', 'it is not in pg_settings');

# inside a writable call, the function form (SET is refused by execute_sql)
is( agent_session(q{SELECT ai_tool_call('execute_sql', '{"sql": "SELECT set_config(''neon_ai_tools.call_state'', NULL, true)"}') ->> 'errorType'}),
	'permission_denied', 'a call cannot clear it for its own workers');

# startup options: refused when the library defines the setting, and the
# guard works as usual in that session, both ways
{
	local $ENV{PGOPTIONS} = '-c neon_ai_tools.call_state=r,1,1';
	($out, $err) = agent_session(
		explain_call('SELECT * FROM big WHERE worker_cancels(id, $1)') . q{ ->> 'errorType';} . "\n$plain_checks");
	is($out, "permission_denied\n20000\n20000",
		'a startup option confuses neither calls nor ordinary queries');
}

# a superuser: the check hook refuses every value the extension did not make
# (LOAD first: before the library defines it, the name is a placeholder)
my ($ret, $sout, $serr) = $node->psql('postgres', q{LOAD 'neon_ai_tools'; SET neon_ai_tools.call_state = 'w,1,1'});
like($serr, qr/parameter "neon_ai_tools.call_state" is set only by neon_ai_tools itself/,
	'a superuser cannot set it either');
($ret, $sout, $serr) = $node->psql('postgres', q{LOAD 'neon_ai_tools'; ALTER ROLE agent SET neon_ai_tools.call_state = 'w,1,1'});
like($serr, qr/is set only by neon_ai_tools itself/, '... nor store it for a role');

# a superuser's RESET skips check hooks: the leader puts the state back
# before the next statement that may start workers, whose workers are
# guarded as before
is( $node->safe_psql('postgres',
		q{SELECT ai_tool_call('execute_sql', jsonb_build_object('mode', 'multiple', 'sql',
			format('SELECT set_config(''neon_ai_tools.call_state'', NULL, true); SELECT count(*) FROM big WHERE worker_cancels(id, %s)',
				pg_backend_pid()))) ->> 'error'}),
	'function pg_cancel_backend(integer) is not allowed in a tool call',
	'a superuser clearing it inside a call: the next parallel statement\'s workers are still guarded');
# 6. the call's memory cap holds in its workers (issue 29): a worker builds
# a 300 MB string; in a call limited to 32MB its address space is limited
# as the leader's is, and the call answers resource_limit
$node->safe_psql(
	'postgres', q{
	CREATE FUNCTION worker_hog(id int, leader int) RETURNS int
		LANGUAGE plpgsql STABLE PARALLEL SAFE
		AS $$BEGIN
			IF pg_backend_pid() <> leader AND id = 1 THEN
				RETURN length(repeat('x', 300000000));
			END IF;
			RETURN 0;
		END$$;
	ALTER ROLE agent SET neon_ai_tools.max_call_memory = '32MB';
});
is(agent_session(q{SELECT pg_backend_pid() AS leader \gset
SELECT sum(worker_hog(id, :leader)) FROM big;}), '300000000',
	'outside a call, a worker builds the 300 MB string');
is( agent_session(q{SELECT ai_tool_call('execute_sql', jsonb_build_object('sql',
	'SELECT sum(worker_hog(id, $1)) FROM big', 'params', jsonb_build_array(pg_backend_pid()))) ->> 'errorType';}),
	'resource_limit',
	'in a call under max_call_memory = 32MB, the worker is stopped: resource_limit');
$node->safe_psql('postgres', 'ALTER ROLE agent RESET neon_ai_tools.max_call_memory');
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time() = pg_postmaster_start_time()'), 't',
	'the server is up');

done_testing();
