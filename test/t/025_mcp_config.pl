# neon-ai-tools-mcp's configuration file and structured logs (issue 34):
#
#   - a good file (every kind of line: comments, quotes, flags, repeated
#     keys, relative paths) passes --check-config without connecting;
#   - each kind of mistake (unknown key with a suggestion, bad value,
#     duplicate key, syntax, a missing file, a command-line-only key) stops
#     the program with one line naming the file, the line and the key, exit
#     code 2; a key or connection string that would hold a secret is
#     refused, and the secret is not echoed;
#   - --check-config also runs startup's cross-option checks (exit code 1);
#   - the command line overrides the file wherever it is written, and its
#     repeatable options replace the file's list;
#   - --log-format json: every line of a server's log is a JSON object with
#     the time (RFC 3339, UTC, ms) and level; request lines carry the
#     request id, session, role, tool, outcome, duration and bytes; no
#     token, JWT, password, secret or argument value appears anywhere.
use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex hmac_sha256);
use File::Basename qw(dirname);
use IPC::Run;
use MIME::Base64 qw(encode_base64url);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);
use lib abs_path(dirname(__FILE__) . '/../mcp/http');
use McpHttp;

plan skip_all => 'curl is not installed'
  unless system('curl --version >/dev/null 2>&1') == 0;

my $program = mcp_program();
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $confdir = "$tmp/etc";
mkdir $confdir or die;

# Run the program; returns (exit code, stdout, stderr).
sub run_mcp
{
	my ($args, $input) = @_;
	my ($out, $err) = ('', '');
	$input //= '';
	IPC::Run::run([ $program, @$args ], '<', \$input, '>', \$out, '2>', \$err,
		IPC::Run::timeout(60));
	return ($? >> 8, $out, $err);
}

# Write a file under $confdir; returns its path.
sub write_file
{
	my ($name, $text, $mode) = @_;
	my $path = "$confdir/$name";
	open my $fh, '>', $path or die "$path: $!";
	print $fh $text;
	close $fh;
	chmod($mode // 0600, $path);
	return $path;
}

# --- secrets, as files (relative to the configuration file) ------------------------------------

my %token = map { $_ => "tok-$_-" . sha256_hex(rand() . $$ . $_) } qw(agent_a agent_b);
write_file('tokens', join('', map { "$_ " . sha256_hex($token{$_}) . "\n" } sort keys %token));
my $secret = 'jwt-secret-' . sha256_hex(rand() . $$);
write_file('jwt-secret', "$secret\n");

# --- a good file ------------------------------------------------------------------------------

my $port = PostgreSQL::Test::Cluster::get_free_port();
my $good = write_file('good.conf', <<"EOF", 0644);
# neon-ai-tools-mcp.conf: every kind of line

listen = 127.0.0.1:$port          # a comment after a value
database = "host=/nonexistent/socket dbname=app user=authenticator"
pool-size = 2
log-format = json
text-block = compact
auth-tokens = tokens              # relative: beside this file
jwt-secret-file = '$confdir/jwt-secret'
jwt-role-claim = app_metadata.role
allow-origin = https://app.example.com
allow-origin = "https://admin.example.com"
allowed-host = mcp.example.com
allow-insecure-http = off
verbose = 0
	max-body   =   65536
request-timeout=5
EOF

my ($rc, $out, $err) = run_mcp([ '--config', $good, '--check-config' ]);
is($rc, 0, 'a good file: --check-config exits with 0');
is($out, "configuration OK\n", '... printing "configuration OK"');
is($err, '', '... and nothing on stderr (no connection to the unreachable database)');

($rc, $out, $err) = run_mcp([ '--check-config', "--config=$good", '-v' ]);
is($rc, 0, '--check-config before --config, --config=FILE: the same');

# --- bad files: one line each, file:line and key, exit code 2 ---------------------------------

my @bad = (
	[ 'unknown key', "pool-size = 2\nlistn = 127.0.0.1:80\n",
		qr/^neon-ai-tools-mcp: error: \Q$confdir\E\/bad\.conf:2: unknown key "listn" \(did you mean "listen"\?\)$/ ],
	[ 'unknown key in another style', "pool_size = 2\n",
		qr/:1: unknown key "pool_size" \(did you mean "pool-size"\?\)$/ ],
	[ 'unknown key, nothing near', "\n\n# x\nfrobnicate = 1\n",
		qr/:4: unknown key "frobnicate"$/ ],
	[ 'bad integer', "pool-size = many\n",
		qr/:1: invalid value "many" for key "pool-size": a positive integer is required$/ ],
	[ 'bad flag', "allow-insecure-http = maybe\n",
		qr/:1: invalid value "maybe" for key "allow-insecure-http": on or off is required/ ],
	[ 'bad log format', "log-format = xml\n",
		qr/:1: invalid value "xml" for key "log-format": text or json is required$/ ],
	[ 'bad listen port', "listen = 127.0.0.1:99999\n",
		qr/:1: invalid value "127\.0\.0\.1:99999" for key "listen": the port must be/ ],
	[ 'duplicate key', "pool-size = 2\n# again\npool-size = 3\n",
		qr/:3: duplicate key "pool-size" \(first set on line 1\)$/ ],
	[ 'an alias twice', "http = 8080\nlisten = 8081\n",
		qr/:2: duplicate key "listen" \(first set on line 1\)$/ ],
	[ 'no "="', "pool-size 2\n",
		qr/:1: key "pool-size": syntax error: "=" expected after the key$/ ],
	[ 'unterminated quote', "database = 'dbname=app\n",
		qr/:1: key "database": syntax error: a quoted value has no closing quote$/ ],
	[ 'text after a quote', "database = 'app' x\n",
		qr/:1: key "database": syntax error: text after a quoted value$/ ],
	[ 'a missing value', "pool-size =\n",
		qr/:1: key "pool-size": syntax error: the value is missing/ ],
	[ 'a command-line-only key', "check-config = on\n",
		qr/:1: key "check-config" is for the command line only$/ ],
	[ 'jwt-secret inline', "jwt-secret = s3cr3t-inline-value\n",
		qr/:1: key "jwt-secret" would put a secret in the file: .*jwt-secret-file$/ ],
	[ 'password inline', "password = s3cr3t-inline-value\n",
		qr/:1: key "password" would put a secret in the file: .*passfile/ ],
	[ 'token inline', "token = s3cr3t-inline-value\n",
		qr/:1: key "token" would put a secret in the file: .*auth-tokens$/ ],
	[ 'a password in the connection string',
		"database = 'host=db user=app password=s3cr3t-inline-value'\n",
		qr/:1: invalid value "host=db user=app password=\*+" for key "database": the connection string carries a password/ ],
	[ 'a password in a URI',
		"database = postgresql://app:s3cr3t-inline-value\@db/app\n",
		qr/:1: invalid value .* for key "database": the connection string carries a password/ ],
	[ 'an SSL key passphrase in the connection string',
		"database = 'host=db sslkey=/k sslpassword=s3cr3t-inline-value'\n",
		qr/:1: invalid value "host=db sslkey=\/k sslpassword=\*+" for key "database": the connection string carries a password/ ],
);
foreach my $case (@bad)
{
	my ($name, $text, $re) = @$case;
	my $file = write_file('bad.conf', $text);
	($rc, $out, $err) = run_mcp([ '--config', $file, '--check-config' ]);
	is($rc, 2, "$name: exit code 2");
	my @lines = split /\n/, $err;
	is(scalar(@lines), 1, "$name: one line");
	like($lines[0] // '', $re, "$name: names the file, the line and the key");
	unlike($err, qr/s3cr3t-inline-value/, "$name: the secret is not echoed")
	  if $text =~ /s3cr3t/;
	is($out, '', "$name: nothing on stdout");
}

($rc, $out, $err) = run_mcp([ '--config', "$confdir/no-such.conf" ]);
is($rc, 2, 'a missing file: exit code 2');
like($err, qr/^neon-ai-tools-mcp: error: \Q$confdir\E\/no-such\.conf: could not read the configuration file: No such file or directory\n\z/,
	'... one line naming the file and why');

# a mistake in the file stops the program without --check-config too
($rc, $out, $err) = run_mcp([ '--config', write_file('bad.conf', "listn = 1\n") ], '');
is($rc, 2, 'a bad file stops the program itself with exit code 2');

# --- --check-config: what startup checks of the options together ----------------------------

($rc, $out, $err) = run_mcp([ '--config', write_file('open.conf', "listen = 0.0.0.0:$port\n"),
	'--check-config' ]);
is($rc, 1, 'a non-loopback address without tokens: --check-config exits with 1');
like($err, qr/refusing to listen on 0\.0\.0\.0 without authentication/, '... saying why');
is($out, '', '... and does not print "configuration OK"');

($rc, $out, $err) = run_mcp([ '--config', write_file('stdio.conf', "auth-tokens = tokens\n"),
	'--check-config' ]);
is($rc, 1, 'tokens over stdio: --check-config exits with 1');
like($err, qr/bearer tokens are for --http/, '... saying why');

($rc, $out, $err) = run_mcp([ '--config', $good, '--tls-cert', "$confdir/none.pem",
	'--check-config' ]);
is($rc, 1, '--tls-cert without --tls-key: exit code 1');
like($err, qr/--tls-cert and --tls-key go together/, '... saying why');

($rc, $out, $err) = run_mcp([ '--config', write_file('missing-tokens.conf',
	"listen = $port\nauth-tokens = no-such-tokens\n"), '--check-config' ]);
is($rc, 1, 'a tokens file that cannot be read: exit code 1');
like($err, qr/\Q$confdir\E\/no-such-tokens/, '... naming it, resolved beside the file');

($rc, $out, $err) = run_mcp([ '--config', $good, '--pool-size', '0', '--check-config' ]);
is($rc, 1, 'a bad command-line value: exit code 1');
like($err, qr/invalid value "0" for --pool-size/, '... naming the option');

# --- a server: the command line overrides the file; JSON logs ------------------------------

my $node = nat_node('config');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE authenticator LOGIN NOINHERIT;
	CREATE ROLE agent_a NOLOGIN;
	CREATE ROLE agent_b NOLOGIN;
	GRANT agent_a, agent_b TO authenticator;
	CREATE TABLE notes (id int PRIMARY KEY, body text);
	INSERT INTO notes VALUES (1, 'first'), (2, 'second');
	GRANT SELECT, INSERT ON notes TO agent_a, agent_b;
});
my $password = 'Pa55-word-' . sha256_hex(rand() . $$);
my $connstr = $node->connstr('postgres') . " user=authenticator password=$password";

# the file: another port, a small body limit, text logs, one origin; the
# command line (before and after --config) overrides each
my $server_conf = write_file('server.conf', <<"EOF");
listen = 127.0.0.1:1
max-body = 200
log-format = text
allow-origin = https://file.example.com
auth-tokens = tokens
jwt-secret-file = jwt-secret
EOF
my $srv = start_server(
	[
		'--max-body', 65536, '--config', $server_conf, '--log-format', 'json',
		'--allow-origin', 'https://cli.example.com', $connstr
	]);
ok(!defined $srv->{rc}, 'a server started from the file and the command line');
my $url = $srv->{url};
like(server_log($srv), qr/listening on http:\/\/127\.0\.0\.1:$srv->{port}\/mcp/,
	'--http on the command line overrides listen in the file');

sub jwt
{
	my (%claims) = @_;
	my $h = encode_base64url($json->encode({ alg => 'HS256', typ => 'JWT' }));
	my $p = encode_base64url($json->encode(\%claims));
	return "$h.$p." . encode_base64url(hmac_sha256("$h.$p", $secret));
}
my $jwt = jwt(role => 'agent_b', exp => time + 600);

my $arg_value = 'arg-value-' . sha256_hex(rand() . $$);
my $call = stateless('req-7', 'tools/call',
	{ name => 'select_query', arguments => { table => 'notes', where => { body => $arg_value } } });
my $r = http_post($url, $call, stateless_headers($call),
	"Authorization: Bearer $token{agent_a}");
is($r->{status}, 200, 'a call with a static token and a body over the file\'s max-body: 200');

my $insert = stateless(8, 'tools/call',
	{ name => 'insert_data', arguments => { table => 'notes', rows => [ { id => 1, body => $arg_value } ] } });
$r = http_post($url, $insert, stateless_headers($insert), "Authorization: Bearer $jwt");
ok($r->{status} == 200 && $r->{json}{result}{isError}, 'a failing call with a JWT: 200, isError');

$r = http_post($url, $call, stateless_headers($call), "Authorization: Bearer not-a-token-$arg_value");
is($r->{status}, 401, 'an unknown token: 401');

$r = http_post($url, $call, stateless_headers($call), "Authorization: Bearer $token{agent_a}",
	'Origin: https://file.example.com');
is($r->{status}, 403, "the command line's --allow-origin replaces the file's list");
$r = http_post($url, $call, stateless_headers($call), "Authorization: Bearer $token{agent_a}",
	'Origin: https://cli.example.com');
is($r->{status}, 200, "... and allows its own");

# a session (2025-06-18): its id is logged by its first characters only
$r = http_post($url,
	{
		jsonrpc => '2.0', id => 'init-1', method => 'initialize',
		params => { protocolVersion => '2025-06-18', capabilities => {},
			clientInfo => { name => 'tap', version => '1' } }
	},
	"Authorization: Bearer $token{agent_a}");
my $sid = $r->{headers}{'mcp-session-id'} // '';
like($sid, qr/^[0-9a-f]{32}$/, 'initialize: a session');
$r = http_post($url,
	{ jsonrpc => '2.0', id => 9, method => 'tools/call',
		params => { name => 'select_query', arguments => { table => 'notes', where => { id => 2 } } } },
	"Authorization: Bearer $token{agent_a}", "Mcp-Session-Id: $sid",
	'MCP-Protocol-Version: 2025-06-18');
is($r->{status}, 200, 'a call in the session: 200');

my ($stop_rc) = stop_server($srv);
is($stop_rc, 0, 'the server stops with exit code 0');

my $log = server_log($srv);
my @lines = split /\n/, $log;
ok(@lines >= 8, 'the log has a line per request and more (' . scalar(@lines) . ')');
my (@requests, @bad_lines);
foreach my $line (@lines)
{
	my $v = eval { $json->decode($line) };
	if (ref $v ne 'HASH')
	{
		push @bad_lines, $line;
		next;
	}
	push @bad_lines, $line
	  unless ($v->{time} // '') =~ /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
	  && ($v->{level} // '') =~ /^(error|warning|notice|info|debug)$/
	  && (defined $v->{msg} || defined $v->{event});
	push @requests, $v if ($v->{event} // '') eq 'request';
}
is_deeply(\@bad_lines, [], 'every line is a JSON object with time (RFC 3339, UTC, ms), level and msg or event');
my @fields = qw(method status request_id session_id role tool outcome duration_ms bytes);
is(scalar(grep { my $q = $_; grep { !exists $q->{$_} } @fields } @requests), 0,
	'every request line has ' . join(', ', @fields));
my ($first) = grep { ($_->{request_id} // '') eq 'req-7' && ($_->{status} // 0) == 200 } @requests;
ok($first, 'the first call is logged with its JSON-RPC id');
is_deeply(
	[ map { $first->{$_} } qw(method role tool outcome) ],
	[ 'tools/call', 'agent_a', 'select_query', 'ok' ],
	'... its method, role, tool and outcome');
ok($first->{bytes} > 0 && $first->{duration_ms} >= 0, '... its bytes and duration_ms');
my ($failed) = grep { ($_->{request_id} // '') eq '8' } @requests;
ok($failed && $failed->{role} eq 'agent_b' && $failed->{outcome} =~ /^[a-z_]+$/
	  && $failed->{outcome} !~ /^(ok|tool_error)$/,
	'the failing call: the JWT\'s role and the error category ('
	  . ($failed->{outcome} // '?') . ')');
ok((grep { ($_->{status} // 0) == 401 && $_->{outcome} eq 'refused' } @requests),
	'the unknown token: status 401, outcome refused');
ok((grep { ($_->{status} // 0) == 403 } @requests), 'the foreign origin: status 403');
my ($in_session) = grep { ($_->{request_id} // '') eq '9' } @requests;
is($in_session->{session_id} // '', substr($sid, 0, 12),
	'a call in a session names the session by its first 12 characters');
unlike($log, qr/\Q$sid\E/, '... never by the whole id');
my @leaks = grep { index($log, $_) >= 0 } ($token{agent_a}, $token{agent_b}, $jwt,
	(split /\./, $jwt)[2], $secret, $password, $arg_value);
is_deeply(\@leaks, [], 'no token, JWT, JWT secret, password or argument value in the log');

# --- stdio: the file's json, the command line's text ---------------------------------------

my $stdio_conf = write_file('stdio-json.conf', "log-format = json\nverbose = on\n");
my $input = $json->encode({ jsonrpc => '2.0', id => 1, method => 'initialize',
		params => { protocolVersion => '2025-06-18', capabilities => {},
			clientInfo => { name => 'tap', version => '1' } } }) . "\n"
  . $json->encode({ jsonrpc => '2.0', id => 2, method => 'tools/call',
		params => { name => 'select_query', arguments => { table => 'notes', where => { body => $arg_value } } } }) . "\n";
($rc, $out, $err) = run_mcp([ '--config', $stdio_conf, $node->connstr('postgres') ], $input);
is($rc, 0, 'stdio with a JSON log: exit code 0');
my @stdio = map { scalar eval { $json->decode($_) } } split /\n/, $err;
is(scalar(grep { ref $_ ne 'HASH' } @stdio), 0, '... every stderr line is JSON');
my ($stdio_call) = grep { ($_->{event} // '') eq 'request' && ($_->{tool} // '') eq 'select_query' } @stdio;
ok($stdio_call && !defined $stdio_call->{status} && $stdio_call->{request_id} eq '2'
	  && $stdio_call->{outcome} eq 'ok',
	'... -v logs each message: id, tool, outcome, no HTTP status');
unlike($err, qr/\Q$arg_value\E/, '... and no argument value');

($rc, $out, $err) = run_mcp([ '--log-format', 'text', '--config', $stdio_conf,
	$node->connstr('postgres') ], $input);
like($err, qr/^neon-ai-tools-mcp: request method=tools\/call tool=select_query role=- status=- outcome=ok duration_ms=[\d.]+ bytes=\d+ id=2 session=-$/m,
	'--log-format text on the command line overrides the file: text lines');
unlike($err, qr/^\{/m, '... none of them JSON');

# What a client sends and a message quotes (clientInfo, protocolVersion, a
# cancelled request's id) cannot forge a text line: the lines after a
# message's first begin with a tab, other control characters are '?'.
my $forged = 'neon-ai-tools-mcp: request method=tools/call tool=forged';
$input = $json->encode({ jsonrpc => '2.0', id => 1, method => 'initialize',
		params => { protocolVersion => "2025-06-18\n$forged", capabilities => {},
			clientInfo => { name => "tap\n$forged", version => "1\e[31m\r\n$forged" } } }) . "\n"
  . $json->encode({ jsonrpc => '2.0', method => 'notifications/cancelled',
		params => { requestId => "x\n$forged" } }) . "\n";
($rc, $out, $err) = run_mcp([ '-v', '--log-format', 'text', $node->connstr('postgres') ], $input);
is($rc, 0, 'stdio, text log, -v: exit code 0');
unlike($err, qr/^\Q$forged\E/m, '... a client\'s text begins no line of its own');
like($err, qr/^\t\Q$forged\E/m, '... it continues the message\'s line, after a tab');
unlike($err, qr/[\x00-\x08\x0b-\x1f\x7f]/, '... no control character reaches the log');

$node->stop;
done_testing();
