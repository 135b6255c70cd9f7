# neon-ai-tools-mcp --http (issue 16), driven with curl against a real
# cluster:
#
#   - every HTTP status of src/mcp/transport/http.c: 404, 405 (Allow), 403 (Origin),
#     415, 406, 413 (Content-Length and chunked), 400 (JSON, session,
#     -32020 header mismatch incl. the =?base64?...?= form, -32022, -32602),
#     404 unknown session and -32601 unknown method, 202 notifications,
#     DELETE; resultType, serverInfo and caching hints; tool order;
#   - overload: 503 with Retry-After beyond --max-requests; what happens
#     beyond --max-connections (libmicrohttpd queues the connection);
#   - cancellation within 100 ms: a 2026-07-28 client closing its
#     connection, and notifications/cancelled over stdio (the SDK's
#     notifications/cancelled over HTTP is in 016_mcp_http_sdk.pl);
#   - a backend killed mid-call; SIGTERM with a call in flight;
#   - bearer tokens and JWTs mapped to roles, row-level security per role,
#     401s, sessions bound to their token, a read-only role's policy;
#   - TLS with a throwaway certificate; refusing non-loopback addresses
#     without authentication or TLS;
#   - valgrind over a short HTTP session.
#
# Timings measured are printed as notes ("# measured: ...").
use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex hmac_sha256);
use File::Basename qw(dirname);
use IPC::Run;
use MIME::Base64 qw(encode_base64 encode_base64url);
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
my $node = nat_node('http');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE mcp_items (id int PRIMARY KEY, name text, price numeric);
	INSERT INTO mcp_items VALUES (1, 'apple', 1.25), (2, 'pear', 2.5);
});
my $connstr = $node->connstr('postgres');

# --- raw HTTP: every status ------------------------------------------------------------

my $srv = start_server(
	[
		'--max-body', 4096, '--allow-origin', 'https://app.example.com',
		$connstr
	]);
like(server_log($srv), qr/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/,
	'the server listens on 127.0.0.1 by default');
my $url = $srv->{url};
my $ping = { jsonrpc => '2.0', id => 1, method => 'ping' };
my $r;

$r = http_post("http://127.0.0.1:$srv->{port}/other", $ping);
is($r->{status}, 404, 'another path: 404');

$r = http_request($url, method => 'GET');
is($r->{status}, 405, 'GET: 405');
like($r->{headers}{allow} // '', qr/^POST, DELETE$/, '... with Allow: POST, DELETE');
is($r->{json}{error}{code}, -32600, '... and a JSON-RPC error body without id');
$r = http_request($url, method => 'PUT', body => '{}',
	headers => ['Content-Type: application/json']);
is($r->{status}, 405, 'PUT: 405');

# Origin: a DNS-rebinding page is refused; the loopback origins and the
# listed one pass the check (and then need a session: 400)
$r = http_post($url, $ping, 'Origin: http://evil.example');
is($r->{status}, 403, 'a foreign Origin: 403');
is($r->{json}{error}{code}, -32600, '... with a JSON-RPC error body');
foreach my $origin ('http://localhost:3000', 'http://127.0.0.1',
	'https://app.example.com', 'http://[::1]:8080')
{
	$r = http_post($url, stateless(1, 'tools/list'),
		stateless_headers(stateless(1, 'tools/list')), "Origin: $origin");
	is($r->{status}, 200, "Origin $origin is allowed");
}
$r = http_post($url, $ping, 'Origin: http://localhost.evil.example');
is($r->{status}, 403, 'Origin http://localhost.evil.example: 403');
$r = http_post($url, $ping, 'Origin: https://app.example.com.evil');
is($r->{status}, 403, 'an Origin that extends the listed one: 403');

$r = http_request($url, body => $json->encode($ping),
	headers => [ 'Content-Type: text/plain', 'Accept: application/json' ]);
is($r->{status}, 415, 'Content-Type text/plain: 415');
$r = http_request($url, body => $json->encode($ping),
	headers => ['Accept: application/json']);
is($r->{status}, 415, 'no Content-Type: 415');
$r = http_request($url, body => $json->encode($ping),
	headers => [ 'Content-Type: application/json; charset=utf-8', 'Accept: text/html' ]);
is($r->{status}, 406, 'Accept: text/html: 406');

my $big = $json->encode({ jsonrpc => '2.0', id => 1, method => 'ping',
	params => { pad => 'x' x 5000 } });
$r = http_post($url, $big);
is($r->{status}, 413, 'a body over --max-body (Content-Length): 413');
$r = http_request($url, body => $big,
	headers => [ 'Content-Type: application/json', 'Transfer-Encoding: chunked' ]);
is($r->{status}, 413, 'a chunked body over --max-body: 413');
$r = http_request($url, body => substr($big, 0, 4000),
	headers => [ 'Content-Type: application/json', 'Transfer-Encoding: chunked' ]);
is($r->{status}, 400, '... a chunked body under it is read (400: not JSON)');

$r = http_post($url, '{"jsonrpc": "2.0", "id": 1, "method": ');
is($r->{status}, 400, 'unparsable JSON: 400');
is($r->{json}{error}{code}, -32700, '... -32700 parse error');

$r = http_post($url, $ping);
is($r->{status}, 400, 'no session, no 2026-07-28 _meta: 400');
like($r->{json}{error}{message}, qr/Mcp-Session-Id/, '... naming Mcp-Session-Id');
$r = http_post($url, $ping, 'Mcp-Session-Id: 0123456789abcdef0123456789abcdef');
is($r->{status}, 404, 'an unknown session: 404');

# a session of 2025-11-25: initialize, notification, call, DELETE
my $init = {
	jsonrpc => '2.0',
	id => 1,
	method => 'initialize',
	params => {
		protocolVersion => '2025-06-18',
		capabilities => {},
		clientInfo => { name => 'tap', version => '1' }
	}
};
$r = http_post($url, $init);
is($r->{status}, 200, 'initialize: 200');
my $sid = $r->{headers}{'mcp-session-id'} // '';
like($sid, qr/^[0-9a-f]{32}$/, '... with an Mcp-Session-Id of 128 random bits');
is($r->{json}{result}{protocolVersion}, '2025-06-18', '... the revision asked for');
$r = http_post($url, { jsonrpc => '2.0', method => 'notifications/initialized' },
	"Mcp-Session-Id: $sid");
is($r->{status}, 202, 'a notification: 202');
is($r->{body}, '', '... with no body');
$r = http_post($url, { %$ping, id => 2 }, "Mcp-Session-Id: $sid",
	'MCP-Protocol-Version: 2025-06-18');
ok($r->{status} == 200 && $r->{json}{id} == 2, 'a request in the session: 200');
$r = http_post($url, { %$ping, id => 3 }, "Mcp-Session-Id: $sid",
	'MCP-Protocol-Version: 1999-01-01');
is($r->{status}, 400, 'an unsupported MCP-Protocol-Version header in a session: 400');
is_deeply($r->{json}{error}{data}{supported},
	[ '2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05' ],
	'... listing the supported revisions');
$r = http_post($url, [ { %$ping, id => 4 } ], "Mcp-Session-Id: $sid");
is($r->{status}, 400, 'a batch under 2025-06-18: 400');
$r = http_request($url, method => 'DELETE', headers => ["Mcp-Session-Id: $sid"]);
is($r->{status}, 204, 'DELETE ends the session: 204');
$r = http_post($url, { %$ping, id => 5 }, "Mcp-Session-Id: $sid");
is($r->{status}, 404, '... after which it is unknown: 404');
$r = http_request($url, method => 'DELETE', headers => ["Mcp-Session-Id: $sid"]);
is($r->{status}, 404, '... and a second DELETE: 404');
$r = http_request($url, method => 'DELETE');
is($r->{status}, 400, 'DELETE without Mcp-Session-Id: 400');

# 2025-03-26 takes batches
$r = http_post($url, { %$init, params => { %{ $init->{params} }, protocolVersion => '2025-03-26' } });
my $sid0326 = $r->{headers}{'mcp-session-id'};
$r = http_post($url, [ { %$ping, id => 7 }, { %$ping, id => 8 } ],
	"Mcp-Session-Id: $sid0326");
ok($r->{status} == 200 && ref $r->{json} eq 'ARRAY' && @{ $r->{json} } == 2,
	'a batch under 2025-03-26: one answer per request');

# --- 2026-07-28: stateless -----------------------------------------------------------

my $list = stateless(10, 'tools/list');
$r = http_post($url, $list, stateless_headers($list));
is($r->{status}, 200, '2026-07-28 tools/list without a session: 200');
my $res = $r->{json}{result};
is($res->{resultType}, 'complete', '... resultType complete');
is($res->{_meta}{'io.modelcontextprotocol/serverInfo'}{name}, 'neon-ai-tools-mcp',
	'... serverInfo in _meta');
ok(defined $res->{ttlMs} && $res->{ttlMs} =~ /^\d+$/, '... ttlMs, an integer >= 0');
is($res->{cacheScope}, 'public', '... cacheScope public (no authentication)');
ok(!exists $r->{headers}{'mcp-session-id'}, '... and no session id');
my @order = map { $_->{name} } @{ $res->{tools} };
is_deeply(
	[ sort @order ],
	[
		sort qw(select_query insert_data update_data delete_data execute_sql
		  explain_query list_tables describe_table)
	],
	'tools/list lists the eight tools');
$r = http_post($url, $list, stateless_headers($list),
	'Mcp-Session-Id: 0123456789abcdef0123456789abcdef');
is($r->{status}, 200, 'an Mcp-Session-Id on a 2026-07-28 request is ignored');
is_deeply([ map { $_->{name} } @{ $r->{json}{result}{tools} } ], \@order,
	'tools/list twice: the same order');

my $discover = stateless(11, 'server/discover');
$r = http_post($url, $discover, stateless_headers($discover));
$res = $r->{json}{result};
ok($r->{status} == 200 && $res->{resultType} eq 'complete',
	'server/discover: 200, resultType complete');
ok((grep { $_ eq '2026-07-28' } @{ $res->{supportedVersions} || [] }),
	'... supportedVersions has 2026-07-28');
ok(ref $res->{capabilities}{tools} eq 'HASH', '... capabilities.tools');
ok(defined $res->{ttlMs} && $res->{cacheScope} eq 'public', '... ttlMs and cacheScope');
is($res->{_meta}{'io.modelcontextprotocol/serverInfo'}{name}, 'neon-ai-tools-mcp',
	'... serverInfo in _meta');

my $call = stateless(12, 'tools/call',
	{ name => 'select_query', arguments => { table => 'mcp_items', where => { id => 2 } } });
$r = http_post($url, $call, stateless_headers($call));
ok($r->{status} == 200 && $r->{json}{result}{structuredContent}{data}[0]{name} eq 'pear',
	'2026-07-28 tools/call: 200 with the rows');
is($r->{json}{result}{resultType}, 'complete', '... resultType complete');

$r = http_post($url, $call, 'Mcp-Method: tools/call', 'Mcp-Name: select_query');
is($r->{status}, 400, 'no MCP-Protocol-Version header: 400');
is($r->{json}{error}{code}, -32020, '... -32020 header mismatch');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2025-11-25',
	'Mcp-Method: tools/call', 'Mcp-Name: select_query');
is($r->{json}{error}{code}, -32020,
	'MCP-Protocol-Version differs from _meta: -32020');
is($r->{status}, 400, '... 400');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2026-07-28',
	'Mcp-Method: tools/list', 'Mcp-Name: select_query');
ok($r->{status} == 400 && $r->{json}{error}{code} == -32020,
	'Mcp-Method differs from the body: 400, -32020');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2026-07-28',
	'Mcp-Method: tools/call');
ok($r->{status} == 400 && $r->{json}{error}{code} == -32020,
	'no Mcp-Name on tools/call: 400, -32020');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2026-07-28',
	'Mcp-Method: tools/call', 'Mcp-Name: insert_data');
ok($r->{status} == 400 && $r->{json}{error}{code} == -32020,
	'Mcp-Name differs from params.name: 400, -32020');
is($r->{json}{id}, 12, '... the error carries the request id (JSON-RPC 2.0)');
my $b64 = encode_base64('select_query', '');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2026-07-28',
	'Mcp-Method: tools/call', "Mcp-Name: =?base64?$b64?=");
is($r->{status}, 200, 'Mcp-Name in its =?base64?...?= form, matching: 200');
$b64 = encode_base64('select_querx', '');
$r = http_post($url, $call, 'MCP-Protocol-Version: 2026-07-28',
	'Mcp-Method: tools/call', "Mcp-Name: =?base64?$b64?=");
ok($r->{status} == 400 && $r->{json}{error}{code} == -32020,
	'... not matching: 400, -32020');

my $old = stateless(13, 'tools/list');
$old->{params}{_meta}{'io.modelcontextprotocol/protocolVersion'} = '1900-01-01';
$r = http_post($url, $old, 'MCP-Protocol-Version: 1900-01-01', 'Mcp-Method: tools/list');
is($r->{status}, 400, 'an unsupported revision: 400');
is($r->{json}{error}{code}, -32022, '... -32022');
ok((grep { $_ eq '2026-07-28' } @{ $r->{json}{error}{data}{supported} || [] })
	  && $r->{json}{error}{data}{requested} eq '1900-01-01',
	'... data.supported lists 2026-07-28, data.requested the one asked for');

my $nocap = stateless(14, 'tools/list');
delete $nocap->{params}{_meta}{'io.modelcontextprotocol/clientCapabilities'};
$r = http_post($url, $nocap, stateless_headers($nocap));
ok($r->{status} == 400 && $r->{json}{error}{code} == -32602,
	'no clientCapabilities in _meta: 400, -32602');

my $unknown = stateless(15, 'tools/frobnicate');
$r = http_post($url, $unknown, stateless_headers($unknown));
ok($r->{status} == 404 && $r->{json}{error}{code} == -32601,
	'an unknown method under 2026-07-28: 404, -32601');

my $note = stateless(undef, 'notifications/initialized');
$r = http_post($url, $note, stateless_headers($note));
ok($r->{status} == 202 && $r->{body} eq '', 'a 2026-07-28 notification: 202, no body');

# SSE: a tools/call asking for progress gets a stream
my $slow = stateless(16, 'tools/call',
	{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(1.5)' } });
$slow->{params}{_meta}{progressToken} = 'p1';
$r = http_post($url, $slow, stateless_headers($slow));
like($r->{headers}{'content-type'} // '', qr{^text/event-stream},
	'a call with a progressToken: an SSE stream');
my @events = map { $json->decode($_) } ($r->{body} =~ /^data: (.*)$/mg);
ok(@events >= 2 && $events[0]{method} eq 'notifications/progress'
	  && $events[-1]{id} == 16 && $events[-1]{result}{structuredContent}{success},
	'... progress notifications, then the answer');

# --- overload: --max-requests and --max-connections ----------------------------------------------
#
# More requests in progress than --max-requests: 503 with Retry-After.
{
	my $s3 = start_server([ '--max-requests', 2, $connstr ]);
	my $sleep = stateless(1, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(2)' } });
	my @h = map {
		IPC::Run::start(
			[
				'curl', '-s', '-o', '/dev/null', '-H', 'Content-Type: application/json',
				(map { ('-H', $_) } stateless_headers($sleep)),
				'--data-binary', $json->encode($sleep), $s3->{url}
			])
	} 1 .. 2;
	$node->poll_query_until('postgres',
		q{SELECT count(*) = 2 FROM pg_stat_activity WHERE wait_event = 'PgSleep'})
	  or die 'the calls never started';
	$r = http_post($s3->{url}, $call, stateless_headers($call));
	is($r->{status}, 503, '--max-requests 2, a third request while two run: 503');
	like($r->{headers}{'retry-after'} // '', qr/^\d+$/, '... with Retry-After');
	is($r->{json}{error}{code}, -32603, '... and a JSON-RPC error');
	$_->finish foreach @h;
	$r = http_post($s3->{url}, $call, stateless_headers($call));
	is($r->{status}, 200, '... once they ended, requests are served again');
	stop_server($s3);
}

# libmicrohttpd stops accepting at its connection limit: a client beyond
# --max-connections waits in the listen backlog and is served when a
# connection frees (no status: it is not read until then).
{
	my $s2 = start_server([ '--max-connections', 2, '--max-requests', 8, $connstr ]);
	my @clients;
	my $sleep = stateless(1, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(2)' } });
	my @args = ('curl', '-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}',
		'-H', 'Content-Type: application/json',
		(map { ('-H', $_) } stateless_headers($sleep)),
		'--data-binary', $json->encode($sleep), $s2->{url});
	foreach my $i (0 .. 2)
	{
		my $out = '';
		push @clients, { out => \$out, h => IPC::Run::start(\@args, '>', \$out) };
		usleep(300_000) if $i == 1;
	}
	$_->{h}->finish foreach @clients;
	my @res = map { [ split / /, ${ $_->{out} } ] } @clients;
	note(sprintf('measured: --max-connections 2, three 2 s calls: %s',
			join(', ', map { "$_->[0] in $_->[1] s" } @res)));
	ok(!(grep { $_->[0] ne '200' } @res),
		'--max-connections 2, three slow calls at once: all three answer 200');
	my @times = sort { $a <=> $b } map { $_->[1] } @res;
	ok($times[1] < 3.2 && $times[2] >= 3.2,
		'... two ran at once, the third only after one of them ended (it waited)');
	unlike(server_log($s2), qr/status=503/, '... and no 503 was sent');
	my ($rc) = stop_server($s2);
	is($rc, 0, '... the server stops with exit code 0');
}

# --- cancellation within 100 ms ----------------------------------------------------------
#
# The time from the cancel (the client's connection closed, or the
# notification written) to the backend leaving the active state, as a
# watcher session on the server sees it.

# (b) 2026-07-28: the client closes its connection, while waiting for a
# JSON answer (db.c watches the socket) or reading an SSE stream (http.c's
# stream ends)
foreach my $sse (0, 1)
{
	my $label = $sse ? 'an SSE stream' : 'a JSON answer';
	my $watch = idle_watch($node);
	my $m = stateless(20, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(30)' } });
	$m->{params}{_meta}{progressToken} = 'p20' if $sse;
	my $out = '';
	my $curl = IPC::Run::start(
		[
			'curl', '-s', '-N', '-H', 'Content-Type: application/json',
			'-H', 'Accept: application/json, text/event-stream',
			(map { ('-H', $_) } stateless_headers($m)),
			'--data-binary', $json->encode($m), $url
		],
		'>', \$out);
	ok(defined idle_watch_result($watch, 'sleeping'), "closed connection ($label): the call is running");
	# an SSE stream has begun: the first progress notification came
	if ($sse)
	{
		my $deadline = time + 10;
		$curl->pump_nb while $out !~ /notifications\/progress/ && time < $deadline;
		like($out, qr/notifications\/progress/, '... its stream sends progress');
	}
	my $t0 = time;
	$curl->kill_kill;
	my ($idle, $state) = idle_watch_result($watch, 'idle');
	my $ms = defined $idle ? ($idle - $t0) * 1000 : 1e9;
	note(sprintf('measured: connection closed (%s) -> backend %s in %.1f ms', $label, $state // '?', $ms));
	cmp_ok($ms, '<', 100,
		"2026-07-28, the client closes its connection ($label): the backend is idle within 100 ms");
	is($state, 'idle', '... idle (not idle in transaction)');
}

# --- a backend killed mid-call -----------------------------------------------------------------

{
	my $watch = idle_watch($node);
	my $m = stateless(30, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(30)' } });
	my $out = '';
	my $curl = IPC::Run::start(
		[
			'curl', '-s', '-H', 'Content-Type: application/json',
			(map { ('-H', $_) } stateless_headers($m)),
			'--data-binary', $json->encode($m), $url
		],
		'>', \$out);
	my $pid = idle_watch_result($watch, 'sleeping');
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	$curl->finish;
	idle_watch_result($watch, 'idle');
	my $a = eval { $json->decode($out) } || {};
	my $sc = $a->{result}{structuredContent} || {};
	is($sc->{errorType}, 'connection_error',
		'a backend terminated during a call: connection_error');
	like($sc->{suggestion} // '', qr/may or may not have taken effect/,
		'... saying the call may or may not have run (it is not repeated)');
	my $count = $node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()});
	is($count, 0, '... and it did not run again');
	$r = http_post($url, $call, stateless_headers($call));
	ok($r->{status} == 200 && $r->{json}{result}{structuredContent}{success},
		'... the next call works');
}

my ($rc) = stop_server($srv);
is($rc, 0, 'SIGTERM: exit code 0');
# (the killed backend above is logged as a warning: expected)
unlike(server_log($srv), qr/\berror:/i, 'the server logged no error')
  or diag(server_log($srv));

# (c) stdio: notifications/cancelled while the call runs
{
	my ($in, $out, $err) = ('', '', '');
	my $h;
	{
		delete local $ENV{PGAPPNAME};
		$h = IPC::Run::start([ mcp_program(), $connstr ],
			'<', \$in, '>', \$out, '2>', \$err, IPC::Run::timeout(120));
	}
	$in .= $json->encode($init) . "\n"
	  . $json->encode({ jsonrpc => '2.0', method => 'notifications/initialized' }) . "\n";
	# The best of up to three tries: on a machine busy with other suites
	# the scheduler alone can delay a backend by more than 100 ms.
	my ($best, @tries);
	my $answer;
	for my $try (1 .. 3)
	{
		my $id = "sleep$try";
		my $watch = idle_watch($node);
		$in .= $json->encode({ jsonrpc => '2.0', id => $id, method => 'tools/call',
			params => { name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(30)' } } })
		  . "\n";
		$h->pump_nb while length $in;
		my $running = defined idle_watch_result($watch, 'sleeping');
		ok($running, 'stdio: the call is running') if $try == 1;
		$in .= $json->encode({ jsonrpc => '2.0', method => 'notifications/cancelled',
			params => { requestId => $id, reason => 'test' } }) . "\n";
		my $t0 = time;
		$h->pump_nb while length $in;
		my ($idle, $state) = idle_watch_result($watch, 'idle');
		my $ms = defined $idle ? ($idle - $t0) * 1000 : 1e9;
		push @tries, sprintf('%.1f ms (%s)', $ms, $state // '?');
		$h->pump until $out =~ /"$id"/ || !$h->pumpable;
		($answer) = grep { $_->{id} && $_->{id} eq $id }
		  map { eval { $json->decode($_) } || () } split /\n/, $out;
		$best = $ms if !defined $best || $ms < $best;
		last if $ms < 100;
	}
	note('measured: stdio notifications/cancelled -> backend idle in ' . join(', ', @tries));
	cmp_ok($best, '<', 100, 'stdio, notifications/cancelled: the backend is idle within 100 ms');
	is($answer->{result}{structuredContent}{errorType}, 'cancelled',
		'... and the answer says errorType cancelled');
	$in .= $json->encode({ jsonrpc => '2.0', id => 9, method => 'tools/call',
		params => { name => 'execute_sql', arguments => { sql => 'SELECT 41 + 1 AS n' } } }) . "\n";
	$h->pump until $out =~ /"id":9/ || !$h->pumpable;
	like($out, qr/\\"n\\": 42/, '... the next call works');
	$h->close_stdin if $h->can('close_stdin');
	$in = undef;
	$h->finish;
	is($? >> 8, 0, '... and the session ends with exit code 0');
}

# (d) stdio: the main thread reads standard input itself; while a
# statement runs it watches standard input for cancellations and keeps the
# other messages, in order, for after the answer (src/mcp/transport/stdio.c).
{
	my $start = sub {
		my ($in, $out, $err) = @_;
		delete local $ENV{PGAPPNAME};
		return IPC::Run::start([ mcp_program(), '-v', $connstr ],
			'<', $in, '>', $out, '2>', $err, IPC::Run::timeout(120));
	};
	my $call = sub {
		my ($id, $sql) = @_;
		return $json->encode({ jsonrpc => '2.0', id => $id, method => 'tools/call',
			params => { name => 'execute_sql', arguments => { sql => $sql } } }) . "\n";
	};
	my $cancel = sub {
		return $json->encode({ jsonrpc => '2.0', method => 'notifications/cancelled',
			params => { requestId => $_[0], reason => 'test' } }) . "\n";
	};
	my $ping = sub { return $json->encode({ jsonrpc => '2.0', id => $_[0], method => 'ping' }) . "\n" };
	my $hello = $json->encode($init) . "\n"
	  . $json->encode({ jsonrpc => '2.0', method => 'notifications/initialized' }) . "\n";
	my $decode = sub { map { eval { $json->decode($_) } || () } split /\n/, $_[0] };

	# issue 30: a cancellation that arrives after its request ended is
	# dropped, not kept for a later request that reuses the id
	{
		my ($in, $out, $err) = ($hello . $call->('r1', 'SELECT 1 AS one'), '', '');
		my $h = $start->(\$in, \$out, \$err);
		$h->pump until $out =~ /"r1"/ || !$h->pumpable;
		$in .= $cancel->('r1');
		$in .= $ping->('p1');
		$h->pump until $out =~ /"p1"/ || !$h->pumpable;
		$in .= $call->('r1', 'SELECT pg_sleep(0.2) AS slept');
		$h->pump until ($out =~ tr/\n//) >= 4 || !$h->pumpable;
		my @r1 = grep { ($_->{id} // '') eq 'r1' } $decode->($out);
		ok(@r1 == 2 && !$r1[1]{result}{isError},
			'stdio: a cancellation after its request ended does not cancel a later request with that id')
		  or diag($out);
		$h->close_stdin if $h->can('close_stdin');
		$in = undef;
		$h->finish;
	}

	# a request and its cancellation in one write: both are in the
	# program's buffer before the statement starts
	my ($in, $out, $err) = ($hello . $call->('s1', 'SELECT pg_sleep(30)') . $cancel->('s1'), '', '');
	my $t0 = time;
	my $h = $start->(\$in, \$out, \$err);
	$h->pump until $out =~ /"s1"/ || !$h->pumpable;
	my ($a1) = grep { ($_->{id} // '') eq 's1' } $decode->($out);
	is($a1->{result}{structuredContent}{errorType}, 'cancelled',
		'stdio: a cancellation written together with its request cancels it');
	cmp_ok(time - $t0, '<', 10, '... at once, not after the 30 s statement');

	# while a call runs: three pings, an over-long line and a
	# cancellation behind them; the cancellation is applied at once, the
	# rest answered in order after the call
	$out = '';
	my $watch = idle_watch($node);
	$in .= $call->('s2', 'SELECT pg_sleep(30)');
	$h->pump_nb while length $in;
	ok(defined idle_watch_result($watch, 'sleeping'), 'stdio: the second call is running');
	my $big = '{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"'
	  . ('x' x (5 * 1024 * 1024)) . '"}}' . "\n";
	$in .= $ping->('p1') . $ping->('p2') . $big . $ping->('p3') . $cancel->('s2');
	$t0 = time;
	$h->pump_nb while length $in;
	my ($idle) = idle_watch_result($watch, 'idle');
	my $ms = defined $idle ? ($idle - $t0) * 1000 : 1e9;
	note(sprintf('measured: stdio cancellation behind 4 messages and 5 MiB -> idle in %.1f ms', $ms));
	cmp_ok($ms, '<', 2000, '... a cancellation behind other messages and 5 MiB is applied at once');
	$h->pump until $out =~ /"p3"/ || !$h->pumpable;
	my @got = $decode->($out);
	is_deeply([ map { $_->{id} // 'null' } @got ], [ 's2', 'p1', 'p2', 'null', 'p3' ],
		'... then every message read meanwhile is answered, in order');
	is($got[0]{result}{structuredContent}{errorType}, 'cancelled', '... the call was cancelled');
	is($got[3]{error}{code}, -32600, '... the 5 MiB line read during the call gets -32600');

	# more messages during a call than the program keeps (64): the rest
	# wait in the pipe, and all are answered in order
	$out = '';
	$in .= $call->('s3', 'SELECT pg_sleep(1)') . join('', map { $ping->("f$_") } 1 .. 300);
	$h->pump until $out =~ /"f300"/ || !$h->pumpable;
	@got = $decode->($out);
	is_deeply([ map { $_->{id} } @got ], [ 's3', map { "f$_" } 1 .. 300 ],
		'stdio: 300 messages sent during a call are all answered after it, in order');
	ok($got[0]{result}{structuredContent}{success}, '... and the call itself succeeded');

	# a cancellation right behind the 64 messages the program keeps
	$out = '';
	$watch = idle_watch($node);
	$in .= $call->('s5', 'SELECT pg_sleep(30)');
	$h->pump_nb while length $in;
	ok(defined idle_watch_result($watch, 'sleeping'), 'stdio: a fourth call is running');
	$in .= join('', map { $ping->("q$_") } 1 .. 64) . $cancel->('s5');
	$t0 = time;
	$h->pump_nb while length $in;
	($idle) = idle_watch_result($watch, 'idle');
	$ms = defined $idle ? ($idle - $t0) * 1000 : 1e9;
	cmp_ok($ms, '<', 2000, '... a cancellation behind 64 messages is applied at once');
	$h->pump until $out =~ /"q64"/ || !$h->pumpable;
	@got = $decode->($out);
	is_deeply([ map { $_->{id} } @got ], [ 's5', map { "q$_" } 1 .. 64 ],
		'... and the 64 messages are answered after the call, in order');
	is($got[0]{result}{structuredContent}{errorType}, 'cancelled', '... the call was cancelled');

	# a line ended by CRLF, and a last line without a newline
	$out = '';
	$in .= $ping->('crlf') =~ s/\n$/\r\n/r . $json->encode({ jsonrpc => '2.0', id => 'last', method => 'ping' });
	$h->pump_nb while length $in;
	$h->close_stdin if $h->can('close_stdin');
	$in = undef;
	$h->finish;
	is_deeply([ map { $_->{id} } $decode->($out) ], [ 'crlf', 'last' ],
		'stdio: a CRLF line and a last line without newline are answered');
	is($? >> 8, 0, '... and the end of input ends the session with exit code 0');

	# SIGTERM while waiting for input, and while a call runs
	($in, $out, $err) = ($hello . $ping->('w'), '', '');
	$h = $start->(\$in, \$out, \$err);
	$h->pump until $out =~ /"w"/ || !$h->pumpable;
	$t0 = time;
	$h->signal('TERM');
	# the program's own exit, before finish() closes its input: on a loaded
	# machine the end of input could otherwise be seen first
	my $exited = IPC::Run::timer(5);
	$exited->start;
	while ($err !~ /SIGTERM received/ && !$exited->is_expired)
	{
		last unless eval { $h->pump_nb; 1 };
		select(undef, undef, undef, 0.02);
	}
	$h->finish;
	is($? >> 8, 0, 'stdio: SIGTERM while waiting for input: exit code 0');
	cmp_ok(time - $t0, '<', 5, '... at once');
	like($err, qr/SIGTERM received/, '... as the log says');

	($in, $out, $err) = ($hello . $call->('s4', 'SELECT pg_sleep(30)') . $ping->('after'), '', '');
	$watch = idle_watch($node);
	$h = $start->(\$in, \$out, \$err);
	$h->pump_nb while length $in;
	ok(defined idle_watch_result($watch, 'sleeping'), 'stdio: a call is running');
	$t0 = time;
	$h->signal('TERM');
	$h->finish;
	idle_watch_result($watch, 'idle');
	@got = $decode->($out);
	is($? >> 8, 0, 'stdio: SIGTERM during a call: exit code 0');
	cmp_ok(time - $t0, '<', 10, '... at once, not after the 30 s statement');
	is_deeply([ map { $_->{id} } grep { defined $_->{id} && $_->{id} ne 1 } @got ], ['s4'],
		'... the call is answered, the message behind it is not');
	is($got[-1]{result}{structuredContent}{errorType}, 'cancelled', '... and it says cancelled');
}

# --- bearer tokens, roles, row-level security ----------------------------------------------

$node->safe_psql(
	'postgres', q{
	CREATE ROLE authenticator LOGIN NOINHERIT;
	CREATE ROLE agent_a NOLOGIN;
	CREATE ROLE agent_b NOLOGIN;
	CREATE ROLE agent_ro NOLOGIN;
	CREATE ROLE agent_out NOLOGIN;
	GRANT agent_a, agent_b, agent_ro TO authenticator;
	CREATE ROLE agent_su NOLOGIN SUPERUSER;
	CREATE ROLE agent_bypass NOLOGIN BYPASSRLS;
	GRANT agent_su, agent_bypass TO authenticator;
	CREATE TABLE notes (id int PRIMARY KEY, owner name NOT NULL DEFAULT current_user, body text);
	ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
	CREATE POLICY own ON notes USING (owner = current_user) WITH CHECK (owner = current_user);
	GRANT SELECT, INSERT ON notes TO agent_a, agent_b, agent_ro, agent_out;
	INSERT INTO notes VALUES (1, 'agent_a', 'a1'), (2, 'agent_a', 'a2'),
		(3, 'agent_b', 'b1'), (4, 'agent_ro', 'r1');
	ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
});

my %token = map { $_ => "tok-$_-" . sha256_hex(rand() . $$ . $_) } qw(agent_a agent_b agent_ro agent_out nobody);
my $tokens_file = "$tmp/tokens";
open my $fh, '>', $tokens_file or die;
print $fh "# role sha256(token)\n";
print $fh "$_ " . sha256_hex($token{$_}) . "\n" foreach qw(agent_a agent_b agent_ro agent_out);
print $fh "no_such_role " . sha256_hex($token{nobody}) . "\n";
close $fh;
chmod 0600, $tokens_file;
my $secret = 'jwt-secret-' . sha256_hex(rand() . $$);
my $secret_file = "$tmp/jwt-secret";
open $fh, '>', $secret_file or die;
print $fh "$secret\n";
close $fh;
chmod 0600, $secret_file;

# an HS256 JWT with these claims
sub jwt
{
	my (%claims) = @_;
	my $h = encode_base64url($json->encode({ alg => 'HS256', typ => 'JWT' }));
	my $p = encode_base64url($json->encode(\%claims));
	return "$h.$p." . encode_base64url(hmac_sha256("$h.$p", $secret));
}

my $auth_args = [ '--auth-tokens', $tokens_file, '--jwt-secret-file', $secret_file,
	$connstr . ' user=authenticator' ];

# the rows of notes a bearer sees through select_query (undef: refused)
sub notes_seen
{
	my ($url_, $bearer) = @_;
	my $m = stateless(1, 'tools/call',
		{ name => 'select_query', arguments => { table => 'notes', columns => ['id'], order_by => 'id' } });
	my $res_ = http_post($url_, $m, stateless_headers($m), "Authorization: Bearer $bearer");
	return $res_ if $res_->{status} != 200;
	return join(',', map { $_->{id} } @{ $res_->{json}{result}{structuredContent}{data} || [] });
}

{
	# one pool connection: every role's calls share one backend, so a
	# policy that stuck to the backend instead of the role would show
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my $resource = "http://127.0.0.1:$port/mcp";
	my $s = start_server(
		[
			'--pool-size', 1, '--resource-url', $resource,
			'--authorization-server', 'https://auth.example.com', @$auth_args
		],
		port => $port);
	my $u = $s->{url};
	like(server_log($s), qr/bearer tokens required/, 'with --auth-tokens: tokens are required');
	is(notes_seen($u, $token{agent_a}), '1,2', "agent_a's token: select_query sees agent_a's rows only");
	is(notes_seen($u, $token{agent_b}), '3', "agent_b's token: the same call sees agent_b's rows only");
	my $m = stateless(1, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT current_user AS u, session_user AS s' } });
	$r = http_post($u, $m, stateless_headers($m), "Authorization: Bearer $token{agent_a}");
	is_deeply($r->{json}{result}{structuredContent}{data}, [ { u => 'agent_a', s => 'authenticator' } ],
		'... the call runs as the role, on the authenticator\'s connection');
	# with an authorization server, a JWT must name this resource in aud
	my $jwt_b = jwt(role => 'agent_b', aud => $resource, exp => int(time) + 300);
	$r = notes_seen($u, $jwt_b);
	is($r, '3', 'an HS256 JWT with role agent_b: agent_b\'s rows')
	  or diag("JWT $jwt_b: ", ref $r ? "$r->{status} $r->{headers}{'www-authenticate'}" : $r);
	$r = notes_seen($u, jwt(role => 'agent_b', exp => int(time) + 300));
	ok(ref $r && $r->{status} == 401
		  && $r->{headers}{'www-authenticate'} =~ /error="invalid_token".*audience/,
		'a JWT without aud: 401, not issued for this server');
	$r = notes_seen($u, jwt(role => 'agent_b', aud => 'https://other.example/mcp', exp => int(time) + 300));
	ok(ref $r && $r->{status} == 401, 'a JWT for another audience: 401');
	$r = notes_seen($u, jwt(role => 'agent_a', aud => $resource, exp => int(time) - 3600));
	is($r->{status}, 401, 'an expired JWT: 401');
	like($r->{headers}{'www-authenticate'} // '', qr/^Bearer\b.*error="invalid_token"/,
		'... WWW-Authenticate: Bearer error="invalid_token"');
	$r = notes_seen($u, jwt(role => 'agent_a', aud => $resource, exp => int(time) + 300) . 'x');
	is($r->{status}, 401, 'a JWT with a bad signature: 401');

	$r = http_post($u, $list, stateless_headers($list));
	is($r->{status}, 401, 'no token: 401');
	like($r->{headers}{'www-authenticate'} // '', qr/^Bearer\b/, '... with WWW-Authenticate: Bearer');
	my $metadata = "http://127.0.0.1:$port/.well-known/oauth-protected-resource/mcp";
	like($r->{headers}{'www-authenticate'} // '', qr/resource_metadata="\Q$metadata\E"/,
		'... naming the protected-resource metadata (RFC 9728)');
	$r = http_request($metadata, method => 'GET');
	ok($r->{status} == 200 && $r->{json}{resource} eq $resource
		  && $r->{json}{authorization_servers}[0] eq 'https://auth.example.com',
		'GET the metadata, without a token: the resource and its authorization server')
	  or diag($r->{body});
	$r = http_request("http://127.0.0.1:$port/.well-known/oauth-protected-resource", method => 'GET');
	ok($r->{status} == 200 && $r->{json}{resource} eq $resource, '... also at the root path');
	$r = http_post($u, $list, stateless_headers($list), "Authorization: Bearer $token{agent_a}",
		"Authorization: Bearer $token{agent_b}");
	is($r->{status}, 400, 'two Authorization headers: 400');
	$r = http_post($u, $list, stateless_headers($list), 'Authorization: Bearer not-a-token');
	is($r->{status}, 401, 'a wrong token: 401');
	like($r->{headers}{'www-authenticate'} // '', qr/error="invalid_token"/, '... error="invalid_token"');

	my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM notes');
	my $ins = stateless(1, 'tools/call',
		{ name => 'insert_data', arguments => { table => 'notes', rows => { id => 50, body => 'x' } } });
	foreach my $who ([ 'agent_out', 'a role not granted to the authenticator' ],
		[ 'nobody', 'a role that does not exist' ])
	{
		$r = http_post($u, $ins, stateless_headers($ins), "Authorization: Bearer $token{$who->[0]}");
		is($r->{status}, 403, "a token for $who->[1]: 403 (issue 30: checked before anything runs)");
		is($r->{json}{error}{code}, -32600, '... with a JSON-RPC error');
	}
	like(server_log($s), qr/token file, line \d+: role "agent_out" is refused: it is not granted to the login role/,
		'at start, the log names the tokens-file line whose role is not granted');
	like(server_log($s), qr/token file, line \d+: role "no_such_role" is refused: it does not exist/,
		'... and the line whose role does not exist');
	# issue 30: roles no token may name, whoever signed it
	foreach my $who ([ 'none', 'none (the login role)' ], [ 'NONE', 'NONE' ],
		[ 'authenticator', 'the login role itself' ], [ 'agent_su', 'a superuser' ],
		[ 'agent_bypass', 'a role with BYPASSRLS' ])
	{
		$r = http_post($u, $ins, stateless_headers($ins),
			"Authorization: Bearer " . jwt(role => $who->[0], aud => $resource, exp => int(time) + 300));
		is($r->{status}, 403, "a JWT naming $who->[1]: 403");
	}
	my $log = server_log($s);
	like($log, qr/request refused: the token's role "none" means the login role/, '... the log says why: "none"');
	like($log, qr/role "authenticator" is the login role/, '... the login role');
	like($log, qr/role "agent_su" is a superuser/, '... a superuser');
	like($log, qr/role "agent_bypass" has BYPASSRLS/, '... BYPASSRLS');
	# issue 30: a JWT with a claim twice (json-c would keep the last)
	{
		my $h = encode_base64url($json->encode({ alg => 'HS256', typ => 'JWT' }));
		my $exp = int(time) + 300;
		foreach my $p (qq({"role":"agent_ro","aud":"$resource","exp":$exp,"role":"agent_a"}),
			qq({"role":"agent_ro","aud":"$resource","exp":$exp,"r\\u006fle":"agent_a"}))
		{
			my $b = encode_base64url($p);
			my $t = "$h.$b." . encode_base64url(hmac_sha256("$h.$b", $secret));
			$r = http_post($u, $ins, stateless_headers($ins), "Authorization: Bearer $t");
			ok($r->{status} == 401 && ($r->{headers}{'www-authenticate'} // '') =~ /claim twice/,
				"a JWT whose payload has the role claim twice ($p): 401") or diag($r->{status});
		}
	}
	is($node->safe_psql('postgres', 'SELECT count(*) FROM notes'), $before, '... and nothing ran');

	$r = http_post($u, $list, stateless_headers($list), "Authorization: Bearer $token{agent_a}");
	is($r->{json}{result}{cacheScope}, 'private',
		'tools/list with authentication: cacheScope private (the list depends on the role)');

	# sessions belong to their token
	$r = http_post($u, $init, "Authorization: Bearer $token{agent_a}");
	my $asid = $r->{headers}{'mcp-session-id'};
	ok($r->{status} == 200 && $asid, "a session made with agent_a's token");
	$r = http_post($u, { %$ping, id => 2 }, "Mcp-Session-Id: $asid", "Authorization: Bearer $token{agent_b}");
	is($r->{status}, 404, "... used with agent_b's token: 404");
	$r = http_request($u, method => 'DELETE',
		headers => [ "Mcp-Session-Id: $asid", "Authorization: Bearer $token{agent_b}" ]);
	is($r->{status}, 404, "... agent_b cannot DELETE it either");
	$r = http_post($u, { %$ping, id => 3 }, "Mcp-Session-Id: $asid", "Authorization: Bearer $token{agent_a}");
	is($r->{status}, 200, '... and it still works with agent_a\'s token');
	# issue 30: a session belongs to the token, not to its role
	$r = http_post($u, { %$ping, id => 4 }, "Mcp-Session-Id: $asid",
		"Authorization: Bearer " . jwt(role => 'agent_a', aud => $resource, exp => int(time) + 300));
	is($r->{status}, 404, "... a JWT for the same role agent_a cannot use it: 404");
	# issue 30: a second initialize carrying the session's id is -32600
	$r = http_post($u, $init, "Mcp-Session-Id: $asid", "Authorization: Bearer $token{agent_a}");
	ok($r->{status} == 400 && $r->{json}{error}{code} == -32600 && !$r->{headers}{'mcp-session-id'},
		'initialize with an Mcp-Session-Id: 400, -32600, no new session') or diag($r->{body});
	$r = http_post($u, { %$ping, id => 5 }, "Mcp-Session-Id: $asid", "Authorization: Bearer $token{agent_a}");
	is($r->{status}, 200, '... and the session is still there');

	# A read-only role's policy holds under SET ROLE, on a backend that
	# served agent_a before; and it does not stick to the backend after.
	my $ro = stateless(1, 'tools/call',
		{ name => 'insert_data', arguments => { table => 'notes', rows => { id => 60, body => 'ro' } } });
	$r = http_post($u, $ro, stateless_headers($ro), "Authorization: Bearer $token{agent_ro}");
	my $sc = $r->{json}{result}{structuredContent} || {};
	ok(!$sc->{success} && ($sc->{errorType} // '') =~ /^(?:tool_disabled|read_only_violation)$/,
		"agent_ro (ALTER ROLE ... SET neon_ai_tools.read_only = on): insert_data is refused over HTTP")
	  or diag($r->{body});
	like($sc->{suggestion} // '', qr/read_only/, '... naming neon_ai_tools.read_only');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM notes WHERE id = 60'), 0,
		'... and nothing was written');
	$node->safe_psql('postgres', 'DELETE FROM notes WHERE id = 60');
	is(notes_seen($u, $token{agent_ro}), '4', "agent_ro reads its rows");
	my $aw = stateless(1, 'tools/call',
		{ name => 'insert_data', arguments => { table => 'notes', rows => { id => 61, body => 'a' } } });
	$r = http_post($u, $aw, stateless_headers($aw), "Authorization: Bearer $token{agent_a}");
	ok($r->{json}{result}{structuredContent}{success},
		"agent_a writes on the same backend after agent_ro's calls") or diag($r->{body});
	$node->safe_psql('postgres', 'DELETE FROM notes WHERE id = 61');
	# issue 30: SIGHUP rotates the JWT secret without a restart
	{
		my $old_secret = $secret;
		my $old_jwt = jwt(role => 'agent_b', aud => $resource, exp => int(time) + 300);
		$secret = 'jwt-secret-' . sha256_hex(rand() . $$ . 'rotated');
		open my $sfh, '>', $secret_file or die;
		print $sfh "$secret\n";
		close $sfh;
		kill 'HUP', $s->{pid};
		my $deadline = time + 10;
		usleep(50_000) until server_log($s) =~ /reload done/ || time > $deadline;
		like(server_log($s), qr/SIGHUP received: reloading the tokens file and the JWT keys/,
			'SIGHUP: the reload is logged');
		$r = notes_seen($u, $old_jwt);
		ok(ref $r && $r->{status} == 401, '... a JWT signed with the old secret: 401');
		is(notes_seen($u, jwt(role => 'agent_b', aud => $resource, exp => int(time) + 300)), '3',
			'... one signed with the new secret works, without a restart');
		is(notes_seen($u, $token{agent_a}), '1,2', '... static tokens still work');
		$secret = $old_secret;
		open $sfh, '>', $secret_file or die;
		print $sfh "$secret\n";
		close $sfh;
	}
	my ($rc2) = stop_server($s);
	is($rc2, 0, 'the authenticating server stops with exit code 0');
	unlike(server_log($s), qr/\Q$token{agent_a}\E|\Q$token{agent_b}\E|\Q$secret\E/,
		'no token or secret appears in the log');
	like(server_log($s), qr/request method=tools\/call tool=select_query role=agent_a status=200/,
		'the request log names the role');
}

# --- TLS, and where the program refuses to listen ----------------------------------------------

{
	my ($cert, $key) = ("$tmp/cert.pem", "$tmp/key.pem");
	my $ok = IPC::Run::run(
		[
			'openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
			'-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
			'-keyout', $key, '-out', $cert
		],
		'>', \my $o, '2>', \my $e);
	ok($ok, 'openssl makes a throwaway self-signed certificate') or diag($e);
	my $s = start_server([ '--tls-cert', $cert, '--tls-key', $key, $connstr ], scheme => 'https');
	like(server_log($s), qr/listening on https:/, 'with --tls-cert and --tls-key: listening on https');
	$r = http_request($s->{url}, body => $json->encode($list),
		headers => [ 'Content-Type: application/json', stateless_headers($list) ],
		extra => [ '--cacert', $cert ]);
	ok($r->{status} == 200 && @{ $r->{json}{result}{tools} || [] } == 8,
		'curl --cacert over https: tools/list answers');
	$r = http_request($s->{url}, body => $json->encode($list),
		headers => [ 'Content-Type: application/json', stateless_headers($list) ]);
	ok($r->{status} == 0 && $r->{rc} != 0, '... without --cacert curl refuses the certificate');
	(my $plain = $s->{url}) =~ s/^https/http/;
	$r = http_request($plain, body => $json->encode($list),
		headers => [ 'Content-Type: application/json', stateless_headers($list) ], timeout => 10);
	ok($r->{status} == 0 && $r->{rc} != 0, 'plain HTTP to the TLS port fails')
	  or diag("status $r->{status} rc $r->{rc}");
	stop_server($s);

	$s = start_server([$connstr], address => '0.0.0.0');
	is($s->{rc}, 1, 'listening on 0.0.0.0 without authentication: refused, exit code 1');
	like(server_log($s), qr/refusing to listen on 0\.0\.0\.0 without authentication/, '... saying why');
	$s = start_server([ '--auth-tokens', $tokens_file, $connstr ], address => '0.0.0.0');
	is($s->{rc}, 1, '0.0.0.0 with authentication but without TLS: refused, exit code 1');
	like(server_log($s), qr/without TLS/, '... saying why');
	$s = start_server([ '--auth-tokens', $tokens_file, '--allow-insecure-http', $connstr ],
		address => '0.0.0.0');
	ok(!defined $s->{rc} && server_log($s) =~ /listening on http:\/\/0\.0\.0\.0/,
		'... with --allow-insecure-http: it starts');
	stop_server($s) if !defined $s->{rc};
	$s = start_server([ '--auth-tokens', $tokens_file, '--tls-cert', $cert, '--tls-key', $key, $connstr ],
		address => '0.0.0.0');
	ok(!defined $s->{rc} && server_log($s) =~ /listening on https:\/\/0\.0\.0\.0/,
		'0.0.0.0 with authentication and TLS: it starts');
	stop_server($s) if !defined $s->{rc};
}

# --- SIGTERM with calls in flight --------------------------------------------------------------

{
	my $s = start_server([$connstr]);
	my @calls;
	foreach my $secs (2, 30)
	{
		my $m = stateless($secs, 'tools/call',
			{ name => 'execute_sql', arguments => { sql => "SELECT pg_sleep($secs)" } });
		my $out = '';
		push @calls, { out => \$out, h => IPC::Run::start(
			[ 'curl', '-s', '-w', '\n%{http_code}', '-H', 'Content-Type: application/json',
			  (map { ('-H', $_) } stateless_headers($m)), '--data-binary', $json->encode($m), $s->{url} ],
			'>', \$out) };
	}
	$node->poll_query_until('postgres',
		q{SELECT count(*) = 2 FROM pg_stat_activity WHERE wait_event = 'PgSleep'})
	  or die 'the calls never started';
	my ($rc2, $secs) = stop_server($s, 60);
	$_->{h}->finish foreach @calls;
	note(sprintf('measured: SIGTERM with a 2 s and a 30 s call in flight: exit after %.2f s', $secs));
	is($rc2, 0, 'SIGTERM with calls in flight: exit code 0');
	cmp_ok($secs, '<', 10 + 3, '... within the 10 s grace (and a little)');
	like(${ $calls[0]{out} }, qr/\\"success\\": true.*\n200$/s, '... the 2 s call finished and was answered');
	my ($body30, $status30) = ${ $calls[1]{out} } =~ /^(.*)\n(\d+)$/s;
	my $answer30 = eval { $json->decode($body30 // '') } || {};
	ok(($status30 // '') eq '200'
		  && ($answer30->{result}{structuredContent}{errorType} // '') eq 'cancelled',
		'... the 30 s call was cancelled after the grace, and answered so') or diag(${ $calls[1]{out} });
	like(server_log($s), qr/SIGTERM received.*cancelling 1 calls still in progress.*stopped/s,
		'... as the log says');
	is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'}),
		0, '... and no statement is left running');
}

# --- valgrind ------------------------------------------------------------------------------------

SKIP:
{
	skip 'valgrind is not installed', 6
	  unless system('valgrind --version >/dev/null 2>&1') == 0;
	my $s = start_server([ '--max-body', 4096, @$auth_args ],
		prefix => [
			'valgrind', '--leak-check=full', '--error-exitcode=99',
			'--errors-for-leak-kinds=definite,indirect',
			'--show-leak-kinds=definite,indirect'
		],
		wait => 120);
	my $u = $s->{url};
	my $a = "Authorization: Bearer $token{agent_a}";
	is(notes_seen($u, $token{agent_a}), '1,2', 'valgrind: a call with a token');
	is(notes_seen($u, jwt(role => 'agent_b', exp => int(time) + 300)), '3', 'valgrind: a call with a JWT');
	$r = http_post($u, $list, stateless_headers($list), 'Authorization: Bearer wrong');
	my @got = ($r->{status});
	$r = http_post($u, $discover, stateless_headers($discover), $a);
	push @got, $r->{status};
	$r = http_post($u, $init, $a);
	my $vsid = $r->{headers}{'mcp-session-id'} // '';
	$r = http_post($u, { %$ping, id => 2 }, "Mcp-Session-Id: $vsid", $a);
	push @got, $r->{status};
	$r = http_request($u, method => 'DELETE', headers => [ "Mcp-Session-Id: $vsid", $a ]);
	push @got, $r->{status};
	$r = http_post($u, $big, $a);
	push @got, $r->{status};
	my $sse = stateless(5, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(1.2)' } });
	$sse->{params}{_meta}{progressToken} = 5;
	$r = http_post($u, $sse, stateless_headers($sse), $a);
	push @got, $r->{body} =~ /notifications\/progress/ ? 'progress' : $r->{body};
	is_deeply(\@got, [ 401, 200, 200, 204, 413, 'progress' ],
		'valgrind: 401, discover, a session, DELETE, 413, an SSE stream with progress');

	my $watch = idle_watch($node);
	my $m = stateless(6, 'tools/call',
		{ name => 'execute_sql', arguments => { sql => 'SELECT pg_sleep(30)' } });
	my $curl = IPC::Run::start(
		[ 'curl', '-s', '-H', 'Content-Type: application/json', '-H', $a,
		  (map { ('-H', $_) } stateless_headers($m)), '--data-binary', $json->encode($m), $u ],
		'>', \my $out);
	idle_watch_result($watch, 'sleeping');
	$curl->kill_kill;
	my ($idle) = idle_watch_result($watch, 'idle');
	ok(defined $idle, 'valgrind: a call cancelled by its client');

	my ($vrc) = stop_server($s, 120);
	is($vrc, 0, 'valgrind: SIGTERM, exit code 0 (99 would be a valgrind error)');
	like(server_log($s), qr/ERROR SUMMARY: 0 errors/, 'valgrind: 0 errors') or diag(server_log($s));
	like(server_log($s), qr/definitely lost: 0 bytes|no leaks are possible/,
		'valgrind: nothing definitely lost');
	note(join "\n", grep { /SUMMARY|lost:|reachable:|in use at exit/ } split /\n/, server_log($s));
}

$node->stop;
done_testing();
