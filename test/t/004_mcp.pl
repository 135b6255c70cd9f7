# neon-ai-tools-mcp, the MCP program, against
# a real cluster:
#
#   - the command line: --help, --version, bad options, --show-conninfo
#     (sslmode default, password masking);
#   - golden JSON-RPC transcripts: test/mcp/NAME.jsonl is replayed through
#     the program and every answer, normalized, must equal the line of
#     test/mcp/NAME.out (NAT_MCP_REGEN=1 rewrites the .out files);
#   - revision negotiation, the catalog, oversized messages, end of input;
#   - connection failures (closed port, unparsable URI, wrong password)
#     categorized, with the password nowhere in stdout, stderr or ps;
#   - a connection dropped while idle (pg_terminate_backend, a restart) and
#     while a call runs;
#   - valgrind over a full session: no leaks, no invalid accesses.
#
# The program is the installed one (`pg_config --bindir`), else the one
# built in src/mcp; NAT_MCP_PROGRAM overrides both.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IO::Select;
use IPC::Open3;
use IPC::Run;
use JSON::PP;
use Symbol qw(gensym);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $root = abs_path(dirname(__FILE__) . '/../..');
my $transcripts = "$root/test/mcp";
my $program = mcp_program();
my $json = JSON::PP->new->canonical->allow_bignum->allow_nonref;
my $password = 'S3cr3t-Pa55word';

# --- helpers ------------------------------------------------------------------

# The program to test.
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

# Run the program once over $input; returns (exit code, stdout, stderr).
sub run_mcp
{
	my ($args, $input, %opt) = @_;
	my ($out, $err) = ('', '');
	my @cmd = (@{ $opt{prefix} || [] }, $program, @$args);
	local %ENV = (%ENV, %{ $opt{env} || {} });
	IPC::Run::run(\@cmd, '<', \$input, '>', \$out, '2>', \$err,
		IPC::Run::timeout($opt{timeout} || 180));
	return ($? >> 8, $out, $err);
}

# One JSON message a line.
sub jsonl
{
	return join('', map { $json->encode($_) . "\n" } @_);
}

# Decode every output line (a line that is not JSON fails the test).
sub answers
{
	my ($out) = @_;
	my @answers;
	foreach my $line (split /\n/, $out)
	{
		my $v = eval { $json->decode($line) };
		if (!defined $v && $@)
		{
			fail("stdout line is JSON: $line");
			next;
		}
		push @answers, $v;
	}
	return @answers;
}

# The answer with this id.
sub by_id
{
	my ($id, @answers) = @_;
	my @m = grep { ref $_ eq 'HASH' && defined $_->{id} && $_->{id} eq $id }
	  @answers;
	return $m[0];
}

# An initialize request.
sub initialize
{
	my ($id, $revision) = @_;
	return {
		jsonrpc => '2.0',
		id => $id,
		method => 'initialize',
		params => {
			protocolVersion => $revision || '2025-11-25',
			capabilities => {},
			clientInfo => { name => 'tap', version => '1' }
		}
	};
}

# A tools/call request.
sub call
{
	my ($id, $name, $args) = @_;
	return {
		jsonrpc => '2.0',
		id => $id,
		method => 'tools/call',
		params => { name => $name, arguments => $args }
	};
}

# The reduced envelope kept in golden files: the keys that say what
# happened, not the wording of messages (the extension owns those).
sub reduce_envelope
{
	my ($e) = @_;
	return $e unless ref $e eq 'HASH';
	my %r;
	foreach my $k (
		qw(success status tool errorType error_type sqlState rowCount data
		affectedRows retryable))
	{
		$r{$k} = $e->{$k} if exists $e->{$k};
	}
	return \%r;
}

# Normalize an answer for golden comparison: volatile values replaced, the
# catalog reduced to names (004 checks it against SQL separately), tool
# envelopes reduced; the text content must equal structuredContent.
sub normalize
{
	my ($v) = @_;
	if (ref $v eq 'ARRAY')
	{
		return [ map { normalize($_) } @$v ];
	}
	return $v unless ref $v eq 'HASH';
	my %n;
	my $text_envelope;
	if (ref $v->{content} eq 'ARRAY')
	{
		foreach my $item (@{ $v->{content} })
		{
			next unless ref $item eq 'HASH' && ($item->{type} // '') eq 'text';
			my $e = eval { $json->decode($item->{text}) };
			$text_envelope = $e if ref $e eq 'HASH';
		}
	}
	foreach my $k (keys %$v)
	{
		my $x = $v->{$k};
		if ($k eq 'executionTime') { $n{$k} = '<time>'; }
		elsif ($k eq 'instructions') { $n{$k} = '<instructions>'; }
		elsif ($k eq 'serverInfo' && ref $x eq 'HASH')
		{
			$n{$k} = { %$x, version => '<version>' };
		}
		elsif ($k eq 'tools' && ref $x eq 'ARRAY')
		{
			$n{$k} = [ map { $_->{name} } @$x ];
		}
		elsif ($k eq 'content' && ref $x eq 'ARRAY')
		{
			$n{$k} = [
				map {
					my $e = eval { $json->decode($_->{text}) };
					ref $e eq 'HASH'
					  ? { type => $_->{type}, text => normalize(reduce_envelope($e)) }
					  : $_
				} @$x
			];
		}
		elsif ($k eq 'structuredContent')
		{
			$n{$k} =
			  (defined $text_envelope
				  && $json->encode($text_envelope) eq $json->encode($x))
			  ? '<the text content>'
			  : normalize(reduce_envelope($x));
		}
		else { $n{$k} = normalize($x); }
	}
	return \%n;
}

# Replay test/mcp/NAME.jsonl; compare with test/mcp/NAME.out.
sub transcript_ok
{
	my ($node, $name) = @_;
	my $input = slurp_file("$transcripts/$name.jsonl");
	my ($rc, $out, $err) = run_mcp([ $node->connstr('postgres') ], $input);
	is($rc, 0, "$name.jsonl: exit code 0 at end of input");
	my @got = map { $json->encode(normalize($_)) } answers($out);
	my $expected_file = "$transcripts/$name.out";
	if ($ENV{NAT_MCP_REGEN})
	{
		open my $fh, '>', $expected_file or die "$expected_file: $!";
		print $fh map { "$_\n" } @got;
		close $fh;
	}
	my @expected = split /\n/, slurp_file($expected_file);
	is(scalar @got, scalar @expected, "$name.jsonl: as many answers as expected")
	  or diag("stdout:\n$out\nstderr:\n$err");
	for my $i (0 .. $#expected)
	{
		my $exp = $json->decode($expected[$i]);
		my $what =
		  ref $exp eq 'HASH' && defined $exp->{id} ? "id $exp->{id}" : "#$i";
		$what .= ' (batch)' if ref $exp eq 'ARRAY';
		is($got[$i] // '(none)', $expected[$i], "$name.jsonl: answer $what");
	}
	return ($out, $err);
}

# A program that stays running for requests one at a time.  IPC::Open3,
# not IPC::Run: Perl's own pipes are close-on-exec, so a postmaster that
# the test restarts meanwhile does not inherit (and hold open) the
# program's stdin.
sub start_session
{
	my ($args, @prefix) = @_;
	my %s = (out => '', err => '', errfh => gensym);

	# TAP sets PGAPPNAME; without it the backend shows our fallback name
	delete local $ENV{PGAPPNAME};
	$s{pid} = open3($s{in}, $s{outfh}, $s{errfh}, @prefix, $program, @$args);
	$s{in}->autoflush(1);
	$s{sel} = IO::Select->new($s{outfh}, $s{errfh});
	return \%s;
}

# Read what the program wrote until stdout holds more than $lines lines
# (or, with $lines undef, until the program closed its output).
sub read_until
{
	my ($s, $lines) = @_;
	my $deadline = time + 180;
	while (!defined $lines || (() = $s->{out} =~ /\n/g) <= $lines)
	{
		die "no answer from neon-ai-tools-mcp within 180 s\n$s->{err}"
		  if time > $deadline;
		my @ready = $s->{sel}->can_read(1);
		foreach my $fh (@ready)
		{
			my $n = sysread($fh, my $buf, 65536);
			if (!$n)
			{
				$s->{sel}->remove($fh);
				next;
			}
			$s->{ $fh == $s->{outfh} ? 'out' : 'err' } .= $buf;
		}
		last if !defined $lines && $s->{sel}->count == 0;
	}
	return;
}

# Send one message without waiting.
sub send_message
{
	my ($s, $msg) = @_;
	print { $s->{in} } $json->encode($msg) . "\n";
	return;
}

# Send one request, wait for its answer.
sub request
{
	my ($s, $msg) = @_;
	my $before = () = $s->{out} =~ /\n/g;
	send_message($s, $msg);
	read_until($s, $before);
	my @lines = split /\n/, $s->{out};
	return $json->decode($lines[-1]);
}

# Close stdin, wait for the exit; returns the exit code.
sub finish_session
{
	my ($s) = @_;
	close $s->{in};
	read_until($s, undef);
	waitpid($s->{pid}, 0);
	return $? >> 8;
}

# --- the command line ---------------------------------------------------------

program_help_ok($program);
program_version_ok($program);
program_options_handling_ok($program);

{
	my ($rc, $out, $err) = run_mcp(['--help'], '');
	like($out, qr/Exit status:.*\b0\b.*\b1\b.*\b2\b/s, '--help documents the exit codes');
	unlike($out, qr{://[^/\s:@]+:[^@\s]+@}, '--help examples carry no password');
	is(join("\n", grep { length > 79 } split /\n/, $out), '',
		'--help lines fit 79 columns (PostgreSQL 17 and later check 80 too)');

	my $control = slurp_file("$root/neon_ai_tools.control");
	my ($version) = $control =~ /default_version\s*=\s*'([^']+)'/;
	($rc, $out) = run_mcp(['--version'], '');
	is($out, "neon-ai-tools-mcp (neon_ai_tools) $version\n",
		'--version names the extension version');

	($rc, $out, $err) = run_mcp([ 'dbname=a', 'dbname=b' ], '');
	is($rc, 1, 'two connection strings: usage error, exit code 1');
	like($err, qr/too many command-line arguments/, '... with a message');
}

# --show-conninfo: the sslmode default and masking, without a server.
{
	my %env = (PGSSLMODE => undef, PGHOST => undef, PGHOSTADDR => undef,
		PGSERVICE => undef, PGCONNECT_TIMEOUT => undef);
	my $show = sub {
		my ($conninfo, %extra) = @_;
		my ($rc, $out, $err) = run_mcp([ '--show-conninfo', $conninfo ], '',
			env => { %env, %extra });
		return ($rc, $out . $err);
	};
	my ($rc, $out) = $show->("postgresql://agent:$password\@db.example.com/app");
	is($rc, 0, '--show-conninfo exits 0');
	like($out, qr/^sslmode=require\t# neon-ai-tools-mcp default/m,
		'a remote host gets sslmode=require by default');
	like($out, qr/^connect_timeout=10\t/m, 'connect_timeout defaults to 10 s');
	like($out, qr/^password=\*{8}\t# connection string/m, 'the password is masked');
	unlike($out, qr/\Q$password\E/, 'the password appears nowhere');

	($rc, $out) = $show->('host=/var/run/postgresql dbname=app');
	unlike($out, qr/^sslmode=require/m, 'a Unix socket: sslmode not forced');
	($rc, $out) = $show->('host=localhost,127.0.0.2,::1 dbname=app');
	unlike($out, qr/^sslmode=require/m, 'loopback hosts: sslmode not forced');
	($rc, $out) = $show->('host=localhost,db.example.com dbname=app');
	like($out, qr/^sslmode=require/m, 'one remote host among local ones: required');
	($rc, $out) = $show->('host=db.example.com hostaddr=127.0.0.1');
	unlike($out, qr/^sslmode=require/m, 'hostaddr decides: loopback, not forced');
	($rc, $out) = $show->('host=db.example.com sslmode=disable');
	like($out, qr/^sslmode=disable\t# connection string/m, 'an explicit sslmode wins');
	($rc, $out) = $show->('host=db.example.com', PGSSLMODE => 'verify-full');
	like($out, qr/^sslmode=verify-full\t# PGSSLMODE/m, 'PGSSLMODE wins');
	($rc, $out) = $show->('dbname=app', PGHOST => 'db.example.com');
	like($out, qr/^sslmode=require/m, 'PGHOST remote: required');
	($rc, $out) = $show->("host=db.example.com password='$password with space' user=x");
	unlike($out, qr/\Q$password\E/, 'a quoted password with spaces is masked');
	($rc, $out) = $show->('host=db.example.com user=x',
		PGPASSWORD => $password);
	unlike($out, qr/\Q$password\E/, 'PGPASSWORD is masked');
	($rc, $out) = $show->(
		"postgresql://agent:S3cr%40t-Pa55word\@db.example.com/app");
	unlike($out, qr/S3cr(%40|@)t-Pa55word/, 'a percent-encoded password is masked');

	($rc, $out) =
	  $show->("postgresql://agent:$password\@db.example.com/app?bogus=1");
	is($rc, 1, 'an unparsable connection string is a usage error (exit code 1)');
	like($out, qr/invalid connection string: .*bogus/, '... with libpq\'s reason');
	unlike($out, qr/\Q$password\E/, '... and the password masked');
}

# --- a cluster ------------------------------------------------------------------

my $node = nat_node('mcp');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE mcp_items (id int PRIMARY KEY, name text, price numeric);
	INSERT INTO mcp_items VALUES (1, 'apple', 1.25), (2, 'pear', 2.5),
		(3, 'plum', 123456789012345678901234567890.123456789);
	CREATE DATABASE noext;
});
my $connstr = $node->connstr('postgres');

# --- golden transcripts -----------------------------------------------------------

my ($session_out, $session_err) = transcript_ok($node, 'session');
unlike($session_err, qr/error:|warning:/,
	'session.jsonl: nothing alarming on stderr');
like($session_out, qr/246913578024691357802469135781\.0/,
	'session.jsonl: numerics pass through exactly');
is($node->safe_psql('postgres', 'SELECT count(*) FROM mcp_items WHERE id = 1'),
	'1', 'a tools/call sent as a notification ran nothing');
transcript_ok($node, 'errors');
transcript_ok($node, 'batch');

# Ids come back as the exact text sent: escapes, -0, a duplicate id (the
# last one counts, as json-c reads it).
{
	my $input = join('', map { "$_\n" }
		  '{"jsonrpc":"2.0","id":"\\u0041\\ud83d\\ude00\\/x","method":"ping"}',
		  '{"jsonrpc":"2.0","id":-0,"method":"ping"}',
		  '{"jsonrpc":"2.0","id":"a","id":-9223372036854775808,"method":"ping"}',
		  qq{{"jsonrpc":"2.0","id":"\xc3\xa9","method":"ping"}});
	my ($rc, $out) = run_mcp([$connstr], $input);
	is( $out,
		join('', map { "$_\n" }
			  '{"jsonrpc":"2.0","id":"\\u0041\\ud83d\\ude00\\/x","result":{}}',
			  '{"jsonrpc":"2.0","id":-0,"result":{}}',
			  '{"jsonrpc":"2.0","id":-9223372036854775808,"result":{}}',
			  qq{{"jsonrpc":"2.0","id":"\xc3\xa9","result":{}}}),
		'ids are echoed byte for byte');
}

# Exact arguments: every tools/call of exact.jsonl answers as the same
# arguments text does from SQL (big and long numbers, exponents, escapes,
# duplicate keys), or fails as SQL fails on it.
{
	my ($out) = transcript_ok($node, 'exact');
	my @answers = answers($out);
	foreach my $line (split /\n/, slurp_file("$transcripts/exact.jsonl"))
	{
		next unless $line =~ m{"method":"tools/call"};
		my ($id) = $line =~ /"id":(\d+)/;
		# the last "arguments" member, its text as sent (the line's end)
		my ($args) = $line =~ /.*"argum(?:ents|\\u0065nts)":(\{.*\})\}\}$/;
		my $answer = by_id($id, @answers);
		my $text = $answer->{result}{content}[0]{text};
		my $envelope = $json->decode($text);
		if ($envelope->{success} || ($envelope->{errorType} // '') ne 'invalid_input')
		{
			# as hex: the text holds UTF-8 bytes, which Perl must not recode
			my $hex = unpack('H*', $text);
			my ($ours, $sql) = split /\n/, $node->safe_psql(
				'postgres', qq{
				SELECT (convert_from('\\x$hex', 'UTF8')::jsonb - 'executionTime')::text
				UNION ALL
				SELECT (ai_tool_call('execute_sql', \$a\$$args\$a\$::jsonb) - 'executionTime')::text});
			is($ours, $sql,
				"exact.jsonl id $id: the program's answer is the SQL answer");
		}
		else
		{
			my ($ret, $stdout, $stderr) = $node->psql('postgres',
				qq{SELECT \$a\$$args\$a\$::jsonb});
			like($stderr, qr/\Q$envelope->{error}\E/,
				"exact.jsonl id $id: SQL refuses the same text the same way");
		}
	}
}

# --- tools/list is ai_tool_list('mcp') -----------------------------------------------

{
	my ($rc, $out) = run_mcp([$connstr],
		jsonl(initialize(1), { jsonrpc => '2.0', id => 2, method => 'tools/list' }));
	my $list = by_id(2, answers($out));
	my $sql = $json->decode(
		$node->safe_psql('postgres', "SELECT ai_tool_list('mcp')"));
	is_deeply($list->{result}{tools}, $sql,
		'tools/list is exactly ai_tool_list(\'mcp\')');
	ok(!(grep { ($_->{inputSchema}{type} // '') ne 'object' } @$sql),
		'every tool has an object inputSchema');

	# outputSchema came with 2025-06-18, as structuredContent did
	($rc, $out) = run_mcp([$connstr],
		jsonl(initialize(1, '2025-03-26'), { jsonrpc => '2.0', id => 2, method => 'tools/list' }));
	my $old = by_id(2, answers($out))->{result}{tools};
	is_deeply($old, [ map { my %t = %$_; delete $t{outputSchema}; \%t } @$sql ],
		'2025-03-26: tools/list is ai_tool_list(\'mcp\') without outputSchema');
}

# --- revision negotiation ---------------------------------------------------------------

foreach my $case (
	[ '2025-11-25', '2025-11-25' ], [ '2025-06-18', '2025-06-18' ],
	[ '2025-03-26', '2025-03-26' ], [ '2024-11-05', '2024-11-05' ],
	[ '2099-01-01', '2025-11-25' ], [ 'banana', '2025-11-25' ])
{
	my ($asked, $expected) = @$case;
	my ($rc, $out) = run_mcp([$connstr],
		jsonl(initialize(1, $asked),
			call(2, 'select_query', { table => 'mcp_items', where => { id => 1 } })));
	my @a = answers($out);
	is(by_id(1, @a)->{result}{protocolVersion},
		$expected, "initialize $asked: answers $expected");
	my $r = by_id(2, @a)->{result};
	if ($expected ge '2025-06-18')
	{
		is($r->{structuredContent}{data}[0]{name},
			'apple', "  $expected: the envelope as structuredContent");
	}
	else
	{
		ok(!exists $r->{structuredContent}
			  && $json->decode($r->{content}[0]{text})->{data}[0]{name} eq 'apple',
			"  $expected: no structuredContent (not in this revision), text only");
	}
}

# --- size limit, end of input ------------------------------------------------------------

{
	my $limit = 4 * 1024 * 1024;
	my $big = '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"'
	  . ('x' x (2 * $limit)) . '"}}';
	my $near = '{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"'
	  . ('y' x ($limit - 100)) . '"}}';
	my ($rc, $out) = run_mcp([$connstr],
		jsonl({ jsonrpc => '2.0', id => 1, method => 'ping' })
		  . "$big\n$near\n"
		  . jsonl({ jsonrpc => '2.0', id => 4, method => 'ping' }));
	my @a = answers($out);
	is(scalar @a, 4, 'an oversized message gets one answer and the session goes on');
	is($a[1]{error}{code}, -32600, 'an 8 MiB message: -32600');
	is($a[1]{error}{data}{maxBytes}, $limit, '... naming the 4 MiB limit');
	ok(JSON::PP::is_bool($a[1]{id}) || !defined $a[1]{id}, '... with id null');
	is_deeply([ $a[2]{id}, $a[2]{result} ], [ 3, {} ],
		'a message just under the limit is answered');
	is($a[3]{id}, 4, 'the next message is answered');

	($rc, $out, my $err) = run_mcp([$connstr], '');
	is($rc, 0, 'empty input: exit code 0');
	is($out, '', 'empty input: nothing on stdout');

	# no standard input at all (closed, not empty)
	IPC::Run::run([ 'sh', '-c', 'exec "$0" "$1" <&-', $program, $connstr ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(60));
	is($? >> 8, 2, 'closed standard input: exit code 2');
	like($err, qr/could not read standard input/, '... saying why');
}

# --- connection failures, masking ------------------------------------------------------------

{
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	my $uri = "postgresql://mcp_agent:$password\@127.0.0.1:$port/postgres";
	my $input = jsonl(
		initialize(1),
		{ jsonrpc => '2.0', method => 'notifications/initialized' },
		{ jsonrpc => '2.0', id => 2, method => 'tools/list' },
		call(3, 'select_query', { table => 'mcp_items' }),
		{ jsonrpc => '2.0', id => 4, method => 'ping' });
	my ($rc, $out, $err) = run_mcp([ '-vv', $uri ], $input);
	my @a = answers($out);
	is($rc, 0, 'closed port: the program keeps speaking MCP and exits 0');
	is(by_id(1, @a)->{result}{protocolVersion},
		'2025-11-25', 'closed port: initialize still succeeds');
	my $list = by_id(2, @a);
	is($list->{error}{code}, -32603, 'closed port: tools/list is a JSON-RPC error');
	is($list->{error}{data}{errorType},
		'connection_error', '... whose data says connection_error');
	my $r = by_id(3, @a)->{result};
	ok($r->{isError}, 'closed port: tools/call is a result with isError');
	is_deeply(
		[
			@{ $r->{structuredContent} }{
				qw(success status tool errorType error_type retryable)}
		],
		[
			JSON::PP::false, 'error', 'select_query', 'connection_error',
			'connection_error', JSON::PP::true
		],
		'... an envelope: connection_error, retryable');
	like($r->{structuredContent}{error}, qr/127\.0\.0\.1.*$port/,
		'... with libpq\'s message');
	ok(length $r->{structuredContent}{suggestion}, '... and a suggestion');
	is_deeply(by_id(4, @a)->{result}, {}, 'ping is still answered');
	unlike($out, qr/\Q$password\E/, 'the password appears nowhere in stdout');
	unlike($err, qr/\Q$password\E/, 'the password appears nowhere in stderr');
	like($err, qr/could not connect/, 'stderr says why (verbose log)');

	# a raw "@" in the password: libpq takes the rest for the host name and
	# echoes it in its message
	($rc, $out, $err) = run_mcp([ "postgresql://mcp_agent:S3cr3t\@Pa55word\@127.0.0.1:$port/postgres" ],
		jsonl(initialize(1), call(2, 'select_query', { table => 'mcp_items' })));
	is(by_id(2, answers($out))->{result}{structuredContent}{errorType},
		'connection_error', 'a password with a raw "@": connection_error');
	unlike($out . $err, qr/S3cr3t|Pa55word/, '... and no part of the password appears');

	# ps: the command line no longer shows the password
  SKIP:
	{
		skip 'no /proc', 1 unless -d '/proc/self';
		my $s = start_session([$uri]);
		request($s, initialize(1));
		my $cmdline = slurp_file("/proc/$s->{pid}/cmdline");
		finish_session($s);
		unlike($cmdline, qr/\Q$password\E/, 'the password is gone from ps');
	}
}

# --- authentication ------------------------------------------------------------------------------

{
	$node->safe_psql('postgres',
		"SET password_encryption = 'scram-sha-256'; CREATE ROLE mcp_login LOGIN PASSWORD '$password'; GRANT SELECT ON mcp_items TO mcp_login;");
	my $hba = $node->data_dir . '/pg_hba.conf';
	my $rules = slurp_file($hba);
	open my $fh, '>', $hba or die "$hba: $!";
	print $fh "local all mcp_login scram-sha-256\n$rules";
	close $fh;
	$node->reload;

	my $input = jsonl(initialize(1), call(2, 'select_query', { table => 'mcp_items', columns => ['id'], where => { id => 2 } }));
	my ($rc, $out, $err) = run_mcp([ $node->connstr('postgres') . " user=mcp_login password=wrong-$password" ], $input);
	my $r = by_id(2, answers($out))->{result};
	is_deeply(
		[ $r->{isError}, @{ $r->{structuredContent} }{qw(errorType error_type retryable)} ],
		[ JSON::PP::true, 'authentication_error', 'permission_denied', JSON::PP::false ],
		'a wrong password: authentication_error, not retryable');
	unlike($out . $err, qr/\Q$password\E/, '... the password appears nowhere');

	($rc, $out) = run_mcp([ $node->connstr('postgres') . ' user=mcp_login' ], $input,
		env => { PGPASSWORD => $password });
	$r = by_id(2, answers($out))->{result};
	is_deeply($r->{structuredContent}{data}, [ { id => 2 } ],
		'the right password (PGPASSWORD): the call runs as that role');
	unlike($out, qr/\Q$password\E/, '... the password appears nowhere');
}

# --- a database without the extension ----------------------------------------------------------

{
	my ($rc, $out) = run_mcp([ $node->connstr('noext') ],
		jsonl(initialize(1), { jsonrpc => '2.0', id => 2, method => 'tools/list' },
			call(3, 'list_tables', {})));
	my @a = answers($out);
	like(by_id(2, @a)->{error}{data}{suggestion}, qr/CREATE EXTENSION neon_ai_tools/,
		'no extension: tools/list error says CREATE EXTENSION');
	my $r = by_id(3, @a)->{result};
	ok($r->{isError} && $r->{structuredContent}{sqlState} eq '42883',
		'no extension: tools/call is isError with SQLSTATE 42883');
}

# --- dropped connections ------------------------------------------------------------------------

# One session through every way of losing the connection; with @prefix
# (valgrind) only the answers that matter are checked.
sub dropped_connections
{
	my ($label, @prefix) = @_;
	my $s = start_session([ '-v', $connstr ], @prefix);
	request($s, initialize(1));
	my $select = sub {
		my ($id) = @_;
		return request($s,
			call($id, 'select_query',
				{ table => 'mcp_items', columns => ['id'], where => { id => 2 } })
		)->{result};
	};
	my $backend = sub {
		return $node->safe_psql('postgres',
			"SELECT pid FROM pg_stat_activity WHERE application_name = 'neon-ai-tools-mcp'");
	};
	ok(!$select->(2)->{isError}, "$label: a first call");
	my $pid = $backend->();
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid, 10000)");
	my $r = $select->(3);
	ok(!$r->{isError} && $r->{structuredContent}{data}[0]{id} == 2,
		"$label: backend terminated while idle: reconnected, the next call succeeds");
	isnt($backend->(), $pid, "$label: ... on a new backend");
	like($s->{err}, qr/closed while idle; reconnecting/, "$label: ... and said so on stderr");

	$node->restart;
	$r = $select->(4);
	ok(!$r->{isError}, "$label: server restarted while idle: the next call succeeds");

	$node->stop;
	$r = $select->(5);
	is($r->{structuredContent}{errorType}, 'connection_error',
		"$label: server down: reconnecting once fails, connection_error");
	ok($r->{isError} && $r->{structuredContent}{retryable}, "$label: ... isError, retryable");
	$node->start;
	$r = $select->(6);
	ok(!$r->{isError}, "$label: server back: the next call connects again");

	# lost while a call runs: reported, not repeated
	my $before = () = $s->{out} =~ /\n/g;
	send_message($s, call(7, 'execute_sql', { sql => 'SELECT pg_sleep(60)' }));
	$node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'neon-ai-tools-mcp' AND wait_event = 'PgSleep'")
	  or die 'the call never started';
	$node->safe_psql('postgres',
		"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'neon-ai-tools-mcp'");
	read_until($s, $before);
	$r = by_id(7, answers($s->{out}))->{result};
	is($r->{structuredContent}{errorType}, 'connection_error',
		"$label: backend terminated during a call: connection_error");
	like($r->{structuredContent}{suggestion}, qr/may or may not have taken effect/,
		"$label: ... which says the call may or may not have run");
	ok(!$select->(8)->{isError}, "$label: ... and the next call runs on the new connection");
	is(finish_session($s), 0, "$label: the session ends with exit code 0");
	unlike($s->{out}, qr/^(?!\{).+/m, "$label: stdout held nothing but JSON messages");
	return $s->{err};
}

dropped_connections('dropped');

# --- valgrind -------------------------------------------------------------------------------------

SKIP:
{
	skip 'valgrind is not installed', 18
	  unless system('valgrind --version >/dev/null 2>&1') == 0;
	my @valgrind = (
		'valgrind', '--leak-check=full', '--error-exitcode=99',
		'--errors-for-leak-kinds=definite,indirect',
		'--show-leak-kinds=definite,indirect');
	my $full = slurp_file("$transcripts/session.jsonl") . "\n"
	  . slurp_file("$transcripts/errors.jsonl")
	  . jsonl({ jsonrpc => '2.0', id => 'list', method => 'tools/list' })
	  . ('{"x":"' . ('z' x (5 * 1024 * 1024)) . "\"}\n");
	my ($rc, $out, $err) = run_mcp([$connstr], $full, prefix => \@valgrind, timeout => 600);
	is($rc, 0, 'valgrind, a full session: exit code 0 (99 would be an error)');
	like($err, qr/ERROR SUMMARY: 0 errors/, 'valgrind, a full session: 0 errors')
	  or diag($err);
	ok(by_id('list', answers($out)), 'valgrind, a full session: every answer came');

	my $port = PostgreSQL::Test::Cluster::get_free_port();
	($rc, $out, $err) = run_mcp([ "postgresql://u:$password\@127.0.0.1:$port/x" ],
		jsonl(initialize(1), { jsonrpc => '2.0', id => 2, method => 'tools/list' },
			call(3, 'select_query', { table => 't' })),
		prefix => \@valgrind, timeout => 600);
	ok($rc == 0 && $err =~ /ERROR SUMMARY: 0 errors/,
		'valgrind, connection failures: 0 errors') or diag($err);

	$err = dropped_connections('valgrind', @valgrind);
	like($err, qr/ERROR SUMMARY: 0 errors/,
		'valgrind, reconnections: 0 errors') or diag($err);
	note(join "\n", grep { /SUMMARY|lost:|reachable:|in use at exit/ } split /\n/, $err);
}

$node->stop;
done_testing();
