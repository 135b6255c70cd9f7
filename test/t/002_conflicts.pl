# Real concurrency conflicts become retryable "conflict" answers: a
# deadlock between two sessions, and a serialization failure under
# REPEATABLE READ.  Each needs two sessions, so it lives in TAP.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $node = nat_node('main');
$node->append_conf('postgresql.conf', 'deadlock_timeout = 200ms');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE t (id int PRIMARY KEY, v int);
	INSERT INTO t VALUES (1, 0), (2, 0);
});

# 1. Deadlock: A holds row 1 and waits for row 2; B holds row 2 and asks a
# tool to update row 1.  The session whose deadlock_timeout expires first
# runs the check and becomes the victim: A waits 10 s, so it is B's call,
# which answers conflict / deadlock.
my $a = $node->background_psql('postgres', on_error_stop => 0);
my $b = $node->background_psql('postgres', on_error_stop => 0);
$a->query_safe("SET deadlock_timeout = '10s'");
$a->query_safe('BEGIN');
$a->query_safe('UPDATE t SET v = 1 WHERE id = 1');
$b->query_safe('BEGIN');
$b->query_safe('UPDATE t SET v = 2 WHERE id = 2');
$a->query_until(qr/waiting/, "\\echo waiting\nUPDATE t SET v = 1 WHERE id = 2;\n");
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
  or die "session A never waited";

my $answer = $b->query_safe(
	q{SELECT a ->> 'errorType', a ->> 'error_type', a ->> 'sqlState', a ->> 'retryable' FROM ai_tool_call('update_data', '{"table": "t", "set": {"v": 2}, "where": {"id": 1}}') a}
);
is($answer, 'conflict|deadlock|40P01|true', 'a deadlock is a retryable conflict answer');
is($b->query_safe('SELECT v FROM t WHERE id = 2'), '2',
	"the victim's transaction is still usable after the failed call");
$b->query_safe('ROLLBACK');
$a->query_safe('COMMIT');

# 2. Serialization failure: A's REPEATABLE READ snapshot predates B's
# committed update of the row A's tool call then tries to update.
$a->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$a->query_safe('SELECT count(*) FROM t');
$node->safe_psql('postgres', 'UPDATE t SET v = 10 WHERE id = 1');
$answer = $a->query_safe(
	q{SELECT a ->> 'errorType', a ->> 'error_type', a ->> 'sqlState', a ->> 'retryable' FROM ai_tool_call('update_data', '{"table": "t", "set": {"v": 3}, "where": {"id": 1}}') a}
);
is( $answer,
	'conflict|serialization_failure|40001|true',
	'a serialization failure is a retryable conflict answer');
like(
	$a->query_safe(
		q{SELECT ai_tool_call('update_data', '{"table": "t", "set": {"v": 3}, "where": {"id": 1}}') ->> 'suggestion'}
	),
	qr/retry the whole/i,
	'the suggestion says to retry the whole transaction');
$a->query_safe('ROLLBACK');
is($node->safe_psql('postgres', 'SELECT v FROM t WHERE id = 1'),
	'10', 'nothing of the failed calls was kept');

$a->quit;
$b->quit;
$node->stop;
done_testing();
