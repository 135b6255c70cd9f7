# Enforcement seen from a second session: what an agent's call tries inside
# SQL that runs SQL never happens (no large object, no advisory lock, no
# notification delivered, no backend signalled), and a role with no right
# to a table is told so at once even while another session holds a lock on
# it.  pg_regress (test/sql/enforcement.sql) shows the single-session cases.
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
# another extension's hooks in the same chain (pg_stat_statements uses the
# executor and utility hooks) keep working while calls are guarded
$node->append_conf('postgresql.conf',
	"shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\npg_stat_statements.track_utility = on");
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE EXTENSION pg_stat_statements;
	CREATE ROLE agent LOGIN;
	CREATE TABLE orders (id int PRIMARY KEY, note text);
	INSERT INTO orders VALUES (1, 'real');
	GRANT SELECT, INSERT, UPDATE, DELETE ON orders TO agent;
	CREATE TABLE private (id int);
	CREATE TABLE granted (id int);
	GRANT SELECT ON granted TO agent;
	ALTER ROLE agent SET neon_ai_tools.read_only = on;
});

# a second session of the agent's own role, to be signalled and notified
my $bystander = $node->background_psql('postgres', on_error_stop => 0,
	extra_params => [ '-U', 'agent' ]);
$bystander->query_safe('LISTEN c');
my $bystander_pid = $bystander->query_safe('SELECT pg_backend_pid()');

sub agent_call
{
	my ($sql) = @_;
	my $args = qq{{"sql": "$sql", "read_only": true}};
	$args =~ s/'/''/g;
	return $node->safe_psql('postgres',
		"SELECT a ->> 'errorType' FROM ai_tool_call('execute_sql', '$args') a",
		extra_params => [ '-U', 'agent' ]);
}

is( agent_call(
		qq{SELECT query_to_xml('SELECT lo_from_bytea(0, ''\\\\\\\\x41''::bytea), pg_advisory_lock(4242)', true, true, '')}
	),
	'read_only_violation',
	'query_to_xml: large object and advisory lock refused');
is(agent_call(qq{SELECT query_to_xml('SELECT pg_notify(''c'', ''from the call'')', true, true, '')}),
	'read_only_violation', 'query_to_xml: pg_notify refused');
is( agent_call(
		qq{SELECT query_to_xml('SELECT pg_terminate_backend($bystander_pid)', true, true, '')}
	),
	'permission_denied',
	'query_to_xml: pg_terminate_backend of another session refused (in any call)');
is(agent_call(qq{SELECT * FROM ts_stat('SELECT to_tsvector(pg_advisory_lock(4243)::text)')}),
	'permission_denied', 'ts_stat: a session advisory lock refused');

# a notification sent outside a call does reach the listening session
$node->safe_psql('postgres', q{NOTIFY c, 'control'});
like($bystander->query('SELECT 1'), qr/Asynchronous notification "c" with payload "control"/,
	'the listening session sees notifications (control)');

is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_largeobject_metadata'),
	'0', 'no large object exists (seen from another session)');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'}),
	'0', 'no advisory lock is held (seen from another session)');
# alive, and no notification arrived from the calls
is($bystander->query('SELECT 1'), '1',
	'the other session of the role is alive and got no notification');

# privilege before lock: the lock holder does not make the call wait
my $locker = $node->background_psql('postgres');
$locker->query_safe('BEGIN');
$locker->query_safe('LOCK TABLE private, granted IN ACCESS EXCLUSIVE MODE');
foreach my $tool ('describe_table', 'select_query')
{
	my $start = time;
	my $answer = $node->safe_psql('postgres',
		qq{SELECT a ->> 'errorType' FROM ai_tool_call('$tool', '{"table": "private", "timeout_ms": 5000}') a},
		extra_params => [ '-U', 'agent' ]);
	my $elapsed = time - $start;
	is($answer, 'permission_denied', "$tool of a locked table without privilege: permission_denied");
	# a lock wait would last neon_ai_tools.lock_timeout's default 5 s
	cmp_ok($elapsed, '<', 4, "$tool answered without waiting for the lock");
}
# a role with a right still waits for the lock, up to its timeout
is( $node->safe_psql(
		'postgres',
		q{SELECT a ->> 'errorType' FROM ai_tool_call('select_query', '{"table": "granted", "timeout_ms": 300}') a},
		extra_params => [ '-U', 'agent' ]),
	'timeout',
	'with SELECT granted, the call waits for the lock and times out');
$locker->query_safe('COMMIT');
$locker->quit;
$bystander->quit;

# the hook chain: pg_stat_statements saw the statements run inside a call,
# a nested utility statement included
$node->safe_psql('postgres', 'SELECT pg_stat_statements_reset()');
$node->safe_psql('postgres',
	q{SELECT ai_tool_call('execute_sql', $${"sql": "DO $d$BEGIN SET LOCAL work_mem = '3MB'; PERFORM count(*) FROM orders; END$d$"}$$)});
is( $node->safe_psql(
		'postgres', q{SELECT count(*) FROM pg_stat_statements
		WHERE query LIKE 'SET LOCAL work_mem%' OR query LIKE 'SELECT count(*) FROM orders%'}),
	'2',
	'pg_stat_statements still sees nested statements run in a call');

$node->stop;
done_testing();
