# Helpers shared by the TAP tests of neon-ai-tools-mcp --http
# (test/t/015_mcp_http.pl, test/t/016_mcp_http_sdk.pl): start and stop the
# program, raw HTTP with curl, the 2026-07-28 request shape, and a watcher
# that times how fast a cancelled statement's backend goes idle.
package McpHttp;

use strict;
use warnings;

use Cwd qw(abs_path);
use Exporter qw(import);
use File::Basename qw(dirname);
use IPC::Run;
use JSON::PP;
use Time::HiRes qw(time usleep);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(mcp_program start_server stop_server server_log server_rss http_post
  http_request stateless stateless_headers wait_port idle_watch
  idle_watch_result $json);

our $json = JSON::PP->new->canonical->allow_bignum->allow_nonref;
my $root = abs_path(dirname(__FILE__) . '/../../..');

# The program to test: NAT_MCP_PROGRAM, else the installed one, else the
# one built in src/mcp.
sub mcp_program
{
	return $ENV{NAT_MCP_PROGRAM} if $ENV{NAT_MCP_PROGRAM};
	my $bindir = `pg_config --bindir`;
	chomp $bindir;
	foreach my $p ("$bindir/neon-ai-tools-mcp",
		"$root/src/mcp/neon-ai-tools-mcp")
	{
		return $p if -x $p;
	}
	die "neon-ai-tools-mcp not found: run make && make install";
}

# Start the program with @args (the last one normally the connection
# string); wait until it listens.  Returns a handle: {h, pid, port, url,
# log, rc (set if it exited)}.  Its standard error goes to a file (a pipe
# nobody reads would fill and stop the program): server_log() reads it.
# %opt: prefix (e.g. valgrind), port, address, scheme, wait (seconds).
sub start_server
{
	my ($args, %opt) = @_;
	my $port = $opt{port} || PostgreSQL::Test::Cluster::get_free_port();
	my $log = PostgreSQL::Test::Utils::tempdir() . "/mcp-$port.log";
	my $s = { port => $port, log => $log, out => '', in => '' };
	# TAP sets PGAPPNAME; without it the backend shows the program's name
	delete local $ENV{PGAPPNAME};
	my @cmd = (@{ $opt{prefix} || [] }, mcp_program(),
		'--http', ($opt{address} ? "$opt{address}:$port" : $port), @$args);
	$s->{h} = IPC::Run::start(\@cmd, '<', \$s->{in}, '>', \$s->{out},
		'2>', $log);
	$s->{pid} = $s->{h}{KIDS}[0]{PID};
	$s->{url} = ($opt{scheme} || 'http') . "://127.0.0.1:$port/mcp";
	my $deadline = time + ($opt{wait} || 30);
	while (time < $deadline)
	{
		$s->{h}->pump_nb;
		last if server_log($s) =~ /listening on/;
		if (!$s->{h}->pumpable)
		{
			$s->{h}->finish;
			$s->{rc} = $? >> 8;
			return $s;
		}
		usleep(20_000);
	}
	return $s;
}

# What the program has written to standard error so far.
sub server_log
{
	my ($s) = @_;
	open my $fh, '<', $s->{log} or return '';
	local $/;
	my $text = <$fh>;
	return $text // '';
}

# SIGTERM, wait for the exit; returns (exit code, seconds taken).
sub stop_server
{
	my ($s, $timeout) = @_;
	my $t0 = time;
	kill 'TERM', $s->{pid};
	my $deadline = $t0 + ($timeout || 60);
	while ($s->{h}->pumpable && time < $deadline)
	{
		$s->{h}->pump_nb;
		usleep(10_000);
	}
	if ($s->{h}->pumpable)
	{
		$s->{h}->kill_kill;
		return (-1, time - $t0);
	}
	$s->{h}->finish;
	return ($? >> 8, time - $t0);
}

# The program's resident set size, kB.
sub server_rss
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/status" or return undef;
	while (<$fh>)
	{
		return $1 if /^VmRSS:\s+(\d+)\s+kB/;
	}
	return undef;
}

# curl: returns {status, headers (lower-case names), body, json, rc}.
# %opt: method, headers (array of "Name: value"), body, extra (curl
# arguments), timeout.
sub http_request
{
	my ($url, %opt) = @_;
	my ($out, $err) = ('', '');
	my @cmd = ('curl', '-sS', '-i', '--max-time', $opt{timeout} || 60,
		'-X', $opt{method} || 'POST', @{ $opt{extra} || [] });
	push @cmd, '-H', $_ foreach @{ $opt{headers} || [] };
	push @cmd, '--data-binary', '@-' if defined $opt{body};
	push @cmd, $url;
	my $in = defined $opt{body} ? $opt{body} : '';
	IPC::Run::run(\@cmd, '<', \$in, '>', \$out, '2>', \$err);
	my $r = { rc => $? >> 8, err => $err, headers => {} };
	# skip "100 Continue" interim responses
	$out =~ s/\AHTTP\/1\.1 100 Continue\r\n\r\n//;
	my ($head, $body) = split /\r\n\r\n/, $out, 2;
	$head //= '';
	$r->{body} = $body // '';
	if ($head =~ m{^HTTP/\S+ (\d+)})
	{
		$r->{status} = $1;
	}
	else
	{
		$r->{status} = 0;
	}
	foreach my $line (split /\r\n/, $head)
	{
		$r->{headers}{ lc $1 } = $2 if $line =~ /^([^:]+):\s*(.*)$/;
	}
	$r->{json} = eval { $json->decode($r->{body}) } if length $r->{body};
	return $r;
}

# POST a JSON message (a reference, or text) with the usual headers plus
# @extra.
sub http_post
{
	my ($url, $message, @extra) = @_;
	my $body = ref $message ? $json->encode($message) : $message;
	return http_request(
		$url,
		body => $body,
		headers => [
			'Content-Type: application/json',
			'Accept: application/json, text/event-stream', @extra
		]);
}

# A 2026-07-28 request: params with the per-request _meta.
sub stateless
{
	my ($id, $method, $params) = @_;
	my %p = %{ $params || {} };
	$p{_meta} = {
		'io.modelcontextprotocol/protocolVersion' => '2026-07-28',
		'io.modelcontextprotocol/clientCapabilities' => {},
		'io.modelcontextprotocol/clientInfo' =>
		  { name => 'tap', version => '1' },
	};
	my $m = { jsonrpc => '2.0', method => $method, params => \%p };
	$m->{id} = $id if defined $id;
	return $m;
}

# The headers 2026-07-28 requires for a message.
sub stateless_headers
{
	my ($m) = @_;
	my @h = ('MCP-Protocol-Version: 2026-07-28', "Mcp-Method: $m->{method}");
	push @h, "Mcp-Name: $m->{params}{name}" if $m->{method} eq 'tools/call';
	return @h;
}

# Start watching for the program's backend running pg_sleep, then for it
# to go idle.  The watcher, a psql session, clears its statistics snapshot
# every millisecond; it says "sleeping PID" when it has found the backend
# and "idle STATE EPOCH" (the server's clock, seconds) when the backend
# left the active state.
sub idle_watch
{
	my ($node, $appname) = @_;
	$appname //= 'neon-ai-tools-mcp';
	my $w = { out => '', err => '' };
	my $sql = qq{SET statement_timeout = '90s';
DO \$\$
DECLARE p int; s text;
BEGIN
  LOOP
    PERFORM pg_stat_clear_snapshot();
    SELECT pid INTO p FROM pg_stat_activity
     WHERE application_name = '$appname' AND wait_event = 'PgSleep';
    EXIT WHEN p IS NOT NULL;
    PERFORM pg_sleep(0.001);
  END LOOP;
  RAISE NOTICE 'sleeping %', p;
  LOOP
    PERFORM pg_stat_clear_snapshot();
    SELECT state INTO s FROM pg_stat_activity WHERE pid = p;
    EXIT WHEN s IS DISTINCT FROM 'active';
    PERFORM pg_sleep(0.0005);
  END LOOP;
  RAISE NOTICE 'idle % %', coalesce(s, 'gone'),
    to_char(extract(epoch FROM clock_timestamp()), 'FM9999999999.999999');
END
\$\$;};
	$w->{h} = IPC::Run::start(
		[ 'psql', '-X', '-q', '-d', $node->connstr('postgres'), '-c', $sql ],
		'>', \$w->{out}, '2>', \$w->{err});
	return $w;
}

# Wait for the watcher to say "sleeping" (what => 'sleeping') or to end
# (what => 'idle').  Returns the pid, or the epoch the backend went idle
# and its state then; undef on timeout.
sub idle_watch_result
{
	my ($w, $what, $timeout) = @_;
	my $deadline = time + ($timeout || 60);
	my $re = $what eq 'sleeping' ? qr/sleeping (\d+)/ : qr/idle (\S+) ([\d.]+)/;
	while (time < $deadline)
	{
		$w->{h}->pump_nb if $w->{h}->pumpable;
		if ($w->{err} =~ $re)
		{
			$w->{h}->finish if $what eq 'idle';
			return $what eq 'sleeping' ? $1 : ($2, $1);
		}
		last if !$w->{h}->pumpable;
		usleep(1000);
	}
	$w->{h}->kill_kill if $w->{h}->pumpable;
	diag("idle watcher: $w->{err}");
	return;
}

1;
