# Per-call timeout versus cancels from outside, and lock waits.
#
# These need a second session (to cancel, or to hold a lock) and real
# wall-clock behaviour, which pg_regress cannot show.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);
use Time::HiRes qw(time);

my $node = nat_node('main');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE t (id int PRIMARY KEY, v text);
	INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 10) g;
	CREATE VIEW slow AS SELECT 1 AS x FROM pg_sleep(30);
});

# Start psql running one statement in the background, tagged with an
# application_name so another session can find its backend.
sub start_psql
{
	my ($appname, $sql, $options) = @_;
	my %run = (stdout => '', stderr => '');
	local $ENV{PGOPTIONS} = $options // '';
	$run{start} = time;
	$run{handle} = IPC::Run::start(
		[
			'psql', '-X', '-At', '-v', 'ON_ERROR_STOP=1',
			'-d', $node->connstr('postgres') . " application_name=$appname",
			'-c', $sql
		],
		'>', \$run{stdout}, '2>', \$run{stderr});
	return \%run;
}

sub finish_psql
{
	my ($run) = @_;
	$run->{handle}->finish;
	$run->{elapsed} = time - $run->{start};
	chomp $run->{stdout};
	return $run;
}

# Wait until the tagged backend is waiting on wait_event.
sub wait_for_backend
{
	my ($appname, $wait_event) = @_;
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = '$appname' AND wait_event = '$wait_event'"
	) or die "backend $appname never waited on $wait_event";
}

my $slow_call =
  q{SELECT ai_tool_call('select_query', '{"table": "slow", "timeout_ms": 20000}')};

# 1. A client cancel during a call is not swallowed: the statement fails.
my $run = start_psql('victim', $slow_call);
wait_for_backend('victim', 'PgSleep');
$node->safe_psql('postgres',
	"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'victim'");
finish_psql($run);
like($run->{stderr}, qr/canceling statement due to user request/,
	'pg_cancel_backend cancels the statement running a tool call');
is($run->{stdout}, '', 'a cancelled call returns no answer');
cmp_ok($run->{elapsed}, '<', 15, 'the cancel took effect long before the call timeout');

# 2. Our own timer gives a timeout answer, promptly, and the session goes on.
$run = start_psql('own_timeout',
	q{SELECT ai_tool_call('select_query', '{"table": "slow", "timeout_ms": 300}') ->> 'errorType'; SELECT pg_sleep(0.5); SELECT 'alive'}
);
finish_psql($run);
is($run->{stdout}, "timeout\n\nalive", 'our timeout is an answer and later statements run');
is($run->{stderr}, '', 'no error reaches the client');
# (the bounds below leave a slow machine seconds, and stay far below the
# 20 s of the calls' own timeouts and the 30 s of the view)
cmp_ok($run->{elapsed}, '<', 10, 'a 300 ms timeout ends the call promptly');

# 3. The outer statement_timeout still cancels the statement.
$run = start_psql('outer_timeout', $slow_call, '-c statement_timeout=400');
finish_psql($run);
like($run->{stderr}, qr/canceling statement due to statement timeout/,
	'the outer statement_timeout is not turned into an answer');
cmp_ok($run->{elapsed}, '<', 10, 'the outer statement_timeout fired on time');

# 4. A call waiting for a lock stops at neon_ai_tools.lock_timeout.
my $locker = $node->background_psql('postgres');
$locker->query_safe('BEGIN');
$locker->query_safe('LOCK TABLE t IN ACCESS EXCLUSIVE MODE');

$run = start_psql('lock_waiter',
	q{SELECT a ->> 'errorType', a ->> 'sqlState', a ->> 'retryable' FROM ai_tool_call('select_query', '{"table": "t", "timeout_ms": 20000}') a},
	'-c neon_ai_tools.lock_timeout=300');
finish_psql($run);
is($run->{stdout}, 'timeout|55P03|true',
	'a lock wait past lock_timeout is a retryable timeout answer');
cmp_ok($run->{elapsed}, '<', 10, 'the lock wait ended at lock_timeout');

# 5. With no lock_timeout, the call's own timer interrupts the lock wait.
$run = start_psql('lock_timer',
	q{SELECT a ->> 'errorType', a ->> 'sqlState' FROM ai_tool_call('select_query', '{"table": "t", "timeout_ms": 400}') a},
	'-c neon_ai_tools.lock_timeout=0');
finish_psql($run);
is($run->{stdout}, 'timeout|57014', 'the call timer interrupts a lock wait');
cmp_ok($run->{elapsed}, '<', 10, 'the lock wait ended at the call timeout');

# 6. A cancel during a lock wait still reaches the client.
$run = start_psql('lock_cancel',
	q{SELECT ai_tool_call('select_query', '{"table": "t", "timeout_ms": 20000}')},
	'-c neon_ai_tools.lock_timeout=0');
wait_for_backend('lock_cancel', 'relation');
$node->safe_psql('postgres',
	"SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'lock_cancel'");
finish_psql($run);
like($run->{stderr}, qr/canceling statement due to user request/,
	'a cancel during a lock wait cancels the statement');

$locker->query_safe('COMMIT');
$locker->quit;

# 7. Once the lock is gone the same call succeeds.
is( $node->safe_psql(
		'postgres',
		q{SELECT ai_tool_call('select_query', '{"table": "t", "columns": ["id"], "limit": 3, "order_by": "id"}') -> 'rowCount'}
	),
	'3',
	'the table is readable after the lock is released');

# 8. The server survived everything above without a crash or a leak of
# cancel requests: a plain query still works in a fresh session.
is($node->safe_psql('postgres', 'SELECT count(*) FROM t'), '10', 'server healthy');

$node->stop;
done_testing();
