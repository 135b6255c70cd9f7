# neon-ai-tools-mcp behind a real PgBouncer in transaction mode (Debian's
# pgbouncer package; 1.18 on bookworm passes named statements through
# untracked): 4 processes of the program make 300 tools/call requests each
# at once (select_query, execute_sql with big-number params, insert_data,
# errors, and tools/list now and then, so two statements with different
# parameter counts share the pool), while pgbench loads the same pool.
# Every answer must be the right one: ids round-trip, rows as expected,
# the expected errors and no other, nothing lost, and the inserted rows
# all there with their numbers exact.
#
# Then the program over HTTP with two bearer tokens mapped to two roles,
# through the same PgBouncer: under row-level security every answer holds
# its own role's rows only.
#
# Without pgbouncer the test is skipped when run by hand; under CI (CI set,
# as .ci/run does) it fails, since scripts/install-deps.sh installs it.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;
use JSON::PP;
use Math::BigInt;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $root = abs_path(dirname(__FILE__) . '/../..');
my $json = JSON::PP->new->canonical->allow_bignum->allow_nonref;

my ($pgbouncer) =
  grep { -x $_ } map { "$_/pgbouncer" } (split(/:/, $ENV{PATH}), '/usr/sbin');
if (!$pgbouncer)
{
	if ($ENV{CI})
	{
		fail('pgbouncer is installed (scripts/install-deps.sh installs it)');
		done_testing();
		exit;
	}
	plan skip_all => 'pgbouncer is not installed (apt-get install pgbouncer)';
}

my $program = $ENV{NAT_MCP_PROGRAM};
if (!$program)
{
	my $bindir = `pg_config --bindir`;
	chomp $bindir;
	($program) = grep { -x $_ }
	  ("$bindir/neon-ai-tools-mcp", "$root/src/mcp/neon-ai-tools-mcp");
	die "neon-ai-tools-mcp not found: run make && make install" unless $program;
}

my $processes = 4;
my $calls = 300;

# --- the cluster ----------------------------------------------------------------

my $node = nat_node('bouncer');
$node->append_conf('postgresql.conf', 'max_connections = 40');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL);
	INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 100) g;
	CREATE TABLE ins (id bigserial PRIMARY KEY, proc int NOT NULL,
		seq int NOT NULL, big numeric NOT NULL, UNIQUE (proc, seq));
});
$node->command_ok([ 'pgbench', '-i', '-s', '1', '-q', '-h', $node->host, '-p', $node->port, 'postgres' ],
	'pgbench tables');

# --- PgBouncer: transaction mode, 4 server connections, our own socket ----------

my $dir = PostgreSQL::Test::Utils::tempdir_short();
my $port = PostgreSQL::Test::Cluster::get_free_port();
my $user = `id -un`;
chomp $user;
my $host = $node->host;
my $node_port = $node->port;
PostgreSQL::Test::Utils::append_to_file("$dir/userlist.txt", qq{"$user" ""\n});
PostgreSQL::Test::Utils::append_to_file(
	"$dir/pgbouncer.ini", qq{[databases]
postgres = host=$host port=$node_port dbname=postgres

[pgbouncer]
listen_addr =
listen_port = $port
unix_socket_dir = $dir
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = 4
max_client_conn = 100
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
});
my $bouncer_out = '';
my $bouncer = IPC::Run::start([ $pgbouncer, "$dir/pgbouncer.ini" ],
	'<', \undef, '>&', \$bouncer_out);
my $waited = 0;
until (-S "$dir/.s.PGSQL.$port" || $waited++ > 100)
{
	select(undef, undef, undef, 0.1);
}
ok(-S "$dir/.s.PGSQL.$port", 'pgbouncer listens on its socket')
  or diag($bouncer_out);
my $version = `$pgbouncer --version`;
($version) = $version =~ /(PgBouncer \S+)/;
note("using $version in transaction mode");
my $through = "host=$dir port=$port dbname=postgres user=$user";

# --- the calls ----------------------------------------------------------------------

# request k of process p, and what its answer must be
sub request
{
	my ($p, $k) = @_;
	my $id = "p$p-$k";
	my $n = ($k % 100) + 1;
	my $big = Math::BigInt->new('123456789012345678901234567890') * ($p + 1) + $k;
	my $kind = $k % 50 == 7 ? 'list' : (qw(select execute insert missing invalid))[ $k % 5 ];
	my %msg = (jsonrpc => '2.0', id => $id, method => 'tools/call');
	my %expect = (id => $id, kind => $kind);
	if ($kind eq 'list')
	{
		return ('{"jsonrpc":"2.0","id":"' . $id . '","method":"tools/list"}', \%expect);
	}
	# arguments written by hand: the numbers exactly as sent
	my ($name, $args);
	if ($kind eq 'select')
	{
		($name, $args) = ('select_query', qq({"table":"items","where":{"id":$n}}));
		$expect{rows} = [ { id => $n, name => "item $n" } ];
	}
	elsif ($kind eq 'execute')
	{
		($name, $args) = ('execute_sql',
			qq({"sql":"SELECT \$1::numeric + 1 AS v, \$2::text AS who","params":[$big,"$id"]}));
		$expect{rows} = [ { v => $big + 1, who => $id } ];
	}
	elsif ($kind eq 'insert')
	{
		($name, $args) = ('insert_data',
			qq({"table":"ins","rows":[{"proc":$p,"seq":$k,"big":$big}]}));
		$expect{inserted} = 1;
	}
	elsif ($kind eq 'missing')
	{
		($name, $args) = ('select_query', qq({"table":"no_such_table_$p"}));
		$expect{error} = 'invalid_table';
	}
	else
	{
		($name, $args) = ('select_query', qq({"table":"items","bogus":$k}));
		$expect{error} = 'invalid_parameters';
	}
	return (
		qq({"jsonrpc":"2.0","id":"$id","method":"tools/call","params":{"name":"$name","arguments":$args}}),
		\%expect);
}

my (@runs, %expected, $inserts);
foreach my $p (1 .. $processes)
{
	my $input = '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tap","version":"1"}}}' . "\n";
	foreach my $k (1 .. $calls)
	{
		my ($line, $expect) = request($p, $k);
		$input .= "$line\n";
		$expected{ $expect->{id} } = $expect;
		$inserts++ if $expect->{inserted};
	}
	push @runs, { input => $input, out => '', err => '' };
}

# pgbench beside, through the same pool (simple protocol, as most clients)
my ($bench_out, $bench_err) = ('', '');
my $bench = IPC::Run::start(
	[ 'pgbench', '-n', '-c', '4', '-j', '2', '-T', '10', '-h', $dir, '-p', $port, 'postgres' ],
	'<', \undef, '>', \$bench_out, '2>', \$bench_err);

my $start = time;
foreach my $run (@runs)
{
	$run->{h} = IPC::Run::start([ $program, '-vv', $through ],
		'<', \$run->{input}, '>', \$run->{out}, '2>', \$run->{err},
		IPC::Run::timeout(120));
}
foreach my $run (@runs)
{
	ok($run->{h}->finish, 'an MCP process exited 0 at the end of its input')
	  or diag($run->{err});
}
my $elapsed = time - $start;
ok($bench->finish, 'pgbench beside ran without errors through PgBouncer')
  or diag($bench_err);
my ($tps) = $bench_out =~ /tps = ([0-9.]+)/;
note("pgbench beside: " . ($tps // '?') . " tps");

# --- every answer as it should be ------------------------------------------------------

my ($answered, $failed, $reprepared, $unnamed) = (0, 0, 0, 0);
my %seen;
foreach my $run (@runs)
{
	$reprepared += () = $run->{err} =~ /not found; preparing it again/g;
	$unnamed += () = $run->{err} =~ /running it unnamed/g;
	foreach my $line (split /\n/, $run->{out})
	{
		my $a = eval { $json->decode($line) };
		my $id = ref $a eq 'HASH' ? $a->{id} : undef;
		next if defined $id && $id eq 'init';
		my $e = defined $id ? $expected{$id} : undef;
		my $why = check_answer($a, $e);
		$seen{$id}++ if defined $id;
		$answered++;
		if ($why)
		{
			$failed++;
			diag("wrong answer ($why): $line") if $failed <= 10;
		}
	}
}
is($answered, $processes * $calls, "$processes processes x $calls calls: every call answered");
is($failed, 0, '0 failed calls: every answer is the one expected');
is(scalar(grep { $seen{$_} != 1 } keys %expected) + ($processes * $calls - scalar keys %seen),
	0, 'every id came back exactly once');
note("$answered calls through PgBouncer in ${elapsed}s; statements prepared again "
	  . "on another server connection: $reprepared; calls run unnamed: $unnamed");

is( $node->safe_psql('postgres',
		'SELECT count(*), count(DISTINCT (proc, seq)) FROM ins'),
	"$inserts|$inserts", "the $inserts inserted rows are there, once each");
my $exact = $node->safe_psql('postgres',
	q{SELECT count(*) FROM ins
	  WHERE big <> 123456789012345678901234567890 * (proc + 1) + seq});
is($exact, '0', '... with their 30-digit numbers exact');
cmp_ok(
	$node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity
		  WHERE datname = 'postgres' AND backend_type = 'client backend'
		  AND pid <> pg_backend_pid()}),
	'>=', 2, 'PgBouncer spread the calls over several server connections');

# --- HTTP with bearer tokens through the same pool -----------------------------------
#
# Two tokens map to two roles; the program connects through PgBouncer as an
# authenticator and runs each request as its token's role (set_config('role')
# and the call in one pipeline: one transaction).  Under row-level security
# each role may see its own rows only, so a role left behind on a pooled
# server connection, or a request run as another request's role, shows up
# as a foreign row.  8 clients x 40 calls at once, tokens alternating.

SKIP:
{
	skip 'curl is not installed', 11
	  unless system('curl --version >/dev/null 2>&1') == 0;

	$node->safe_psql(
		'postgres', q{
		CREATE ROLE authenticator LOGIN NOINHERIT;
		CREATE ROLE agent_a NOLOGIN;
		CREATE ROLE agent_b NOLOGIN;
		GRANT agent_a, agent_b TO authenticator;
		CREATE TABLE owned (id int PRIMARY KEY, owner name NOT NULL);
		INSERT INTO owned SELECT g, CASE WHEN g % 2 = 0 THEN 'agent_a' ELSE 'agent_b' END
		  FROM generate_series(1, 10) g;
		ALTER TABLE owned ENABLE ROW LEVEL SECURITY;
		CREATE POLICY own_rows ON owned USING (owner = current_user);
		GRANT SELECT ON owned TO agent_a, agent_b;
		-- a read-only agent with a row cap (its policy must hold under the
		-- program's set_config('role'): role_policy.c)
		CREATE ROLE agent_ro NOLOGIN;
		GRANT agent_ro TO authenticator;
		CREATE POLICY ro_rows ON owned TO agent_ro USING (true);
		GRANT SELECT, INSERT ON owned TO agent_ro, agent_a;
		LOAD 'neon_ai_tools';
		ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
		ALTER ROLE agent_ro SET neon_ai_tools.max_rows = 3;
	});
	PostgreSQL::Test::Utils::append_to_file("$dir/userlist.txt", qq{"authenticator" ""\n});
	$bouncer->signal('HUP');

	my %tokens = (
		agent_a => 'token-for-a-0123456789',
		agent_b => 'token-for-b-9876543210',
		agent_ro => 'token-for-ro-5555555555');
	open(my $tf, '>', "$dir/tokens") or die;
	for my $role (sort keys %tokens)
	{
		my $hash = `printf %s '$tokens{$role}' | sha256sum`;
		$hash =~ s/\s.*//s;
		print $tf "$role $hash\n";
	}
	close $tf;
	chmod 0600, "$dir/tokens";

	my $http_port = PostgreSQL::Test::Cluster::get_free_port();
	# its log goes to a file: a pipe nobody reads would fill and stop it
	my $server = IPC::Run::start(
		[ $program, '--http', "127.0.0.1:$http_port", '--pool-size', '6',
		  '--auth-tokens', "$dir/tokens",
		  "host=$dir port=$port dbname=postgres user=authenticator" ],
		'<', \undef, '>&', "$dir/server.log");
	my $url = "http://127.0.0.1:$http_port/mcp";
	my $ready = 0;
	for (1 .. 100)
	{
		$ready = 1, last if slurp_file("$dir/server.log") =~ /listening on/;
		select(undef, undef, undef, 0.05);
	}
	ok($ready, 'the program listens over HTTP with tokens')
	  or diag(slurp_file("$dir/server.log"));

	my $body = $json->encode(
		{
			jsonrpc => '2.0', id => 1, method => 'tools/call',
			params => {
				name => 'select_query',
				arguments => { table => 'owned' },
				_meta => {
					'io.modelcontextprotocol/protocolVersion' => '2026-07-28',
					'io.modelcontextprotocol/clientCapabilities' => {}
				}
			}
		});
	open(my $bf, '>', "$dir/body.json") or die;
	print $bf $body;
	close $bf;
	my @clients;
	for my $c (0 .. 7)
	{
		my $role = $c % 2 ? 'agent_b' : 'agent_a';
		my $script = "for i in \$(seq 1 40); do curl -s -H 'Content-Type: application/json' "
		  . "-H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' "
		  . "-H 'Mcp-Method: tools/call' -H 'Mcp-Name: select_query' "
		  . "-H 'Authorization: Bearer $tokens{$role}' --data-binary \@$dir/body.json $url; echo; done";
		my $out = '';
		push @clients, [ $role, \$out, IPC::Run::start([ 'bash', '-c', $script ], '>', \$out) ];
	}
	my ($answers, $wrong) = (0, 0);
	for my $client (@clients)
	{
		my ($role, $out, $h) = @$client;
		$h->finish;
		for my $line (split /\n/, $$out)
		{
			next if $line eq '';
			$answers++;
			my $answer = eval { $json->decode($line) };
			my $env = $answer && $answer->{result} && $answer->{result}{structuredContent};
			my @owners = $env && $env->{success} ? map { $_->{owner} } @{ $env->{data} } : ();
			next if @owners == 5 && !grep { $_ ne $role } @owners;
			diag("as $role: $line") if $wrong++ < 3;
		}
	}
	is($answers, 320, '8 clients x 40 calls over HTTP through PgBouncer: every call answered');
	is($wrong, 0, "each answer holds its own role's 5 rows only (row-level security as the token's role)");
	like(slurp_file("$dir/server.log"), qr/role=agent_a status=200 outcome=ok/,
		'the request log names the role');
	is(`psql -X -At -h $dir -p $port -U authenticator -d postgres -c 'SELECT current_user'`,
		"authenticator\n", 'a pooled server connection keeps no role after the calls');

	# one request as a token's role; the decoded answer
	my $request = sub {
		my ($role, $method, $params) = @_;
		my $mcp_name = $params->{name} ? "-H 'Mcp-Name: $params->{name}' " : '';
		open(my $rf, '>', "$dir/request.json") or die;
		print $rf $json->encode(
			{
				jsonrpc => '2.0', id => 1, method => $method,
				params => {
					%$params,
					_meta => {
						'io.modelcontextprotocol/protocolVersion' => '2026-07-28',
						'io.modelcontextprotocol/clientCapabilities' => {}
					}
				}
			});
		close $rf;
		my $out = `curl -s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: $method' $mcp_name-H 'Authorization: Bearer $tokens{$role}' --data-binary \@$dir/request.json $url`;
		return eval { $json->decode($out) } // { raw => $out };
	};
	my $insert = { name => 'insert_data', arguments => { table => 'owned', rows => { id => 100, owner => 'agent_ro' } } };
	my $answer = $request->('agent_ro', 'tools/call', $insert);
	is($answer->{result}{structuredContent}{errorType} // '', 'tool_disabled',
		"a read-only role's policy holds over HTTP: its insert is refused")
	  or diag($json->encode($answer));
	$answer = $request->('agent_ro', 'tools/call', { name => 'select_query', arguments => { table => 'owned' } });
	is($answer->{result}{structuredContent}{rowCount} // '', '3', "... its max_rows holds: 3 of 10 rows");
	$answer = $request->('agent_ro', 'tools/list', {});
	is(join(',', grep { /insert|update|delete/ } map { $_->{name} } @{ $answer->{result}{tools} // [] }),
		'', '... tools/list leaves out the write tools');
	$answer = $request->('agent_a', 'tools/call',
		{ name => 'insert_data', arguments => { table => 'owned', rows => { id => 101, owner => 'agent_a' } } });
	is($answer->{result}{structuredContent}{success} ? 'yes' : 'no', 'yes',
		'... while a role without that policy writes through the same program')
	  or diag($json->encode($answer));
	$answer = $request->('agent_a', 'tools/list', {});
	ok((grep { $_->{name} eq 'insert_data' } @{ $answer->{result}{tools} // [] }),
		'... and is offered the write tools');
	$server->signal('TERM');
	ok($server->finish, 'SIGTERM: the program exits with 0')
	  or diag(slurp_file("$dir/server.log"));
}

$bouncer->kill_kill;
$node->stop;
done_testing();

# What is wrong with answer $a for expectation $e ('' when nothing).
sub check_answer
{
	my ($a, $e) = @_;
	return 'not JSON-RPC' unless ref $a eq 'HASH' && defined $a->{id};
	return 'unknown id' unless $e;
	return "JSON-RPC error $a->{error}{code}" if $a->{error};
	my $r = $a->{result};
	if ($e->{kind} eq 'list')
	{
		return 'no tools' unless ref $r->{tools} eq 'ARRAY' && @{ $r->{tools} } >= 8;
		return '';
	}
	my $env = $r->{structuredContent};
	return 'no envelope' unless ref $env eq 'HASH';
	if ($e->{error})
	{
		return 'not an error' unless $r->{isError} && !$env->{success};
		return "errorType $env->{errorType}" unless ($env->{errorType} // '') eq $e->{error};
		return '';
	}
	return "failed: " . ($env->{errorType} // '?') . ': ' . ($env->{error} // '')
	  if $r->{isError} || !$env->{success};
	if ($e->{inserted})
	{
		return 'not 1 row inserted' unless ($env->{affectedRows} // -1) == 1;
		return '';
	}
	return 'rows differ'
	  unless $json->encode($env->{data}) eq $json->encode($e->{rows});
	return '';
}
