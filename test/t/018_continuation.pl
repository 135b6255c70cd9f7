# "next" continuation under concurrent writes (issue 18): keyset paging
# through 25,000 rows in pages of 1,000 while another session inserts and
# deletes rows between the pages returns every row that existed throughout
# exactly once, and no row twice; offset paging over a view (no key) warns
# that rows may shift.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $node = nat_node('main');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE big (id int PRIMARY KEY, grp int NOT NULL, label text);
	INSERT INTO big SELECT g, g % 97, 'row ' || g FROM generate_series(1, 25000) g;
	CREATE VIEW big_v AS SELECT * FROM big;
});

my $pager = $node->background_psql('postgres', on_error_stop => 1);
my $writer = $node->background_psql('postgres', on_error_stop => 1);
$pager->query_safe('\pset tuples_only on');
$pager->query_safe('\pset format unaligned');

srand(18);
my $next_new = 100_000;

# Between pages: insert 40 rows spread over the order and delete 40 rows,
# original or new, in the other session (committed before the next page).
sub churn
{
	my ($deleted) = @_;
	my @ins = map { my $id = $next_new++; "($id, " . int(rand(97)) . ", 'new')" } 1 .. 40;
	my @del = map { 1 + int(rand($next_new > 25000 ? 25000 : $next_new)) } 1 .. 30;
	push @del, map { 100_000 + int(rand($next_new - 100_000)) } 1 .. 10;
	$deleted->{$_} = 1 for @del;
	$writer->query_safe('INSERT INTO big VALUES ' . join(', ', @ins));
	$writer->query_safe('DELETE FROM big WHERE id IN (' . join(', ', @del) . ')');
}

# Page through a relation; returns (pages, {id => times returned}, warnings)
sub page_through
{
	my ($args, $deleted) = @_;
	my (%seen, @warnings);
	my ($pages, $next) = (0, undef);
	do
	{
		my $call = $args;
		$call =~ s/}$/, "next": "$next"}/ if defined $next;
		my $out = $pager->query_safe(
			"SELECT ai_tool_call('select_query', '$call')::text");
		my $answer = decode_json($out);
		die "page $pages failed: $out" unless $answer->{success};
		$seen{ $_->[0] }++ for @{ $answer->{data} };
		push @warnings, $answer->{warning} // '';
		$next = $answer->{next};
		$pages++;
		churn($deleted) if defined $next;
	} while (defined $next && $pages < 100);
	return ($pages, \%seen, \@warnings);
}

# 1. keyset: order_by grp (not unique), the primary key added as tie-breaker
my %deleted;
my ($pages, $seen, $warnings) = page_through(
	'{"table": "big", "columns": ["id", "grp"], "order_by": "grp", "limit": 1000, "format": "columnar"}',
	\%deleted);
my @missing = grep { !$deleted{$_} && !$seen->{$_} } 1 .. 25000;
my @twice = grep { $seen->{$_} > 1 } keys %$seen;
my $survivors = grep { !$deleted{$_} } 1 .. 25000;
cmp_ok($pages, '>=', 25, "keyset: $pages pages of at most 1000 rows");
is(scalar(@missing), 0,
	"keyset: all $survivors rows that existed throughout were returned")
  or diag("missing: @missing[0 .. ($#missing < 9 ? $#missing : 9)]");
is(scalar(@twice), 0, 'keyset: no row was returned twice');
ok(!(grep { /by offset/ } @$warnings), 'keyset: no offset warning');

# the plan: the primary key is the tie-breaker
my $sql = $node->safe_psql('postgres',
	q{SELECT ai_tool_plan('select_query', '{"table": "big", "order_by": "grp", "limit": 10}') -> 'plan' ->> 'sql'});
like($sql, qr/ORDER BY grp, id LIMIT/, 'keyset: ORDER BY grp, id');

# 2. offset: a view has no key; the answer says rows may shift
%deleted = ();
($pages, $seen, $warnings) = page_through(
	'{"table": "big_v", "columns": ["id", "grp"], "order_by": "grp", "limit": 1000, "format": "columnar"}',
	\%deleted);
like($warnings->[0], qr/next continues by offset/, 'offset: the answer warns');
my $lost = grep { !$deleted{$_} && !$seen->{$_} } 1 .. 25000;
my $repeated = grep { $seen->{$_} > 1 } keys %$seen;
note("offset paging under the same writes: $lost rows lost, $repeated returned twice");

$pager->quit;
$writer->quit;
$node->stop;
done_testing();
