# The official MCP TypeScript SDK clients against neon-ai-tools-mcp --http
# (issue 16), test/mcp/http/clients.mjs, pinned in test/mcp/http/
# package-lock.json (@modelcontextprotocol/sdk 1.32.2 for the session
# revisions, @modelcontextprotocol/client 2.4.0 pinned to 2026-07-28):
#
#   - every tool under 2025-11-25, 2025-06-18, 2025-03-26 and 2026-07-28;
#   - 16 concurrent clients for NAT_MCP_LOAD_SECONDS (default 20) with no
#     failed call and a flat resident set size, while another client
#     (127.0.0.2) holds 64 sockets sending half a request header;
#   - the text block under --text-block compact and summary (the latter
#     from NEON_AI_TOOLS_MCP_TEXT_BLOCK), 2025-03-26 keeping the JSON;
#   - cancellation within 100 ms: the SDK's AbortSignal (2025-11-25: a
#     notifications/cancelled POST; 2026-07-28: the request's stream
#     closed), timed from the cancel to the backend leaving the active
#     state in pg_stat_activity.
#
# Each of the client's TAP results is repeated here as one assertion.
# node_modules is installed with `npm ci` when it is missing or older than
# the lock file; without node or npm the test is skipped, saying so.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;
use POSIX ();
use Time::HiRes qw(time usleep);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

use lib abs_path(dirname(__FILE__) . '/../mcp/http');
use McpHttp;

my $root = abs_path(dirname(__FILE__) . '/../..');
my $dir = "$root/test/mcp/http";

# --- node and the SDKs -----------------------------------------------------------

plan skip_all => 'node is not installed'
  unless system('node --version >/dev/null 2>&1') == 0;
my $node_version = `node --version`;
plan skip_all => "node $node_version is older than 20"
  unless $node_version =~ /^v(\d+)/ && $1 >= 20;

my $installed = "$dir/node_modules/.package-lock.json";
if (!-f $installed || -M "$dir/package-lock.json" < -M $installed)
{
	plan skip_all => 'npm cannot run here and test/mcp/http/node_modules is missing'
	  unless system('bash', "$root/scripts/npm-ci.sh", '--available') == 0;
	note("npm ci in $dir");
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ 'bash', "$root/scripts/npm-ci.sh", $dir ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(900));
	ok($ok, 'npm ci installs the pinned MCP SDKs') or diag("$out\n$err");
	BAIL_OUT('npm ci failed') unless $ok;
}

# --- a cluster, the server -----------------------------------------------------------

my $node = nat_node('httpsdk');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE mcp_items (id int PRIMARY KEY, name text, price numeric);
	INSERT INTO mcp_items VALUES (1, 'apple', 1.25), (2, 'pear', 2.5);
});
my $srv = start_server([ $node->connstr('postgres') ]);
like(server_log($srv), qr/listening on/, 'the server listens');

# Run clients.mjs MODE; its TAP lines become ours.  Returns its output.
# %opt: env, on_line (called with each "# ..." line as it comes), server
# (another than $srv).
sub clients
{
	my ($mode, %opt) = @_;
	my ($out, $err) = ('', '');
	local %ENV = (%ENV, %{ $opt{env} || {} });
	my $h = IPC::Run::start([ 'node', "$dir/clients.mjs", $mode, ($opt{server} || $srv)->{url} ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(600));
	my $off = 0;
	while ($h->pumpable)
	{
		$h->pump_nb;
		for (my $e = index($out, "\n", $off); $e >= 0; $e = index($out, "\n", $off))
		{
			my $line = substr($out, $off, $e - $off);
			$off = $e + 1;
			$opt{on_line}->($line) if $opt{on_line} && $line =~ /^#/;
		}
		usleep(20_000);
	}
	$h->finish;
	my $rc = $? >> 8;
	my ($plan, $count) = (undef, 0);
	foreach my $line (split /\n/, $out)
	{
		if ($line =~ /^(not )?ok \d+ - (.*)$/)
		{
			ok(!defined $1, "sdk: $2");
			$count++;
		}
		elsif ($line =~ /^1\.\.(\d+)/) { $plan = $1; }
		elsif ($line =~ /^#/) { note($line); }
	}
	is($rc, 0, "clients.mjs $mode exits 0") or diag("stdout:\n$out\nstderr:\n$err");
	ok(defined $plan && $plan == $count && $count > 0,
		"clients.mjs $mode ran its whole plan ($count assertions)");
	return $out;
}

# --- every tool, each revision -----------------------------------------------------------

clients('revisions');
like(server_log($srv), qr/method=server\/discover .*status=200/,
	'the 2026-07-28 client came through server/discover');

# --- the text block (issue 32) -------------------------------------------------------
#
# A server per form: --text-block compact, and summary from the environment.

foreach my $case ([ 'compact', [ '--text-block', 'compact' ], {} ],
	[ 'summary', [], { NEON_AI_TOOLS_MCP_TEXT_BLOCK => 'summary' } ])
{
	my ($form, $args, $env) = @$case;
	my $other = do
	{
		local %ENV = (%ENV, %$env);
		start_server([ @$args, $node->connstr('postgres') ]);
	};
	like(server_log($other), qr/listening on/, "the $form server listens");
	clients('text-block', server => $other, env => { NAT_MCP_TEXT_BLOCK => $form });
	my ($rc) = stop_server($other);
	is($rc, 0, "the $form server stops with exit code 0");
	unlike(server_log($other), qr/\b(?:error|warning):/, "the $form server logged no error or warning");
}

# --- cancellation ---------------------------------------------------------------------

#
# The cancel's moment is when the SDK sent it: the notifications/cancelled
# POST leaving fetch (2025-11-25), the request's fetch aborted (2026-07-28,
# undici then closes its connection).  The time from the application's
# abort() to that is the SDK's own and is reported too.
foreach my $case ([ 'cancel-session', 'cancel_posted', '2025-11-25, notifications/cancelled' ],
	[ 'cancel-modern', 'stream_aborted_at', '2026-07-28, the stream closed by AbortSignal' ])
{
	my ($mode, $mark, $label) = @$case;
	my $watch = idle_watch($node);
	my $out = clients($mode);
	my ($cancel_ms) = $out =~ /^# $mark ([\d.]+)/m;
	my ($abort_ms) = $out =~ /^# abort_at ([\d.]+)/m;
	my ($idle, $state) = idle_watch_result($watch, 'idle', 30);
	my $ms = defined $idle && defined $cancel_ms ? $idle * 1000 - $cancel_ms : 1e9;
	note(sprintf('measured: %s -> backend %s in %.1f ms%s', $label, $state // '?', $ms,
			defined $abort_ms && defined $idle
			? sprintf(' (%.1f ms from abort())', $idle * 1000 - $abort_ms) : ''));
	cmp_ok($ms, '<', 100, "$label: the backend is idle within 100 ms of the cancel");
}

# --- 16 clients for a while: no failed call, flat memory ----------------------------------------
#
# The program's RSS is read idle (before), once the 16 clients are
# connected and warm (every connection thread, pool connection and malloc
# arena they need exists), at the end of the run with the clients still
# calling, and idle again after they left.  Flat memory means the end
# differs from the warm figure by little: 2 MB is 100 bytes a call at
# 20,000 calls (the run makes some 800 calls a second on a quiet 2-core
# machine), and above malloc's own noise (a few hundred kB).  Idle after
# versus before is reported, not bounded: glibc keeps the arenas the
# threads made.

# Meanwhile (issue 30) another client, from another address (127.0.0.2),
# keeps 64 sockets open that each send half a request header and then a
# byte a second, reopening any the server closes: the SDK clients' calls
# must not fail.
sub start_slow_attacker
{
	my ($port, $stop) = @_;
	my $pid = fork();
	die "fork: $!" unless defined $pid;
	return $pid if $pid;
	require IO::Socket::INET;
	local $SIG{PIPE} = 'IGNORE';
	my (@socks, $opened);
	while (!-e $stop)
	{
		@socks = grep { defined $_ && $_->connected && print $_ 'x' } @socks;
		while (@socks < 64)
		{
			my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port,
				LocalAddr => '127.0.0.2', Proto => 'tcp', Timeout => 2) or last;
			print $sock "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
			push @socks, $sock;
			$opened++;
		}
		sleep 1;
	}
	open my $fh, '>', "$stop.count" or die;
	print $fh $opened // 0;
	close $fh;
	POSIX::_exit(0);
}

my $seconds = $ENV{NAT_MCP_LOAD_SECONDS} || 20;
my $stop_attack = PostgreSQL::Test::Utils::tempdir() . '/stop-attack';
my $attacker = start_slow_attacker($srv->{port}, $stop_attack);
my %rss = (before => server_rss($srv->{pid}));
my $out = clients('load',
	env => { NAT_MCP_CLIENTS => 16, NAT_MCP_LOAD_SECONDS => $seconds },
	on_line => sub {
		$rss{warm} //= server_rss($srv->{pid}) if $_[0] eq '# warm';
		$rss{end} //= server_rss($srv->{pid}) if $_[0] eq '# end';
	});
open my $stop_fh, '>', $stop_attack or die;
close $stop_fh;
waitpid($attacker, 0);
my $opened = do { open my $fh, '<', "$stop_attack.count" or die; local $/; <$fh> };
note("measured: the slow-header client opened $opened sockets (64 at a time) during the run");
cmp_ok($opened, '>', 64, '... the server closed slow-header sockets during the run (they were reopened)');
usleep(500_000);
$rss{after} = server_rss($srv->{pid});
note(sprintf('measured: 16 clients x %d s: %s; RSS kB: before %s, warm %s, end %s (%+d), after %s',
		$seconds, ($out =~ /# (calls .*)/)[0] // '?',
		(map { $rss{$_} // '?' } qw(before warm end)),
		($rss{end} // 0) - ($rss{warm} // 0), $rss{after} // '?'));
ok(defined $rss{warm} && defined $rss{end}, 'RSS read when warm and at the end');
cmp_ok(($rss{end} // 1e9) - ($rss{warm} // 0), '<', 2048,
	"16 clients x $seconds s: RSS grew by less than 2 MB between warm and end");

my ($rc) = stop_server($srv);
is($rc, 0, 'SIGTERM: exit code 0');
unlike(server_log($srv), qr/\b(?:error|warning):/, 'the server logged no error or warning')
  or diag(join "\n", grep { /error:|warning:/ } split /\n/, server_log($srv));

$node->stop;
done_testing();
