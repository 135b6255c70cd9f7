# A deadline agent code cannot swallow.  Code that catches the call's
# cancel is refused every further statement and function; code that keeps
# going past a short grace ends its backend with a FATAL that says why; the
# server and other sessions are unaffected, and a call that caught the
# cancel and then finished still answers timeout.
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
$node->safe_psql('postgres', 'CREATE EXTENSION neon_ai_tools');
my $postmaster_pid = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

# run one statement in psql; returns (stdout, stderr, seconds)
sub timed_psql
{
	my ($sql) = @_;
	my ($out, $err) = ('', '');
	my $start = time;
	IPC::Run::run([ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c', $sql ],
		'>', \$out, '2>', \$err);
	chomp $out;
	return ($out, $err, time - $start);
}

sub call_sql
{
	my ($timeout_ms, $agent_sql) = @_;
	$agent_sql =~ s/'/''/g;
	return qq{SELECT ai_tool_call('execute_sql', jsonb_build_object('timeout_ms', $timeout_ms, 'sql', '$agent_sql')) ->> 'errorType'};
}

# Time bounds: the loops below never end by themselves, and the sleeps
# last 20 s, so a bound of seconds still proves the deadline ended them
# while leaving a slow machine room (psql's start, a busy CI).
my $deadline_bound = 0.5 + 0.5 + 4;    # the limit, the 500 ms grace, slack
my $prompt_bound = 6;

# a bystander's long query runs through everything below
my $bystander = $node->background_psql('postgres');
$bystander->query_until(qr/started/, q{\echo started
SELECT pg_sleep(6);
});

# 1. the issue's loop: every cancel it sees caught.  A cancel may land
# outside its block (a timeout answer) or be caught until the grace ends
# (the FATAL); either way it ends on time.
my ($out, $err, $secs) = timed_psql(call_sql(500,
	q{DO $$BEGIN LOOP BEGIN PERFORM pg_sleep(10); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END$$}));
ok($out eq 'timeout'
	  || $err =~ /FATAL:  terminating connection because a tool call ran past its time limit of 500 ms/,
	"the issue's loop ends: a timeout answer or our FATAL");
cmp_ok($secs, '<', $deadline_bound, sprintf('... within the time limit plus the grace (%.2f s)', $secs));

# 2. cancels caught at three levels, so none can escape: every statement
# after the deadline is refused, and at the end of the grace the backend
# ends with a FATAL that says why
($out, $err, $secs) = timed_psql(call_sql(500,
	q{DO $$BEGIN LOOP BEGIN LOOP BEGIN LOOP BEGIN PERFORM pg_sleep(10); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END$$}));
like($err, qr/FATAL:  terminating connection because a tool call ran past its time limit of 500 ms/,
	'nested loops catching every cancel end their backend with a FATAL that says why');
cmp_ok($secs, '<', $deadline_bound, sprintf('... within the time limit plus the grace (%.2f s)', $secs));

# 3. the same with no statement at all (PL/pgSQL assignments reach no
# hook): the timer ends the backend
($out, $err, $secs) = timed_psql(call_sql(500,
	q{DO $$DECLARE x bigint := 0; BEGIN LOOP BEGIN LOOP BEGIN LOOP BEGIN x := x + 1; EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END$$}));
like($err, qr/FATAL:  terminating connection due to administrator command/,
	'a loop no hook sees is ended by the timer');
like($err, qr/a tool call ran past its time limit of 500 ms and did not stop when cancelled/,
	'... and the error context says why');
cmp_ok($secs, '<', $deadline_bound, sprintf('... within the time limit plus the grace (%.2f s)', $secs));

# 4. caught once, then finished: a timeout answer, the session goes on
($out, $err, $secs) = timed_psql(call_sql(300,
	q{DO $$BEGIN BEGIN PERFORM pg_sleep(20); EXCEPTION WHEN query_canceled THEN NULL; END; END$$})
	  . '; SELECT 1');
is($out, "timeout\n1", 'a call that caught its cancel and finished answers timeout');
cmp_ok($secs, '<', $prompt_bound, sprintf('... promptly (%.2f s)', $secs));

# 5. caught, then tried to do more: refused at once, a timeout answer
($out, $err, $secs) = timed_psql(call_sql(300,
	q{DO $$BEGIN BEGIN PERFORM pg_sleep(20); EXCEPTION WHEN query_canceled THEN NULL; END; PERFORM pg_sleep(20); END$$}));
is($out, 'timeout', 'statements after the deadline are refused');
cmp_ok($secs, '<', $prompt_bound, sprintf('... promptly (%.2f s)', $secs));

# 6. a backend the machine could not run at its deadline (on a loaded CI
# machine, a call stuck in a step that checks for no interrupt): it took
# no cancel, so it has caught none, and it must answer timeout when it
# runs again, not lose its session.  Stopped (SIGSTOP) before its 2 s
# deadline and let go 3 s later, past the deadline and the 800 ms after
# which code that took its cancel and went on is ended.
{
	my ($o, $e) = ('', '');
	my $t0 = time;
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c',
			call_sql(2000, 'SELECT pg_sleep(8)') . '; SELECT 1' ],
		'>', \$o, '2>', \$e);
	my $pid = '';
	while (!$pid && time - $t0 < 10)
	{
		$pid = $node->safe_psql('postgres',
			q{SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(8)%' AND pid <> pg_backend_pid() AND state = 'active'});
	}
	my $stopped_at = time - $t0;
	kill 'STOP', $pid;
	cmp_ok($stopped_at, '<', 1.8,
		sprintf('6. the call was stopped before its deadline (%.2f s)', $stopped_at));
	select(undef, undef, undef, 3.0);
	kill 'CONT', $pid;
	$h->finish;
	chomp $o;
	is($o, "timeout\n1",
		'a call that could not run at its deadline answers timeout when it runs again, and the session goes on')
	  or diag($e);
	unlike($e, qr/FATAL/, '... no FATAL');
}

# the cluster never restarted, and the bystander's query completed
like($bystander->query_safe('SELECT 1'), qr/1$/, 'the bystander session is alive');
$bystander->quit;
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'),
	$postmaster_pid, 'the postmaster did not restart');
unlike(slurp_file($node->logfile), qr/terminating any other active server processes/,
	'no crash recovery in the server log');

$node->stop;
done_testing();
