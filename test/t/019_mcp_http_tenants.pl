# neon-ai-tools-mcp --http shared by users who may be hostile (issue 30).
# Two tenants hold tokens for two roles; tenant A attacks, tenant B keeps
# calling (a separate process, its own connections), and every call of B's
# must succeed during each attack.  B's count and p99 latency are printed
# beside an attack-free run ("# measured: ...").
#
#   - a batch of 1,000 and one of 28,000 execute_sql
#     "select repeat('x', 900000)" calls, with the program under ulimit -v
#     1.5 GB: it stays up, the members past --max-batch-members and
#     --max-batch-bytes answer -32600 naming the limit, peak RSS stays
#     under the README's bound;
#   - 2,100 initialize requests of A: B's session lives, A's oldest ends;
#   - more concurrent calls of A than --max-requests-per-token: 429 for A;
#   - 64 sockets sending half a request header (and one byte now and
#     then): they are closed after --request-timeout, and B's requests from
#     another address are served meanwhile;
#   - cancels: a cancel for an id not in flight is dropped, not kept for a
#     later request with that id;
#   - Host and Origin: every header checked, --allowed-host;
#   - SIGHUP: the tokens file is read again, a revoked token's sessions
#     end, the others go on, a broken file keeps the old tokens, SIGTERM
#     still exits 0;
#   - a batch of 1.9 million numbers, and a message of a million {} (json-c
#     would spend 800 MB on it): bounded;
#   - RSS after a burst of large answers comes back down (malloc_trim);
#   - valgrind over the session quota, the batch limit, a reload, the Host
#     check and a slow socket.
#
# Run against the program before issue 30 (its new options removed), the
# batches end it out of memory and most of the checks above fail.
use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use HTTP::Tiny;
use IO::Socket::INET;
use Socket qw(IPPROTO_TCP TCP_NODELAY);
use POSIX qw(WNOHANG);
use Time::HiRes qw(time usleep);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

use lib abs_path(dirname(__FILE__) . '/../mcp/http');
use McpHttp;

plan skip_all => 'curl is not installed'
  unless system('curl --version >/dev/null 2>&1') == 0;

my $tmp = PostgreSQL::Test::Utils::tempdir();
my $node = nat_node('tenants');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE authenticator LOGIN NOINHERIT;
	CREATE ROLE tenant_a NOLOGIN;
	CREATE ROLE tenant_b NOLOGIN;
	CREATE ROLE tenant_c NOLOGIN;
	GRANT tenant_a, tenant_b, tenant_c TO authenticator;
	CREATE TABLE items (id int PRIMARY KEY, name text);
	INSERT INTO items VALUES (1, 'apple'), (2, 'pear');
	GRANT SELECT ON items TO tenant_a, tenant_b, tenant_c;
});
my $connstr = $node->connstr('postgres') . ' user=authenticator';

my %token = map { $_ => "tok-$_-" . sha256_hex(rand() . $$ . $_) } qw(a b c a2);
my $tokens_file = "$tmp/tokens";

sub write_tokens
{
	my (%lines) = @_;
	open my $fh, '>', "$tokens_file.new" or die;
	print $fh "$lines{$_} " . sha256_hex($token{$_}) . "\n" foreach sort keys %lines;
	close $fh;
	chmod 0600, "$tokens_file.new";
	rename "$tokens_file.new", $tokens_file or die;
}
write_tokens(a => 'tenant_a', b => 'tenant_b');

my $init = {
	jsonrpc => '2.0',
	id => 1,
	method => 'initialize',
	params => {
		protocolVersion => '2025-03-26',
		capabilities => {},
		clientInfo => { name => 'tap', version => '1' }
	}
};
my $ping = { jsonrpc => '2.0', id => 2, method => 'ping' };
my $b_call = stateless(1, 'tools/call',
	{ name => 'select_query', arguments => { table => 'items', where => { id => 2 } } });
my $r;

# --- tenant B, calling all along --------------------------------------------------------

# Start B: a child process that posts $b_call with B's token (a new
# connection each time, from $from) until stopped.  Returns its handle.
sub start_victim
{
	my ($s, %opt) = @_;
	my $out = "$tmp/victim-" . int(rand(1e9));
	my $pid = fork();
	die "fork: $!" unless defined $pid;
	if ($pid == 0)
	{
		my $ua = HTTP::Tiny->new(keep_alive => 0, timeout => 20,
			local_address => $opt{from} || '127.0.0.2');
		my $body = $json->encode($b_call);
		my %h = (
			'Content-Type' => 'application/json',
			'Accept' => 'application/json, text/event-stream',
			'Authorization' => "Bearer $token{b}",
			map { split /: /, $_, 2 } stateless_headers($b_call));
		open my $fh, '>', $out or die;
		$fh->autoflush(1);
		my $end = time + ($opt{max_secs} || 120);
		while (!-e "$out.stop" && time < $end)
		{
			my $t0 = time;
			my $res = $ua->post($s->{url}, { headers => \%h, content => $body });
			my $ok = $res->{status} == 200 && $res->{content} =~ /"pear"/ ? 1 : 0;
			printf $fh "%d %d %.2f\n", $res->{status}, $ok, (time - $t0) * 1000;
			usleep(20_000);
		}
		close $fh;
		POSIX::_exit(0);
	}
	return { pid => $pid, out => $out };
}

# Stop B; returns {n, failed, p99 (ms), statuses}.
sub stop_victim
{
	my ($v) = @_;
	open my $fh, '>', "$v->{out}.stop" or die;
	close $fh;
	waitpid($v->{pid}, 0);
	open $fh, '<', $v->{out} or die;
	my @lines = map { [split] } <$fh>;
	close $fh;
	my @ms = sort { $a <=> $b } map { $_->[2] } @lines;
	my %st;
	$st{ $_->[0] }++ foreach @lines;
	return {
		n => scalar @lines,
		failed => scalar(grep { !$_->[1] } @lines),
		p99 => @ms ? $ms[ int(0.99 * $#ms) ] : 0,
		statuses => join(',', map { "$_:$st{$_}" } sort keys %st)
	};
}

sub victim_ok
{
	my ($v, $what) = @_;
	my $st = stop_victim($v);
	note(sprintf('measured: tenant B during %s: %d calls, %d failed, p99 %.1f ms (%s)',
			$what, $st->{n}, $st->{failed}, $st->{p99}, $st->{statuses}));
	ok($st->{n} > 0 && $st->{failed} == 0, "during $what: tenant B's $st->{n} calls all succeeded")
	  or diag("statuses $st->{statuses}");
	return $st;
}

sub peak_rss_kb
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/status" or return 0;
	while (<$fh>)
	{
		return $1 if /^VmHWM:\s+(\d+)\s+kB/;
	}
	return 0;
}

sub alive { my ($s) = @_; return kill(0, $s->{pid}) && $s->{h}->pumpable; }

sub open_session
{
	my ($s, $tok) = @_;
	my $res = http_post($s->{url}, $init, "Authorization: Bearer $tok");
	return $res->{headers}{'mcp-session-id'};
}

# --- batches under ulimit -v -------------------------------------------------------------

# 1.5 GB of address space, as the issue's run had
my $ulimit = ['bash', '-c', 'ulimit -v 1572864 && exec "$@"', 'ulimit'];
my $s = start_server(
	[ '--auth-tokens', $tokens_file, '--pool-size', 4, $connstr ],
	prefix => $ulimit);
ok(alive($s), 'the server runs under ulimit -v 1.5 GB');
{
	my $st = http_post($s->{url}, $b_call, stateless_headers($b_call), "Authorization: Bearer $token{b}");
	is($st->{status}, 200, "tenant B's call works") or diag($st->{body});
	my $v = start_victim($s);
	sleep 3;
	my $base = victim_ok($v, 'no attack (baseline)');

	my $sid = open_session($s, $token{a});
	ok($sid, "tenant A opens a 2025-03-26 session (batches allowed)");
	foreach my $n (1000, 28000)
	{
		my @batch = map {
			{
				jsonrpc => '2.0', id => $_, method => 'tools/call',
				params => { name => 'execute_sql', arguments => { sql => "select repeat('x', 900000)" } }
			}
		} 1 .. $n;
		my $body = $json->encode(\@batch);
		$v = start_victim($s);
		my $t0 = time;
		$r = http_post($s->{url}, $body, "Mcp-Session-Id: $sid", "Authorization: Bearer $token{a}");
		my $took = time - $t0;
		my $answers = ref $r->{json} eq 'ARRAY' ? $r->{json} : [];
		my @ran = grep { $_->{result} } @$answers;
		my %limit;
		$limit{ $_->{error}{data}{limit} // '-' }++ foreach grep { $_->{error} } @$answers;
		note(sprintf('measured: batch of %d (%.2f MB of JSON): status %s in %.1f s, %d answers '
				  . '(%d run, limits: %s), answer %.1f MB, peak RSS %d MB',
				$n, length($body) / 1e6, $r->{status}, $took, scalar @$answers, scalar @ran,
				join(',', map { "$_=$limit{$_}" } sort keys %limit), length($r->{body}) / 1e6,
				peak_rss_kb($s->{pid}) / 1024));
		ok(alive($s), "a batch of $n repeat('x', 900000) calls under ulimit -v: the server is up");
		is($r->{status}, 200, '... the batch is answered');
		is(scalar @$answers, $n, '... one answer per member');
		ok(@ran >= 1 && @ran <= 10, '... only the members within --max-batch-bytes (8 MiB) ran');
		my ($first) = grep { $_->{error} } @$answers;
		ok($first && $first->{error}{code} == -32600
			  && $first->{error}{data}{limit} eq 'maxBatchBytes'
			  && $first->{error}{message} =~ /--max-batch-bytes/,
			'... the next one answers -32600 naming --max-batch-bytes') or diag($json->encode($first));
		if ($n > 100)
		{
			ok($answers->[100]{error} && $answers->[100]{error}{data}{limit} eq 'maxBatchMembers',
				'... the 101st member answers -32600 naming --max-batch-members');
		}
		victim_ok($v, "tenant A's batch of $n");
	}
	# other shapes: a batch of 1.9 million bare numbers, and one message
	# of a million empty objects (json-c spends about 800 bytes on each)
	{
		$v = start_victim($s);
		my $body = '[' . join(',', ('1') x 1_900_000) . ']';
		$r = http_post($s->{url}, $body, "Mcp-Session-Id: $sid", "Authorization: Bearer $token{a}");
		my $n = ref $r->{json} eq 'ARRAY' ? scalar @{ $r->{json} } : -1;
		ok(alive($s) && $r->{status} == 200 && $n == 100,
			'a batch of 1.9 million numbers: 100 answers (the members within the limit), the server is up')
		  or diag("status $r->{status}, $n answers");
		my $m = stateless(9, 'ping');
		my $text = $json->encode($m);
		$text =~ s/^\{/{"x":[{}@{[ ',{}' x 999_999 ]}],/;
		$r = http_post($s->{url}, $text, stateless_headers($m), "Authorization: Bearer $token{a}");
		ok($r->{status} == 400 && $r->{json}{error}{code} == -32700
			  && $r->{json}{error}{data}{reason} =~ /more objects and arrays than a message may have/,
			'a message of a million {} (3 MB): -32700, too many objects and arrays') or diag($r->{status});
		note(sprintf('measured: after a batch of 1.9 million numbers and a message of a million {}: peak RSS %d MB',
				peak_rss_kb($s->{pid}) / 1024));
		victim_ok($v, 'a batch of 1.9 million numbers and a message of a million {}');
	}

	my $peak = peak_rss_kb($s->{pid}) / 1024;
	# README: 30 MB + 1 request x (max_body + 25 MB + 6 x R) + ... is about 70 MB
	ok($peak < 100, "peak RSS after the batches and messages: $peak MB (a batch is streamed: one answer at a time)");

	# memory after a burst of large answers is given back (malloc_trim)
	my @h;
	foreach my $i (1 .. 8)
	{
		my $m = stateless($i, 'tools/call',
			{ name => 'execute_sql', arguments => { sql => "select repeat('y', 900000) || $i" } });
		push @h, IPC::Run::start(
			[
				'curl', '-s', '-o', '/dev/null', '-H', 'Content-Type: application/json',
				'-H', "Authorization: Bearer $token{a}",
				(map { ('-H', $_) } stateless_headers($m)),
				'--data-binary', $json->encode($m), $s->{url}
			]);
	}
	$_->finish foreach @h;
	sleep 1;
	my $rss = server_rss($s->{pid}) / 1024;
	note(sprintf('measured: RSS after the batches and 8 large answers: %.0f MB (peak %.0f MB)', $rss, $peak));
	ok($rss < 100, "RSS comes back down after the large answers: $rss MB");
	my ($rc) = stop_server($s);
	is($rc, 0, 'SIGTERM: exit code 0');
	unlike(server_log($s), qr/\Q$token{a}\E|\Q$token{b}\E/, 'no token appears in the log');
}

# --- sessions, requests and cancels per token -------------------------------------------

$s = start_server([ '-v', '--auth-tokens', $tokens_file, '--pool-size', 4, '--max-requests', 8,
	'--max-requests-per-token', 3, $connstr ]);
{
	my $b_sid = open_session($s, $token{b});
	ok($b_sid, "tenant B opens a session");
	my $v = start_victim($s);
	sleep 1;
	# tenant A: 2,100 initialize requests on one kept-alive connection,
	# each written at once (TCP_NODELAY: no delayed-ACK stall)
	my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $s->{port}, Proto => 'tcp')
	  or die "connect: $!";
	setsockopt($sock, IPPROTO_TCP, TCP_NODELAY, 1);
	my $req_body = $json->encode($init);
	my $request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:$s->{port}\r\nContent-Type: application/json\r\n"
	  . "Accept: application/json, text/event-stream\r\nAuthorization: Bearer $token{a}\r\n"
	  . 'Content-Length: ' . length($req_body) . "\r\n\r\n$req_body";
	my (@a_sids, $ok_a);
	my $t0 = time;
	foreach my $i (1 .. 2100)
	{
		print $sock $request;
		my ($head, $len) = ('', 0);
		while (my $line = <$sock>)
		{
			last if $line eq "\r\n";
			$head .= $line;
		}
		$len = $1 if $head =~ /^Content-Length:\s*(\d+)/mi;
		read($sock, my $content, $len) if $len;
		$ok_a++ if $head =~ m{^HTTP/1.1 200};
		my ($sid_a) = $head =~ /^Mcp-Session-Id:\s*(\S+)/mi;
		push @a_sids, $sid_a;
	}
	close $sock;
	note(sprintf('measured: 2,100 initialize requests of tenant A in %.1f s', time - $t0));
	is($ok_a, 2100, "tenant A's 2,100 initialize requests are answered");
	sleep 1;
	victim_ok($v, "2,100 initialize requests of tenant A");
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	is($r->{status}, 200, "tenant B's session lives on after tenant A's 2,100 sessions");
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $a_sids[0]", "Authorization: Bearer $token{a}");
	is($r->{status}, 404, "... tenant A's own oldest session was ended instead");
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $a_sids[-65]", "Authorization: Bearer $token{a}");
	is($r->{status}, 404, "... and so was its 65th newest (--max-sessions-per-token 64)");
	# (the ping made the 64th newest the most recently used)
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $a_sids[-64]", "Authorization: Bearer $token{a}");
	is($r->{status}, 200, "... its 64 newest work");

	# more concurrent calls than --max-requests-per-token; each call lasts
	# 4 s so that the six overlap even when a loaded machine starts the
	# curl processes seconds apart (1.5 s did not, once, in CI)
	$v = start_victim($s);
	my $sleep = stateless(1, 'tools/call', { name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(4)' } });
	my @outs;
	my @hs = map {
		my $o = '';
		push @outs, \$o;
		IPC::Run::start(
			[
				'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', 'Content-Type: application/json',
				'-H', "Authorization: Bearer $token{a}",
				(map { ('-H', $_) } stateless_headers($sleep)),
				'--data-binary', $json->encode($sleep), $s->{url}
			], '>', \$o)
	} 1 .. 6;
	$_->finish foreach @hs;
	my %codes;
	$codes{$$_}++ foreach @outs;
	is($codes{200} // 0, 3, "tenant A's 6 concurrent slow calls: 3 run (--max-requests-per-token 3)")
	  or diag(join ',', %codes);
	is($codes{429} // 0, 3, '... 3 get 429');
	victim_ok($v, "tenant A's 6 concurrent slow calls");

	# a cancel for an id not in flight is dropped: a later request with that
	# id runs (the old ring kept it and cancelled the request)
	my $cancel = { jsonrpc => '2.0', method => 'notifications/cancelled', params => { requestId => 77 } };
	$r = http_post($s->{url}, $cancel, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	is($r->{status}, 202, 'a cancel for an id not in flight: 202');
	my $c77 = { jsonrpc => '2.0', id => 77, method => 'tools/call',
		params => { name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(0.3) AS slept' } } };
	$r = http_post($s->{url}, $c77, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	ok($r->{json}{result} && !$r->{json}{result}{isError},
		'... the request that later uses that id runs, not cancelled') or diag($r->{body});
	like(server_log($s), qr/cancelling request n:77 \(not running: dropped\)/, '... the log says it was dropped');
	# and a cancel after the request finished does not touch the next one
	$r = http_post($s->{url}, $cancel, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	$r = http_post($s->{url}, $c77, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	ok($r->{json}{result} && !$r->{json}{result}{isError},
		'a cancel after its request finished: the next request with the id runs');
	stop_server($s);
}

# --- slow clients: half a request header --------------------------------------------------

$s = start_server([ '-v', '--auth-tokens', $tokens_file, '--request-timeout', 4, $connstr ]);
{
	my $v = start_victim($s, from => '127.0.0.2');
	my @socks;
	foreach my $i (1 .. 64)
	{
		my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $s->{port},
			Proto => 'tcp', Timeout => 5) or last;
		print $sock "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
		push @socks, $sock;
	}
	is(scalar @socks, 64, '64 sockets each send half a request header');
	# trickle a byte now and then: libmicrohttpd's idle timeout would restart
	my $t0 = time;
	while (time - $t0 < 6)
	{
		foreach my $sock (@socks) { local $SIG{PIPE} = 'IGNORE'; print $sock 'x'; }
		sleep 1;
	}
	my $closed = 0;
	foreach my $sock (@socks)
	{
		local $SIG{PIPE} = 'IGNORE';
		$sock->blocking(0);
		my $buf;
		my $n = sysread($sock, $buf, 1);
		$closed++ if defined $n && $n == 0 || !print $sock 'x';
	}
	is($closed, 64, 'after --request-timeout (4 s), the server has closed all 64 though they kept sending');
	like(server_log($s), qr/closed \d+ connections? that sent no complete request/, '... and says so');
	victim_ok($v, '64 half-header sockets');
	# from the same address as the sockets, once they are gone
	$r = http_post($s->{url}, $b_call, stateless_headers($b_call), "Authorization: Bearer $token{b}");
	is($r->{status}, 200, 'a request from the attacking address afterwards: 200');
	close $_ foreach @socks;
	stop_server($s);
}

# --- Host and Origin ------------------------------------------------------------------------

$s = start_server([ '--auth-tokens', $tokens_file, '--allowed-host', 'mcp.example.com', $connstr ]);
{
	my @auth = ("Authorization: Bearer $token{b}", stateless_headers($b_call));
	$r = http_post($s->{url}, $b_call, @auth, 'Host: attacker.example');
	is($r->{status}, 403, 'Host: attacker.example (DNS rebinding): 403');
	$r = http_post($s->{url}, $b_call, @auth, "Host: localhost:$s->{port}");
	is($r->{status}, 200, "Host: localhost:PORT: 200");
	$r = http_post($s->{url}, $b_call, @auth, 'Host: mcp.example.com:443');
	is($r->{status}, 200, 'Host: the --allowed-host name: 200');
	$r = http_post($s->{url}, $b_call, @auth, 'Origin: http://localhost', 'Origin: https://evil.example');
	is($r->{status}, 403, 'two Origin headers, the second not allowed: 403');
	$r = http_post($s->{url}, $b_call, @auth, 'Origin: http://localhost');
	is($r->{status}, 200, 'one loopback Origin: 200');
	stop_server($s);
}

# --- SIGHUP ----------------------------------------------------------------------------------

$s = start_server([ '--auth-tokens', $tokens_file, $connstr ]);
{
	my $a_sid = open_session($s, $token{a});
	my $b_sid = open_session($s, $token{b});
	ok($a_sid && $b_sid, 'tenants A and B open sessions');
	my $v = start_victim($s);
	# revoke A's token, give tenant C one
	write_tokens(b => 'tenant_b', c => 'tenant_c');
	kill 'HUP', $s->{pid};
	my $deadline = time + 10;
	usleep(100_000) until server_log($s) =~ /reload done/ || time > $deadline;
	ok(alive($s), 'SIGHUP: the server is still running');
	like(server_log($s), qr/SIGHUP received: reloading/, '... it logs the reload');
	like(server_log($s), qr/reload done; 1 session of revoked tokens ended/, '... and that 1 session ended');
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	is($r->{status}, 200, "tenant B's session goes on");
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $a_sid", "Authorization: Bearer $token{a}");
	is($r->{status}, 401, "tenant A's revoked token: 401");
	$r = http_post($s->{url}, $b_call, stateless_headers($b_call), "Authorization: Bearer $token{c}");
	is($r->{status}, 200, "tenant C's new token works without a restart");
	# a broken file: the tokens in force stay
	open my $fh, '>', $tokens_file or die;
	print $fh "tenant_b not-a-hash\n";
	close $fh;
	kill 'HUP', $s->{pid};
	$deadline = time + 10;
	usleep(100_000) until server_log($s) =~ /reload incomplete/ || time > $deadline;
	like(server_log($s), qr/reload: token file .* line 1: .*previous tokens stay in force/,
		'a broken tokens file: the reload says so');
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $b_sid", "Authorization: Bearer $token{b}");
	is($r->{status}, 200, "... and tenant B's token and session still work");
	victim_ok($v, 'two reloads');
	my ($rc) = stop_server($s);
	is($rc, 0, 'SIGTERM after the reloads: exit code 0');
}

# --- valgrind over the new paths --------------------------------------------------------------

SKIP:
{
	skip 'valgrind is not installed', 5
	  unless system('valgrind --version >/dev/null 2>&1') == 0;
	write_tokens(a => 'tenant_a', b => 'tenant_b');
	$s = start_server(
		[ '--auth-tokens', $tokens_file, '--request-timeout', 3, '--max-sessions-per-token', 2,
		  '--max-batch-members', 5, $connstr ],
		prefix => [
			'valgrind', '--leak-check=full', '--error-exitcode=99',
			'--errors-for-leak-kinds=definite,indirect',
			'--show-leak-kinds=definite,indirect'
		],
		wait => 120);
	my @got;
	my @sids = map { open_session($s, $token{a}) } 1 .. 3;
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $sids[0]", "Authorization: Bearer $token{a}");
	push @got, $r->{status};	# ended: the token's third session took its place
	my @batch = map { { jsonrpc => '2.0', id => $_, method => 'ping' } } 1 .. 8;
	$r = http_post($s->{url}, \@batch, "Mcp-Session-Id: $sids[2]", "Authorization: Bearer $token{a}");
	push @got, scalar(grep { $_->{error} && $_->{error}{data}{limit} eq 'maxBatchMembers' } @{ $r->{json} || [] });
	my $sock = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $s->{port}, Proto => 'tcp');
	print $sock "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";
	write_tokens(b => 'tenant_b');
	kill 'HUP', $s->{pid};
	my $deadline = time + 60;
	usleep(200_000) until server_log($s) =~ /reload done/ || time > $deadline;
	$r = http_post($s->{url}, $ping, "Mcp-Session-Id: $sids[2]", "Authorization: Bearer $token{a}");
	push @got, $r->{status};	# revoked
	$r = http_post($s->{url}, $b_call, stateless_headers($b_call), "Authorization: Bearer $token{b}", 'Host: evil.example');
	push @got, $r->{status};
	$r = http_post($s->{url}, $b_call, stateless_headers($b_call), "Authorization: Bearer $token{b}");
	push @got, $r->{status};
	sleep 5;
	$sock->blocking(0);
	my $n = sysread($sock, my $buf, 1);
	push @got, defined $n && $n == 0 ? 'closed' : 'open';
	is_deeply(\@got, [ 404, 3, 401, 403, 200, 'closed' ],
		'valgrind: session quota, batch limit, reload revoking a token, Host, a slow socket closed');
	my ($vrc) = stop_server($s, 120);
	is($vrc, 0, 'valgrind: SIGTERM, exit code 0 (99 would be a valgrind error)');
	like(server_log($s), qr/ERROR SUMMARY: 0 errors/, 'valgrind: 0 errors') or diag(server_log($s));
	like(server_log($s), qr/definitely lost: 0 bytes|no leaks are possible/,
		'valgrind: nothing definitely lost');
	note(join "\n", grep { /SUMMARY|lost:|reachable:|in use at exit/ } split /\n/, server_log($s));
}

done_testing();
