# ai_tool_stats (issue 34, item 5) on a server that preloads neon_ai_tools:
#
#   1. 8 concurrent sessions (two roles, 4 pgbench clients each) make a
#      known number of calls of known outcomes; every count is exact
#      (calls, errors by errorType, rows, changed rows);
#   2. in one session: answer bytes equal the answers' pg_column_size(),
#      times add up, ai_tool_run() counts each call it runs once,
#      ai_tool_plan() counts nothing, a cancel out of the call is
#      "cancelled", track_stats = off counts nothing;
#   3. other roles' rows only for pg_read_all_stats; reset for superusers
#      and the roles granted EXECUTE;
#   4. past neon_ai_tools.stats_max (10) entries, new (role, database,
#      tool) go to the "(other)" row, which only pg_read_all_stats sees;
#      one role holds at most half of the entries;
#   5. a restart drops the counts (they are not persisted).
#
# pg_regress (test/sql/tool_stats.sql) holds the SQL surface and the
# answer of a server that does not preload the library.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $node = nat_node('stats');
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'neon_ai_tools'\nneon_ai_tools.stats_max = 10\nmax_connections = 30\n");
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE agent_a LOGIN;
	CREATE ROLE agent_b LOGIN;
	CREATE ROLE reader LOGIN IN ROLE pg_read_all_stats;
	CREATE ROLE resetter LOGIN;
	GRANT EXECUTE ON FUNCTION ai_tool_stats_reset() TO resetter;
	CREATE TABLE items (id int PRIMARY KEY, name text);
	INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 20) g;
	CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL DEFAULT 0);
	INSERT INTO counters SELECT g FROM generate_series(0, 19) g;
	GRANT SELECT, INSERT ON items TO agent_a, agent_b;
	GRANT SELECT, UPDATE ON counters TO agent_a, agent_b;
});

# --- 1. 8 concurrent sessions ----------------------------------------------
# Each transaction: one call of each outcome.  The update touches the
# client's own row (offset apart per role): no lock waits between clients.
my $script = $node->basedir . '/calls.sql';
PostgreSQL::Test::Utils::append_to_file(
	$script, q{
SELECT ai_tool_call('select_query', '{"table": "items", "where": {"id": 1}}');
SELECT ai_tool_call('select_query', '{"table": "no_such_table"}');
SELECT ai_tool_call('select_query', '{"table": "items", "limit": "many"}');
SELECT ai_tool_call('no_such_tool', '{}');
SELECT ai_tool_call('insert_data', '{"table": "items", "rows": [{"id": 1, "name": "again"}]}');
SELECT ai_tool_call('update_data', jsonb_build_object('table', 'counters', 'where', jsonb_build_object('id', :client_id + :offset), 'set', '{"n": 1}'::jsonb));
SELECT ai_tool_call('execute_sql', '{"sql": "SELECT pg_sleep(1)", "timeout_ms": 20}');
});
my $per_client = 15;
my @runs;
for my $r ([ 'agent_a', 0 ], [ 'agent_b', 10 ])
{
	my ($role, $offset) = @$r;
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '-n', '-c', '4', '-j', '2', '-t', $per_client,
			'-D', "offset=$offset", '-f', $script,
			'-h', $node->host, '-p', $node->port, '-U', $role, 'postgres'
		],
		'>', \$out, '2>', \$err);
	push @runs, [ $role, $h, \$out, \$err ];
}
for my $run (@runs)
{
	my ($role, $h, $out, $err) = @$run;
	ok($h->finish, "pgbench as $role ran") or diag($$err);
	like($$out, qr/number of transactions actually processed: 60\/60/,
		"pgbench as $role: 4 clients x $per_client transactions");
}

my $n = 4 * $per_client;
for my $role ('agent_a', 'agent_b')
{
	my $got = $node->safe_psql(
		'postgres', qq{
		SELECT string_agg(format('%s|%s|%s|%s|%s|%s', tool, calls, errors,
								 errors_by_type, rows, affected_rows), E'\n' ORDER BY tool)
		FROM ai_tool_stats WHERE rolname = '$role' AND datname = 'postgres'});
	is( $got,
		join("\n",
			"(unknown)|$n|$n|{\"unknown_tool\": $n}|0|0",
			"execute_sql|$n|$n|{\"timeout\": $n}|0|0",
			"insert_data|$n|$n|{\"constraint_violation\": $n}|0|0",
			"select_query|" . 3 * $n . '|' . 2 * $n
			  . "|{\"invalid_table\": $n, \"invalid_parameters\": $n}|$n|0",
			"update_data|$n|0|{}|$n|$n"),
		"8 sessions: $role\'s counts are exact");
}
is( $node->safe_psql(
		'postgres', q{
	SELECT bool_and(answer_bytes > 0 AND total_time > 0 AND max_time > 0
					AND max_time <= total_time
					AND abs(mean_time - total_time / calls) < 1e-6)
	FROM ai_tool_stats}),
	't', 'bytes and times are set, mean = total / calls');
is( $node->safe_psql(
		'postgres', q{
	SELECT bool_and(total_time >= calls * 20 AND max_time >= 20)
	FROM ai_tool_stats WHERE tool = 'execute_sql'}),
	't', 'the timed-out calls took their 20 ms each');

# --- 2. one session: bytes, ai_tool_run, ai_tool_plan, cancel, track_stats -
$node->safe_psql('postgres', 'SELECT ai_tool_stats_reset()');
my $bytes = $node->safe_psql(
	'postgres', q{
	SELECT sum(pg_column_size(a)) FROM (
		SELECT ai_tool_call('select_query', jsonb_build_object('table', 'items', 'limit', g)) a
		FROM generate_series(1, 5) g) s},
	extra_params => [ '-U', 'agent_a' ]);
is( $node->safe_psql(
		'postgres',
		q{SELECT calls || '|' || rows || '|' || answer_bytes FROM ai_tool_stats
		  WHERE rolname = 'agent_a' AND tool = 'select_query'}),
	"5|15|$bytes",
	'answer_bytes is the sum of the answers\' pg_column_size()');

my $response =
  '{"choices": [{"message": {"role": "assistant", "tool_calls": ['
  . '{"id": "c1", "type": "function", "function": {"name": "list_tables", "arguments": "{}"}},'
  . '{"id": "c2", "type": "function", "function": {"name": "describe_table", "arguments": "{\\"table\\": \\"items\\"}"}}]}}]}';
$node->safe_psql(
	'postgres', qq{
	SELECT ai_tool_run('$response');
	SELECT ai_tool_plan('select_query', '{"table": "items"}');},
	extra_params => [ '-U', 'agent_a' ]);
is( $node->safe_psql(
		'postgres',
		q{SELECT string_agg(tool || '=' || calls, ',' ORDER BY tool) FROM ai_tool_stats
		  WHERE rolname = 'agent_a'}),
	'describe_table=1,list_tables=1,select_query=5',
	'ai_tool_run counts each call once; ai_tool_plan counts nothing');

my ($ret, $out, $err) = $node->psql(
	'postgres', q{
	SET statement_timeout = '200ms';
	SELECT ai_tool_call('execute_sql', '{"sql": "SELECT pg_sleep(5)"}')},
	extra_params => [ '-U', 'agent_b' ]);
like($err, qr/canceling statement due to statement timeout/,
	'statement_timeout cancels the call out of ai_tool_call');
is( $node->safe_psql(
		'postgres',
		q{SELECT calls || '|' || errors || '|' || errors_by_type || '|' || (max_time >= 150)
		  FROM ai_tool_stats WHERE rolname = 'agent_b' AND tool = 'execute_sql'}),
	'1|1|{"cancelled": 1}|true',
	'the cancelled call is counted once, as cancelled, with its time (most of the 200 ms)');

$node->safe_psql(
	'postgres', q{
	SET neon_ai_tools.track_stats = off;
	SELECT ai_tool_call('list_tables', '{}')});
is( $node->safe_psql(
		'postgres', q{SELECT count(*) FROM ai_tool_stats WHERE rolname = 'postgres'}),
	'0', 'track_stats = off: nothing counted');
$node->safe_psql('postgres', q{SELECT ai_tool_call('list_tables', '{}')});
is( $node->safe_psql(
		'postgres',
		q{SELECT calls FROM ai_tool_stats WHERE rolname = 'postgres' AND tool = 'list_tables'}),
	'1', 'track_stats = on (the default): counted');

# --- 3. privileges -----------------------------------------------------------
sub visible
{
	my ($role) = @_;
	return $node->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT coalesce(rolname, '-'), ',' ORDER BY coalesce(rolname, '-')) FROM ai_tool_stats},
		extra_params => [ '-U', $role ]);
}
is(visible('agent_a'), 'agent_a', 'agent_a sees its own rows only');
is(visible('agent_b'), 'agent_b', 'agent_b sees its own rows only');
is(visible('reader'), 'agent_a,agent_b,postgres',
	'a pg_read_all_stats member sees every role\'s rows');
($ret, $out, $err) = $node->psql('postgres', 'SELECT ai_tool_stats_reset()',
	extra_params => [ '-U', 'agent_a' ]);
like($err, qr/permission denied for function ai_tool_stats_reset/,
	'agent_a may not reset');
$node->safe_psql('postgres', 'SELECT ai_tool_stats_reset()',
	extra_params => [ '-U', 'resetter' ]);
is($node->safe_psql('postgres', 'SELECT count(*) FROM ai_tool_stats'),
	'0', 'a role granted EXECUTE resets every count');

# --- 4. past stats_max -------------------------------------------------------
# 2 roles x 6 tools = 12 pairs for 10 entries: the last two pairs made go
# to "(other)"
# (as the role through SET ROLE: one session for all the calls)
my $calls = '';
for my $role ('agent_a', 'agent_b')
{
	$calls .= "SET ROLE $role;\n";
	$calls .= "SELECT ai_tool_call('$_', '{\"table\": \"items\", \"sql\": \"SELECT 1\", \"query\": \"SELECT 1\", \"rows\": []}');\n"
	  for qw(list_tables describe_table select_query explain_query execute_sql insert_data);
}
$calls .= "SELECT ai_tool_call('list_tables', '{}') FROM generate_series(1, 3);\n";
$node->safe_psql('postgres', $calls);
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FILTER (WHERE tool <> '(other)') || '|' || sum(calls) || '|' ||
		   max(calls) FILTER (WHERE tool = '(other)') || '|' ||
		   bool_and(userid IS NULL AND rolname IS NULL AND dbid IS NULL) FILTER (WHERE tool = '(other)')
	FROM ai_tool_stats}),
	'10|15|2|true',
	'stats_max = 10: 10 entries, the 2 calls past them in "(other)" (no role), none lost');
is( $node->safe_psql(
		'postgres', q{SELECT calls FROM ai_tool_stats WHERE rolname = 'agent_b' AND tool = 'list_tables'}),
	'4', 'an existing entry keeps counting when the table is full');
is($node->safe_psql('postgres', q{SELECT count(*) FROM ai_tool_stats WHERE tool = '(other)'},
		extra_params => [ '-U', 'agent_b' ]),
	'0', '"(other)" mixes roles: not shown to a role without pg_read_all_stats');
$node->safe_psql('postgres', 'SELECT ai_tool_stats_reset()');
$node->safe_psql('postgres', q{SELECT ai_tool_call('insert_data', '{"table": "items", "rows": []}')},
	extra_params => [ '-U', 'agent_b' ]);
is( $node->safe_psql(
		'postgres', q{SELECT string_agg(tool || '=' || calls, ',') FROM ai_tool_stats}),
	'insert_data=1', 'after a reset, a new pair gets an entry again');

# One role holds at most half of the entries: a database owner who defines
# custom tools and calls each once cannot push the other roles' new tools
# into "(other)", which they cannot see.
$node->safe_psql('postgres', 'SELECT ai_tool_stats_reset()');
$node->safe_psql('postgres',
	q{SELECT count(ai_tool_define('many_' || i, 'x', 'SELECT 1', '[]')) FROM generate_series(1, 11) i});
$node->safe_psql('postgres',
	q{SELECT count(ai_tool_call('many_' || i, '{}')) FROM generate_series(1, 11) i},
	extra_params => [ '-U', 'agent_a' ]);
is( $node->safe_psql(
		'postgres', q{
	SELECT count(*) FILTER (WHERE rolname = 'agent_a') || '|' ||
		   sum(calls) FILTER (WHERE tool = '(other)')
	FROM ai_tool_stats}),
	'5|6', 'one role: 5 entries (half of stats_max), its 6 other calls in "(other)"');
$node->safe_psql('postgres', q{SELECT ai_tool_call('list_tables', '{}')},
	extra_params => [ '-U', 'agent_b' ]);
is( $node->safe_psql(
		'postgres', q{SELECT string_agg(tool || '=' || calls, ',') FROM ai_tool_stats},
		extra_params => [ '-U', 'agent_b' ]),
	'list_tables=1', 'another role still gets an entry of its own');
$node->safe_psql('postgres',
	q{SELECT count(ai_tool_drop('many_' || i)) FROM generate_series(1, 11) i});

# --- 5. restart ----------------------------------------------------------------
$node->restart;
is($node->safe_psql('postgres', 'SELECT count(*) FROM ai_tool_stats'),
	'0', 'a restart drops the counts (not persisted)');
$node->safe_psql('postgres', q{SELECT ai_tool_call('list_tables', '{}')});
is($node->safe_psql('postgres', 'SELECT sum(calls) FROM ai_tool_stats'),
	'1', 'and counting starts again');

$node->stop;
done_testing();
