# A client's startup options (PGOPTIONS="-c neon_ai_tools.X=...") never
# lower the policy an administrator set: for each of the seven policy
# settings, a value set with ALTER ROLE, ALTER ROLE ... IN DATABASE,
# ALTER DATABASE, ALTER ROLE ALL, ALTER SYSTEM and in postgresql.conf (an
# included file) stays in force when a non-superuser connects with options
# that try to loosen all seven at once.
#
# Run three times: the library loaded late (the first call loads it),
# through session_preload_libraries, and through shared_preload_libraries
# (where PostgreSQL itself refuses the connection).  A superuser's -c, a
# role granted SET ON PARAMETER, and a client's value of a user-settable
# setting are still honoured.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $node = nat_node('main');

# require_ssl is checked over TCP with and without SSL (a throwaway
# certificate); the other checks run over SSL so that require_ssl = on does
# not hide them
my $datadir = $node->data_dir;
system_or_bail(
	'openssl', 'req', '-new', '-x509', '-nodes', '-days', '1',
	'-subj', '/CN=localhost',
	'-keyout', "$datadir/server.key", '-out', "$datadir/server.crt");
chmod 0600, "$datadir/server.key";

# policy.conf is the postgresql.conf layer: rewritten by the test, included
# from postgresql.conf
append_to_file("$datadir/policy.conf", '');
$node->append_conf(
	'postgresql.conf', qq{
listen_addresses = '127.0.0.1'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
include_if_exists = 'policy.conf'
});
$node->append_conf('pg_hba.conf', "host all all 127.0.0.1/32 trust\n");
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE pol');
$node->safe_psql(
	'pol', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE agent LOGIN;
	CREATE ROLE granted_agent LOGIN;
	CREATE ROLE authenticator LOGIN NOINHERIT;
	GRANT agent TO authenticator;
	CREATE TABLE t (id int PRIMARY KEY, note text);
	GRANT SELECT, INSERT, UPDATE, DELETE ON t TO agent, granted_agent;
});

my $port = $node->port;
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');
my %conn = (
	ssl => "host=127.0.0.1 port=$port dbname=pol user=agent sslmode=require",
	plain => "host=127.0.0.1 port=$port dbname=pol user=agent sslmode=disable",
	granted => "host=127.0.0.1 port=$port dbname=pol user=granted_agent sslmode=require",
	auth_ssl => "host=127.0.0.1 port=$port dbname=pol user=authenticator sslmode=require",
	auth_plain => "host=127.0.0.1 port=$port dbname=pol user=authenticator sslmode=disable",
	superuser => "host=127.0.0.1 port=$port dbname=pol user=$superuser sslmode=require");

# The administrator's strict values and the client's permissive ones.
# read_only = off and enabled_tools = * equal the built-in defaults: a
# client's value must be refused even when it changes nothing visible.
my @policy = qw(audit enabled_tools max_affected_rows max_rows max_timeout read_only require_ssl);
my %strict = (
	audit => 'all',
	enabled_tools => 'select_query,delete_data',
	max_affected_rows => '2',
	max_rows => '3',
	max_timeout => '1s',
	read_only => 'on',
	require_ssl => 'on');
my $attack = join ' ',
  map { "-c neon_ai_tools.$_" }
  ('audit=off', 'enabled_tools=*', 'max_affected_rows=100000', 'max_rows=100000',
	'max_timeout=1h', 'read_only=off', 'require_ssl=off');

# run a script as a client with the given startup options
sub run_as
{
	my ($connstr, $sql, $options) = @_;
	my ($stdout, $stderr) = ('', '');
	local $ENV{PGOPTIONS} = $options // '';
	IPC::Run::run([ 'psql', '-X', '-q', '-At', '-d', $connstr, '-f', '-' ],
		'<', \$sql, '>', \$stdout, '2>', \$stderr);
	chomp $stdout;
	return ($stdout, $stderr);
}

# reload the configuration and wait until new sessions see it
sub reload_and_wait
{
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
	$node->reload;
	$node->poll_query_until('postgres', "SELECT pg_conf_load_time() > '$before'")
	  or die 'the reload was not seen';
}

# The administrator's layers: set a hash of settings in one, or clear it.
my %layers = (
	'ALTER ROLE' => {
		set => sub {
			$node->safe_psql('pol',
				join ';', map { "ALTER ROLE agent SET neon_ai_tools.$_ = '$_[0]{$_}'" } sort keys %{ $_[0] });
		},
		clear => sub { $node->safe_psql('pol', 'ALTER ROLE agent RESET ALL') },
	},
	'ALTER ROLE IN DATABASE' => {
		set => sub {
			$node->safe_psql('pol',
				join ';',
				map { "ALTER ROLE agent IN DATABASE pol SET neon_ai_tools.$_ = '$_[0]{$_}'" }
				  sort keys %{ $_[0] });
		},
		clear => sub { $node->safe_psql('pol', 'ALTER ROLE agent IN DATABASE pol RESET ALL') },
	},
	'ALTER DATABASE' => {
		set => sub {
			$node->safe_psql('pol',
				join ';', map { "ALTER DATABASE pol SET neon_ai_tools.$_ = '$_[0]{$_}'" } sort keys %{ $_[0] });
		},
		clear => sub { $node->safe_psql('pol', 'ALTER DATABASE pol RESET ALL') },
	},
	'ALTER ROLE ALL' => {
		set => sub {
			$node->safe_psql('pol',
				join ';', map { "ALTER ROLE ALL SET neon_ai_tools.$_ = '$_[0]{$_}'" } sort keys %{ $_[0] });
		},
		clear => sub { $node->safe_psql('pol', 'ALTER ROLE ALL RESET ALL') },
	},
	'ALTER SYSTEM' => {
		set => sub {
			$node->safe_psql('postgres',
				join ';', "LOAD 'neon_ai_tools'",
				map { "ALTER SYSTEM SET neon_ai_tools.$_ = '$_[0]{$_}'" } sort keys %{ $_[0] });
			reload_and_wait();
		},
		clear => sub {
			$node->safe_psql('postgres',
				join ';', "LOAD 'neon_ai_tools'", map { "ALTER SYSTEM RESET neon_ai_tools.$_" } @policy);
			reload_and_wait();
		},
	},
	'postgresql.conf' => {
		set => sub {
			my $lines = join '', map { "neon_ai_tools.$_ = '$_[0]{$_}'\n" } sort keys %{ $_[0] };
			unlink "$datadir/policy.conf";
			append_to_file("$datadir/policy.conf", $lines);
			reload_and_wait();
		},
		clear => sub {
			unlink "$datadir/policy.conf";
			append_to_file("$datadir/policy.conf", '');
			reload_and_wait();
		},
	},
);
my @layer_order =
  ('ALTER ROLE', 'ALTER ROLE IN DATABASE', 'ALTER DATABASE', 'ALTER ROLE ALL', 'ALTER SYSTEM', 'postgresql.conf');

# 20 rows, before every scenario
sub reset_table
{
	$node->safe_psql('pol',
		q{TRUNCATE t; INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 20) g});
}

my $show_policy =
  q{SELECT string_agg(current_setting('neon_ai_tools.' || n), ' ' ORDER BY n) FROM unnest(ARRAY['}
  . join(q{','}, @policy) . q{']) n;};

# How the calls reach the role agent: by logging in as agent, or by
# logging in as authenticator and then SET ROLE agent, or in a transaction
# after set_config('role', 'agent', true) (SET LOCAL ROLE, as
# neon-ai-tools-mcp runs a call): agent's ALTER ROLE values must hold in
# each (role_policy.c), whatever options the login sends.
my %via = (
	login => { conn => 'ssl', plain => 'plain', begin => '', end => '' },
	'SET ROLE' => {
		conn => 'auth_ssl',
		plain => 'auth_plain',
		begin => "SET ROLE agent;\n",
		end => ''
	},
	'SET LOCAL ROLE' => {
		conn => 'auth_ssl',
		plain => 'auth_plain',
		begin => "BEGIN;\nSELECT set_config('role', 'agent', true) \\g /dev/null\n",
		end => "COMMIT;\n"
	});

# All seven strict values in one layer: each one still holds.  The first
# statement is a call, so that it loads the library when nothing else has.
# Reached through SET ROLE, the session (authenticator's) values are what
# SHOW says: the check of the shown values is left out.
sub check_all_seven
{
	my ($what, $options, $how) = @_;
	my $via = $via{ $how // 'login' };
	reset_table();
	my $log_offset = -s $node->logfile;
	my ($out, $err) = run_as(
		$conn{ $via->{conn} }, $via->{begin} . q{
SELECT a ->> 'errorType', (a ->> 'error') LIKE '%read-only%' FROM ai_tool_call('delete_data', '{"table": "t", "where": "id > 5"}') a;
SELECT count(*) FROM t;
SELECT a ->> 'errorType', (a ->> 'error') LIKE '%not enabled%' FROM ai_tool_call('describe_table', '{"table": "t"}') a;
SELECT a ->> 'status', a ->> 'rowCount' FROM ai_tool_call('select_query', '{"table": "t"}') a;
SELECT a ->> 'errorType' FROM ai_tool_call('select_query', '{"table": "t", "timeout_ms": 5000}') a;
} . $show_policy . $via->{end}, $options);
	my @lines = split /\n/, $out;
	is($lines[0] // '', 'tool_disabled|t', "$what: read_only: delete_data refused as a write");
	is($lines[1] // '', '20', "$what: read_only: no row deleted");
	is($lines[2] // '', 'tool_disabled|t', "$what: enabled_tools: describe_table not enabled");
	is($lines[3] // '', 'success|3', "$what: max_rows: 3 rows");
	is($lines[4] // '', 'invalid_parameters', "$what: max_timeout: a 5 s call refused");
	is($lines[5] // '', join(' ', map { $strict{$_} } @policy), "$what: all seven shown as set")
	  unless defined $how;
	unlike($err, qr/ERROR|FATAL/, "$what: no error") or diag($err);

	my @audit = grep { /NEON_AI_TOOLS AUDIT: agent,pol,select_query/ }
	  split /\n/, slurp_file($node->logfile, $log_offset);
	ok(scalar(@audit) >= 1, "$what: audit: the read is in the server log");

	($out, $err) = run_as($conn{ $via->{plain} },
		$via->{begin}
		  . q{SELECT a ->> 'errorType' FROM ai_tool_call('select_query', '{"table": "t"}') a;}
		  . $via->{end},
		$options);
	is($out, 'permission_denied', "$what: require_ssl: a call without SSL refused");
}

# max_affected_rows alone in one layer (read_only would hide it)
sub check_max_affected
{
	my ($what, $options) = @_;
	reset_table();
	my ($out, $err) = run_as(
		$conn{ssl}, q{
SELECT a ->> 'status' FROM ai_tool_call('delete_data', '{"table": "t", "where": "id > 5"}') a;
SELECT count(*) FROM t;
SHOW neon_ai_tools.max_affected_rows;
}, $options);
	is($out, "error\n20\n2", "$what: max_affected_rows: 15 rows not deleted");
}

# each layer, without and with the client's options
sub check_layers
{
	my ($mode) = @_;
	foreach my $layer (@layer_order)
	{
		$layers{$layer}{set}->(\%strict);
		check_all_seven("$mode, $layer", undef);
		check_all_seven("$mode, $layer, PGOPTIONS", $attack);
		# a role's own layers, reached without logging in as the role
		if ($layer =~ /^ALTER ROLE( IN DATABASE)?$/)
		{
			foreach my $how ('SET ROLE', 'SET LOCAL ROLE')
			{
				check_all_seven("$mode, $layer, authenticator, $how", undef, $how);
				check_all_seven("$mode, $layer, authenticator, PGOPTIONS, $how", $attack, $how);
			}
		}
		$layers{$layer}{clear}->();

		$layers{$layer}{set}->({ max_affected_rows => 2 });
		check_max_affected("$mode, $layer", undef);
		check_max_affected("$mode, $layer, PGOPTIONS", $attack);
		$layers{$layer}{clear}->();
	}
}

# what keeps working: a superuser's -c, a role granted SET ON PARAMETER,
# a user-settable setting, and a connection without options
sub check_exceptions
{
	my ($mode, $shared) = @_;
	reset_table();
	$layers{'ALTER SYSTEM'}{set}->({ max_rows => 3 });
	my ($out, $err) = run_as($conn{superuser},
		q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'rowCount'; SHOW neon_ai_tools.max_rows},
		'-c neon_ai_tools.max_rows=7');
	is($out, "7\n7", "$mode: a superuser's -c is honoured");
	$layers{'ALTER SYSTEM'}{clear}->();

	$layers{'ALTER ROLE'}{set}->({ max_rows => 3 });
	($out, $err) = run_as($conn{ssl},
		q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'rowCount'; SHOW neon_ai_tools.max_rows},
		'-c neon_ai_tools.row_limit=2' . ($shared ? '' : ' -c neon_ai_tools.max_rows=100'));
	is($out, "2\n3", "$mode: a user-settable -c is honoured, max_rows is not");
	($out, $err) = run_as($conn{ssl},
		q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'rowCount'});
	is($out, '3', "$mode: without options the role's value applies");
	is($err, '', "$mode: without options nothing is reported");
	$layers{'ALTER ROLE'}{clear}->();
}

# the administrator's layers keep their order: role in database, role,
# database, all roles, ALTER SYSTEM, postgresql.conf
sub check_precedence
{
	my ($mode) = @_;
	reset_table();
	$layers{'postgresql.conf'}{set}->({ max_rows => 7 });
	$layers{'ALTER SYSTEM'}{set}->({ max_rows => 6 });
	$layers{'ALTER ROLE ALL'}{set}->({ max_rows => 5 });
	$layers{'ALTER DATABASE'}{set}->({ max_rows => 4 });
	$layers{'ALTER ROLE'}{set}->({ max_rows => 3 });
	$layers{'ALTER ROLE IN DATABASE'}{set}->({ max_rows => 2 });
	foreach my $step (
		[ 2, 'ALTER ROLE IN DATABASE' ],
		[ 3, 'ALTER ROLE' ],
		[ 4, 'ALTER DATABASE' ],
		[ 5, 'ALTER ROLE ALL' ],
		[ 6, 'ALTER SYSTEM' ],
		[ 7, 'postgresql.conf' ])
	{
		my ($rows, $layer) = @$step;
		my ($out, $err) = run_as($conn{ssl},
			q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'rowCount'}, $attack);
		is($out, $rows, "$mode, PGOPTIONS: $layer wins over the layers below it ($rows rows)");
		$layers{$layer}{clear}->();
	}
}

# a role value that cannot be applied again: calls fail closed
sub check_fail_closed
{
	my ($mode) = @_;
	# stored by a session that has not loaded the library, so unchecked
	my ($out, $err) = run_as($conn{superuser},
		q{ALTER ROLE agent SET neon_ai_tools.max_rows = 'lots'}, '-c session_preload_libraries=');
	is($err, '', "$mode: an invalid role value stored");
	($out, $err) = run_as($conn{ssl},
		q{SELECT ai_tool_call('list_tables') ->> 'status'; SELECT ai_tool_list() IS NOT NULL},
		'-c neon_ai_tools.max_rows=100');
	is($out, '', "$mode, PGOPTIONS: no call answers");
	like(
		$err,
		qr/ERROR:  neon_ai_tools cannot enforce its settings in this session\n.*HINT:  Reconnect without "-c neon_ai_tools\.\*"/s,
		"$mode, PGOPTIONS: the call fails closed and says how to reconnect");
	is(scalar(() = $err =~ /ERROR:  neon_ai_tools cannot enforce/g), 2, "$mode, PGOPTIONS: so does the catalog");
	($out, $err) = run_as($conn{ssl}, q{SELECT ai_tool_call('list_tables') ->> 'status'});
	is($out, 'success', "$mode: without options, PostgreSQL's own rule (the default) applies");
	like($err, qr/WARNING:  invalid value for parameter "neon_ai_tools\.max_rows"/,
		"$mode: without options, with PostgreSQL's warning");
	$layers{'ALTER ROLE'}{clear}->();
}

# --- 1. late load: the first call loads the library -------------------------

check_layers('late load');
check_exceptions('late load');
check_precedence('late load');
check_fail_closed('late load');

# the server log says what happened
like(slurp_file($node->logfile),
	qr/LOG:  neon_ai_tools: the client's value of neon_ai_tools\.audit, neon_ai_tools\.enabled_tools, .*neon_ai_tools\.require_ssl was refused; the administrator's settings \(roles, databases, configuration files\) were applied again/,
	'the server log names the refused settings');

# a role granted SET on one parameter keeps that one -c, and only that one
$node->safe_psql(
	'pol', q{
	GRANT SET ON PARAMETER neon_ai_tools.max_rows TO granted_agent;
	ALTER ROLE granted_agent SET neon_ai_tools.max_rows = 3;
	ALTER ROLE granted_agent SET neon_ai_tools.read_only = on;
});
my ($out, $err) = run_as($conn{granted},
	q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'rowCount'; SHOW neon_ai_tools.read_only},
	'-c neon_ai_tools.max_rows=7 -c neon_ai_tools.read_only=off');
is($out, "7\non", 'GRANT SET ON PARAMETER: that -c is honoured, the others are not');
$node->safe_psql('pol', 'ALTER ROLE granted_agent RESET ALL');

# the names are case-insensitive, and so is the rule
$layers{'ALTER ROLE'}{set}->({ read_only => 'on' });
($out, $err) = run_as($conn{ssl},
	q{SELECT ai_tool_call('delete_data', '{"table": "t", "where": "id > 5"}') ->> 'errorType'; SHOW neon_ai_tools.read_only},
	'-c NEON_AI_TOOLS.READ_ONLY=off');
is($out, "tool_disabled\non", 'an upper-case name is refused too');

# loaded inside a transaction that rolls back: the role's value stays
($out, $err) = run_as($conn{ssl}, q{
BEGIN;
SELECT ai_tool_call('list_tables') ->> 'status';
SELECT 1/0;
ROLLBACK;
SHOW neon_ai_tools.read_only;
}, '-c neon_ai_tools.read_only=off');
is($out, "success\non", 'a rolled back loading transaction keeps the role value');
$layers{'ALTER ROLE'}{clear}->();

# --- 2. session_preload_libraries ------------------------------------------

$node->append_conf('postgresql.conf', "session_preload_libraries = 'neon_ai_tools'\n");
reload_and_wait();
check_layers('session_preload_libraries');
check_exceptions('session_preload_libraries');
check_precedence('session_preload_libraries');
check_fail_closed('session_preload_libraries');

# --- 3. shared_preload_libraries: PostgreSQL refuses the connection ---------

$node->append_conf('postgresql.conf',
	"session_preload_libraries = ''\nshared_preload_libraries = 'neon_ai_tools'\n");
$node->restart;
foreach my $layer (@layer_order)
{
	$layers{$layer}{set}->(\%strict);
	check_all_seven("shared_preload_libraries, $layer", undef);
	check_all_seven("shared_preload_libraries, $layer, authenticator, SET ROLE", undef, 'SET ROLE')
	  if $layer =~ /^ALTER ROLE( IN DATABASE)?$/;
	($out, $err) = run_as($conn{ssl}, 'SELECT 1', $attack);
	like($err, qr/FATAL:  permission denied to set parameter "neon_ai_tools\./,
		"shared_preload_libraries, $layer, PGOPTIONS: the connection is refused");
	is($out, '', "shared_preload_libraries, $layer, PGOPTIONS: nothing ran");
	$layers{$layer}{clear}->();
}
check_exceptions('shared_preload_libraries', 1);

$node->stop;
done_testing();
