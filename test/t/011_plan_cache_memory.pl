# The plan cache cannot grow a session's memory without bound.
#
# The issue's case: 256 execute_sql calls, each with a distinct long SQL
# text, once grew a backend by 850 MB (every plan was kept).  Long agent
# SQL is no longer cached, so the backend's peak stays near its idle size.
# Generated SQL is cached, but its memory is capped
# (neon_ai_tools.plan_cache_memory): 256 distinct select_query calls on a
# wide table keep at most that much in plans.  Neither limit can be raised
# by an ordinary role, not with SET and not with a startup option.
#
# Memory is read from /proc/PID/status of the backend (VmRSS when idle,
# VmHWM for the peak) and from pg_backend_memory_contexts.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

plan skip_all => '/proc is not available' unless -r "/proc/$$/status";

my $node = nat_node('main');
$node->start;

# a wide table: 1000 columns with 60-character names, so that a
# select_query naming them all generates about 65 kB of SQL
my $ncols = 1000;
my @cols = map { sprintf('c%04d_', $_) . ('x' x 54) } 1 .. $ncols;
$node->safe_psql(
	'postgres', join(
		"\n",
		'CREATE EXTENSION neon_ai_tools;',
		'CREATE ROLE agent LOGIN;',
		'CREATE TABLE wide (' . join(', ', map { "$_ int" } @cols) . ');',
		'INSERT INTO wide DEFAULT VALUES;',
		'GRANT SELECT ON wide TO agent;',
		# pg_backend_memory_contexts is superuser-only on 15
		'GRANT EXECUTE ON FUNCTION pg_get_backend_memory_contexts() TO agent;',
		'GRANT SELECT ON pg_backend_memory_contexts TO agent;'));

my $agent_connstr = $node->connstr('postgres') . ' user=agent';

# fields of /proc/PID/status in kB
sub proc_status
{
	my ($pid) = @_;
	my %v;
	open(my $fh, '<', "/proc/$pid/status") or die "cannot read /proc/$pid/status: $!";
	while (<$fh>)
	{
		$v{$1} = $2 if /^(\w+):\s+(\d+) kB/;
	}
	close $fh;
	return \%v;
}

# the memory the session's kept plans hold, how many statements and how
# many generic plans.  Between calls only kept plans exist: the session
# runs no other cached statement (18 has no "parent" column to tell).
my $plans_sql = q{
	SELECT coalesce(sum(total_bytes), 0) || ' ' || count(*) FILTER (WHERE name = 'CachedPlanSource')
		|| ' ' || count(*) FILTER (WHERE name = 'CachedPlan')
	FROM pg_backend_memory_contexts
	WHERE name IN ('CachedPlanSource', 'CachedPlanQuery', 'CachedPlan', 'SPI Plan')};

# 1. The issue's case as an ordinary role: 256 distinct long SQL texts.
# The texts are about 60 kB (the sql argument has its own size cap) and
# each is an IN list of 7,400 numbers whose parse and query trees take
# about 1 MB each when kept.
my $s = $node->background_psql('postgres', connstr => $agent_connstr);
my $pid = $s->query_safe('SELECT pg_backend_pid()');
chomp $pid;
my $long_call = q{SELECT ai_tool_call('execute_sql', jsonb_build_object('sql',
	'SELECT count(*) AS n FROM (VALUES (0)) v(x) WHERE x IN (' || %d || ',' ||
	(SELECT string_agg(g::text, ',') FROM generate_series(1000000, 1007400) g) || ')')) ->> 'rowCount'};
$s->query_safe(sprintf($long_call, 0));    # warm up: the library, the catalog caches
my $idle = proc_status($pid);
my $ok = 0;
for my $i (1 .. 256)
{
	my $out = $s->query_safe(sprintf($long_call, $i));
	chomp $out;
	$ok++ if $out eq '1';
}
my $after = proc_status($pid);
is($ok, 256, '256 distinct long execute_sql texts answered');
my $growth_mb = ($after->{VmHWM} - $idle->{VmRSS}) / 1024;
cmp_ok($growth_mb, '<', 64,
	sprintf('peak above idle stays under 64 MB (idle VmRSS %.1f MB, VmHWM %.1f MB, VmRSS after %.1f MB)',
		$idle->{VmRSS} / 1024, $after->{VmHWM} / 1024, $after->{VmRSS} / 1024));
my ($bytes, $count) = split ' ', $s->query_safe($plans_sql);
is($count, 0, 'no long agent text was kept');

# a short agent text is kept from its second run on
$s->query_safe(q{SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1 AS short_text"}')});
($bytes, $count) = split ' ', $s->query_safe($plans_sql);
is($count, 0, 'a short agent text run once is not kept');
$s->query_safe(q{SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1 AS short_text"}')});
($bytes, $count) = split ' ', $s->query_safe($plans_sql);
is($count, 1, 'a short agent text is kept');

# 2. Generated SQL is kept, within plan_cache_memory (16MB by default):
# 256 distinct select_query calls naming all 1000 columns, rotated.
my $wide_call = q{SELECT ai_tool_call('select_query', jsonb_build_object('table', 'wide',
	'columns', (SELECT jsonb_agg(attname ORDER BY (attnum + %d) %% %d)
				FROM pg_attribute WHERE attrelid = 'wide'::regclass AND attnum > 0))) ->> 'rowCount'};
$ok = 0;
my $max_bytes = 0;
my $max_count = 0;
for my $i (1 .. 256)
{
	my $out = $s->query_safe(sprintf($wide_call, $i, $ncols));
	chomp $out;
	$ok++ if $out eq '1';
	if ($i % 32 == 0)
	{
		($bytes, $count) = split ' ', $s->query_safe($plans_sql);
		$max_bytes = $bytes if $bytes > $max_bytes;
		$max_count = $count if $count > $max_count;
	}
}
my $wide_after = proc_status($pid);
is($ok, 256, '256 distinct generated statements answered');
cmp_ok($max_bytes, '<=', 16 * 1024 * 1024,
	sprintf('kept plans never hold more than plan_cache_memory (at most %.1f MB in %d plans)',
		$max_bytes / 1024 / 1024, $max_count));
cmp_ok($max_count, '>', 1, 'generated statements are kept');
cmp_ok($max_count, '<', 256, '... and the least recently used were freed');
$growth_mb = ($wide_after->{VmHWM} - $idle->{VmRSS}) / 1024;
cmp_ok($growth_mb, '<', 64,
	sprintf('peak above idle stays under 64 MB (VmHWM %.1f MB, VmRSS after %.1f MB)',
		$wide_after->{VmHWM} / 1024, $wide_after->{VmRSS} / 1024));

# A kept plan grows when it is used again: its generic plan is built at
# the sixth use.  The growth is counted when the next statement is looked
# up, so after any further call the kept plans are within the limit again.
# 24 distinct statements, each used 7 times.
$max_bytes = 0;
$max_count = 0;
my ($generic, $max_generic) = (0, 0);
for my $i (1 .. 24)
{
	$s->query_safe(sprintf($wide_call, 500 + $i, $ncols)) for 1 .. 7;
	$s->query_safe(q{SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1 AS short_text"}')});
	($bytes, $count, $generic) = split ' ', $s->query_safe($plans_sql);
	$max_bytes = $bytes if $bytes > $max_bytes;
	$max_count = $count if $count > $max_count;
	$max_generic = $generic if $generic > $max_generic;
}
cmp_ok($max_generic, '>', 1, "generic plans were built ($max_generic kept at most)");
cmp_ok($max_bytes, '<=', 16 * 1024 * 1024,
	sprintf('... and the kept plans stay within plan_cache_memory (at most %.1f MB in %d plans)',
		$max_bytes / 1024 / 1024, $max_count));
$wide_after = proc_status($pid);
$growth_mb = ($wide_after->{VmHWM} - $idle->{VmRSS}) / 1024;
cmp_ok($growth_mb, '<', 64,
	sprintf('peak above idle stays under 64 MB (VmHWM %.1f MB, VmRSS after %.1f MB)',
		$wide_after->{VmHWM} / 1024, $wide_after->{VmRSS} / 1024));

# 3. An ordinary role can raise neither limit.
my $err = '';
for my $setting ('plan_cache_size = 100000', "plan_cache_memory = '1GB'")
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SELECT ai_tool_list() IS NOT NULL; SET neon_ai_tools.$setting",
		extra_params => [ '-U', 'agent' ]);
	like($stderr, qr/permission denied to set parameter/, "SET neon_ai_tools.$setting is refused");
}
$s->quit;

# ... nor with a startup option: the administrator's per-role value holds
# once the library loads (guc_policy.c), with a WARNING for the refusal
$node->safe_psql('postgres',
	q{ALTER ROLE agent SET neon_ai_tools.plan_cache_size = 3; ALTER ROLE agent SET neon_ai_tools.plan_cache_memory = '1MB'});
{
	local $ENV{PGOPTIONS} = '-c neon_ai_tools.plan_cache_size=100000 -c neon_ai_tools.plan_cache_memory=1GB';
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		q{SELECT ai_tool_list() IS NOT NULL; SHOW neon_ai_tools.plan_cache_size; SHOW neon_ai_tools.plan_cache_memory},
		extra_params => [ '-U', 'agent' ]);
	is($stdout, "t\n3\n1MB", "a client's startup option does not raise the limits set for the role");
}

done_testing();
