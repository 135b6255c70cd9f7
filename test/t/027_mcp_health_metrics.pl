# neon-ai-tools-mcp's health and metrics (issue 34):
#
#   - GET /live and /ready on the main listener and on --admin-listen:
#     no token, no Host check, fixed bodies; /metrics only on the admin
#     listener; /ready 503 once SIGTERM came; usage errors of
#     --admin-listen;
#   - /ready turns 503 within 2 s of the database stopping and 200 within
#     2 s of it coming back (pg_ctl stop and start; measured);
#   - a known mixed workload of 1,000 HTTP requests from 4 clients
#     (test/mcp/metrics/workload.mjs: successes, each error category a
#     tool answers, authentication failures, body and batch refusals,
#     cancels by disconnect and by notification): /metrics, read with a
#     Prometheus text-format parser, equals the workload exactly.
#
# Timings measured are printed as notes ("# measured: ...").
use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use HTTP::Tiny;
use IPC::Run;
use Time::HiRes qw(time usleep);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib abs_path(dirname(__FILE__) . '/../mcp/http');
use lib abs_path(dirname(__FILE__) . '/../perl');
use McpHttp;
use NatNode qw(nat_node);

my $root = abs_path(dirname(__FILE__) . '/../..');
my $dir = "$root/test/mcp/metrics";

plan skip_all => 'curl is not installed'
  unless system('curl --version >/dev/null 2>&1') == 0;
plan skip_all => 'node is not installed'
  unless system('node --version >/dev/null 2>&1') == 0;
my $node_version = `node --version`;
plan skip_all => "node $node_version is older than 20"
  unless $node_version =~ /^v(\d+)/ && $1 >= 20;
my $installed = "$dir/node_modules/.package-lock.json";
if (!-f $installed || -M "$dir/package-lock.json" < -M $installed)
{
	plan skip_all => 'npm cannot run here and test/mcp/metrics/node_modules is missing'
	  unless system('bash', "$root/scripts/npm-ci.sh", '--available') == 0;
	note("npm ci in $dir");
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ 'bash', "$root/scripts/npm-ci.sh", $dir ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(900));
	ok($ok, 'npm ci installs the Prometheus text-format parser') or diag("$out\n$err");
	BAIL_OUT('npm ci failed') unless $ok;
}

my $tmp = PostgreSQL::Test::Utils::tempdir();
my $node = nat_node('metrics');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE items (id int PRIMARY KEY, name text);
	INSERT INTO items VALUES (1, 'apple'), (2, 'pear');
	CREATE TABLE secret (id int);
	CREATE ROLE authenticator LOGIN NOINHERIT;
	CREATE ROLE agent_a NOLOGIN;
	CREATE ROLE agent_b NOLOGIN;
	CREATE ROLE agent_ro NOLOGIN;
	GRANT agent_a, agent_b, agent_ro TO authenticator;
	GRANT SELECT, INSERT, DELETE ON items TO agent_a, agent_b, agent_ro;
	ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
});
my %token = map { $_ => "tok-$_-" . sha256_hex(rand() . $$ . $_) } qw(agent_a agent_b agent_ro);
my $tokens_file = "$tmp/tokens";
open my $fh, '>', $tokens_file or die;
print $fh "$_ " . sha256_hex($token{$_}) . "\n" foreach sort keys %token;
close $fh;
chmod 0600, $tokens_file;
my $connstr = $node->connstr('postgres') . ' user=authenticator';
my $http = HTTP::Tiny->new(timeout => 10, keep_alive => 0);

sub get
{
	my ($url, %headers) = @_;
	return $http->get($url, { headers => \%headers });
}

# --- the endpoints -------------------------------------------------------------------

my $admin_port = PostgreSQL::Test::Cluster::get_free_port();
my $srv = start_server([ '--auth-tokens', $tokens_file, '--admin-listen', "127.0.0.1:$admin_port",
	$connstr ]);
like(server_log($srv), qr/admin listening on http:\/\/127\.0\.0\.1:$admin_port/,
	'--admin-listen: the admin listener is up');
my $main = "http://127.0.0.1:$srv->{port}";
my $admin = "http://127.0.0.1:$admin_port";
my $r;

foreach my $base ($main, $admin)
{
	my $which = $base eq $main ? 'main' : 'admin';
	$r = get("$base/live");
	is("$r->{status} $r->{content}", "200 live\n", "$which: GET /live answers 200 without a token");
	$r = get("$base/ready");
	is("$r->{status} $r->{content}", "200 ready\n", "$which: GET /ready answers 200 while the database answers");
	is($r->{headers}{'content-type'}, 'text/plain; charset=utf-8', "$which: ... as plain text");
	$r = $http->request('HEAD', "$base/ready");
	is($r->{status}, 200, "$which: HEAD /ready: 200");
}
$r = http_request("$main/ready", method => 'GET', headers => ['Host: probe.internal:1234']);
is($r->{status}, 200, 'main: /ready passes no Host check (orchestrators probe by address)');
$r = get("$main/ready", Authorization => 'Bearer wrong');
is($r->{status}, 200, 'main: /ready ignores a bad token');
# /ready needs no token: a client that loops on it must not turn each
# probe into a statement of the database (one check at most every 250 ms)
my $commits = q{SELECT pg_stat_clear_snapshot(), sum(xact_commit) FROM pg_stat_database};
my ($commits_before) = $node->safe_psql('postgres', $commits) =~ /(\d+)$/;
my $probes = 0;
for (my $until = time + 1; time < $until; $probes++)
{
	get("$main/ready");
}
sleep 2;						# backends report their counts when idle
my ($commits_after) = $node->safe_psql('postgres', $commits) =~ /(\d+)$/;
ok($commits_after - $commits_before < 20,
	"$probes probes of /ready in 1 s ran " . ($commits_after - $commits_before)
	  . ' transactions of the database (fewer than 20)');
$r = get("$main/metrics");
is($r->{status}, 404, 'main: no /metrics on the main listener');
$r = get("$main/metrics", Authorization => "Bearer $token{agent_a}");
is($r->{status}, 404, '... not even with a token');
$r = get("$admin/metrics");
is($r->{status}, 200, 'admin: GET /metrics answers 200');
is($r->{headers}{'content-type'}, 'text/plain; version=0.0.4; charset=utf-8',
	'... in the text exposition format 0.0.4');
like($r->{content}, qr/^# HELP neon_ai_tools_mcp_info /, '... starting with the version');
$r = $http->post("$admin/metrics");
is($r->{status}, 405, 'admin: POST /metrics: 405');
$r = get("$admin/mcp");
is($r->{status}, 404, 'admin: no /mcp on the admin listener');

# --- /ready follows the database -----------------------------------------------------

# poll $url until it answers $want; seconds taken, or undef after 10 s
sub time_until
{
	my ($url, $want, $from) = @_;
	while (time - $from < 10)
	{
		my $res = get($url);
		return time - $from if $res->{status} == $want;
		usleep(20_000);
	}
	return undef;
}

{
	my $issued = time;
	$node->stop('fast');
	my $stopped = time;
	my $down = time_until("$admin/ready", 503, $stopped);
	ok(defined $down && $down < 2, '/ready turns 503 within 2 s of the database stopping');
	is(get("$main/ready")->{status}, 503, '... on the main listener too');
	is(get("$main/live")->{status}, 200, '... while /live still answers 200');
	my $started_issued = time;
	$node->start;
	my $started = time;
	my $up = time_until("$admin/ready", 200, $started);
	ok(defined $up && $up < 2, '/ready turns 200 within 2 s of the database coming back');
	is(get("$main/ready")->{status}, 200, '... on the main listener too');
	note(sprintf('measured: /ready 503 %.3f s after pg_ctl stop returned (%.3f s after it was issued); '
		  . '200 %.3f s after pg_ctl start returned (%.3f s after it was issued)',
		$down // -1, ($down // -1) + $stopped - $issued, $up // -1, ($up // -1) + $started - $started_issued));
}
{
	# SIGTERM: while the calls in progress finish, /ready says 503
	my $m = stateless(1, 'tools/call', { name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(1.5)' } });
	my ($out, $err) = ('', '');
	my $call = IPC::Run::start([ 'curl', '-sS', '-H', 'Content-Type: application/json',
		'-H', "Authorization: Bearer $token{agent_a}", (map { ('-H', $_) } stateless_headers($m)),
		'--data-binary', $json->encode($m), $srv->{url} ], '>', \$out, '2>', \$err);
	usleep(400_000);
	kill 'TERM', $srv->{pid};
	usleep(100_000);
	is(get("$admin/ready")->{status}, 503, 'SIGTERM: /ready answers 503 while calls finish');
	is(get("$admin/live")->{status}, 200, '... and /live 200');
	$call->finish;
	like($out, qr/\\"success\\": true/, '... and the call in progress is answered');
}
stop_server($srv);

# --- usage ---------------------------------------------------------------------------

{
	my ($out, $err) = ('', '');
	IPC::Run::run([ mcp_program(), '--admin-listen', '9', $connstr ], '<', \'', '>', \$out, '2>', \$err);
	is($? >> 8, 1, '--admin-listen without --http: exit 1');
	like($err, qr/--admin-listen is for --http/, '... saying so');
	IPC::Run::run([ mcp_program(), '--http', '1', '--admin-listen', '127.0.0.1:99999', $connstr ],
		'<', \'', '>', \$out, '2>', \$err);
	is($? >> 8, 1, '--admin-listen with a bad port: exit 1');
	like(mcp_help(), qr/--admin-listen \[ADDR:\]PORT/, '--help lists --admin-listen');
}

sub mcp_help
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ mcp_program(), '--help' ], '>', \$out, '2>', \$err);
	return $out;
}

{
	# without --admin-listen: probes on the main listener, no /metrics
	my $s = start_server([$connstr]);
	my $base = "http://127.0.0.1:$s->{port}";
	is(get("$base/live")->{status}, 200, 'without --admin-listen: /live on the main listener');
	is(get("$base/ready")->{status}, 200, '... and /ready');
	is(get("$base/metrics")->{status}, 404, '... and no /metrics');
	stop_server($s);
}

# --- the workload and its metrics ----------------------------------------------------

{
	my $max_body = 4096;
	$admin_port = PostgreSQL::Test::Cluster::get_free_port();
	my $s = start_server([ '--auth-tokens', $tokens_file, '--admin-listen', $admin_port,
		'--max-body', $max_body, '--max-batch-members', 2, '--pool-size', 4,
		'--max-requests', 64, '--max-requests-per-token', 64, $connstr ]);
	my $cfg = $json->encode({ url => $s->{url}, admin => "http://127.0.0.1:$admin_port",
		tokens => \%token, clients => 4, rounds => 15, max_body => $max_body });
	my ($out, $err) = ('', '');
	my $t0 = time;
	IPC::Run::run([ 'node', "$dir/workload.mjs", $cfg ], '>', \$out, '2>', \$err,
		IPC::Run::timeout(120));
	my $elapsed = time - $t0;
	my $w = eval { $json->decode($out) };
	ok($w, 'the workload ran') or diag("$err\n$out");
	$w ||= { mismatches => [], format_errors => [], expected => {}, metrics => {} };
	is($w->{requests}, 1000, '1,000 HTTP requests from 4 clients');
	is_deeply($w->{mismatches}, [], 'every answer was the one the workload expects');
	is_deeply($w->{format_errors}, [], '/metrics follows the text format (HELP, TYPE, one series once)');

	# every series of the counted families, as the parser read them
	my $counted = qr/^neon_ai_tools_mcp_(http_responses_total|jsonrpc_messages_total|tool_calls_total|tool_call_duration_seconds_count|auth_failures_total|cancels_total|refusals_total|sessions_total)\{/;
	my %got = map { $_ => $w->{metrics}{$_} }
	  grep { /$counted/ && $w->{metrics}{$_} != 0 } keys %{ $w->{metrics} };
	is_deeply(\%got, $w->{expected}, '/metrics counts equal the workload exactly');
	is(scalar(grep { /:(not_cumulative|inconsistent)/ } keys %{ $w->{metrics} }), 0,
		'histograms: cumulative buckets, +Inf equals _count, a positive _sum');
	my $sum = 0;
	$sum += $w->{expected}{$_} foreach grep { /^neon_ai_tools_mcp_http_responses_total/ } keys %{ $w->{expected} };
	is($sum, 1000, '... one HTTP response per request');
	my ($calls) = (0);
	$calls += $w->{expected}{$_} foreach grep { /^neon_ai_tools_mcp_tool_calls_total/ } keys %{ $w->{expected} };
	note("measured: $calls tool calls; " . join(', ', map { s/^neon_ai_tools_mcp_//r . "=$w->{expected}{$_}" }
		  grep { /(auth_failures|cancels|refusals)_total/ } sort keys %{ $w->{expected} }));
	is($w->{metrics}{'neon_ai_tools_mcp_sessions_open{}'}, 0, 'sessions_open: 0 after the DELETEs');
	is($w->{metrics}{'neon_ai_tools_mcp_pool_connections{state="in_use"}'}, 0, 'pool: none in use at the end');
	is($w->{metrics}{'neon_ai_tools_mcp_pool_waiting{}'}, 0, 'pool: none waiting');
	is($w->{metrics}{'neon_ai_tools_mcp_pool_size{}'}, 4, 'pool_size is --pool-size');
	cmp_ok($w->{metrics}{'neon_ai_tools_mcp_pool_acquires_total{}'}, '==', $calls,
		'pool_acquires_total: one per tool call');
	note(sprintf('measured: the workload took %.2f s', $elapsed));
	stop_server($s);
}

$node->stop;
done_testing();
