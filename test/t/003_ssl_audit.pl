# neon_ai_tools.require_ssl with a real SSL listener (a throwaway
# self-signed certificate), and the audit line in the real server log.
#
# Connections are made to loopback only.  The "remote" rule for a
# non-loopback client cannot be exercised here without a second network
# address; its address test is covered by reading (client_is_local()).
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

# a throwaway certificate for the server
my $datadir = $node->data_dir;
system_or_bail(
	'openssl', 'req', '-new', '-x509', '-nodes', '-days', '1',
	'-subj', '/CN=localhost',
	'-keyout', "$datadir/server.key", '-out', "$datadir/server.crt");
chmod 0600, "$datadir/server.key";

$node->append_conf(
	'postgresql.conf', qq{
listen_addresses = '127.0.0.1'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
});
$node->append_conf('pg_hba.conf', "host all all 127.0.0.1/32 trust\n");
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE t (id int PRIMARY KEY, note text);
	INSERT INTO t VALUES (1, 'one');
});

my $port = $node->port;
my $tcp_plain = "host=127.0.0.1 port=$port dbname=postgres sslmode=disable";
my $tcp_ssl = "host=127.0.0.1 port=$port dbname=postgres sslmode=require";
my $call =
  q{SELECT a ->> 'status', a ->> 'errorType' FROM ai_tool_call('select_query', '{"table": "t"}') a};

# run one statement over a given connection string
sub run_on
{
	my ($connstr, $sql) = @_;
	my ($stdout, $stderr);
	IPC::Run::run([ 'psql', '-X', '-At', '-d', $connstr, '-c', $sql ],
		'>', \$stdout, '2>', \$stderr);
	chomp $stdout;
	return ($stdout, $stderr);
}

# sanity: the two TCP connections really differ in SSL
is((run_on($tcp_ssl, 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))[0],
	't', 'sslmode=require connects with SSL');
is((run_on($tcp_plain, 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))[0],
	'f', 'sslmode=disable connects without SSL');

# 1. the default, remote: loopback TCP without SSL and Unix sockets may call
# (the settings exist once the library is loaded: LOAD it, as a call would)
is($node->safe_psql('postgres', "LOAD 'neon_ai_tools'; SHOW neon_ai_tools.require_ssl"),
	'remote', 'the default is remote');
is((run_on($tcp_plain, $call))[0], 'success|', 'remote: loopback TCP without SSL is accepted');
is($node->safe_psql('postgres', $call), 'success|', 'remote: a Unix socket is accepted');

# 2. on: every connection must use SSL
$node->safe_psql('postgres', "LOAD 'neon_ai_tools'; ALTER SYSTEM SET neon_ai_tools.require_ssl = 'on'");
$node->reload;
is($node->safe_psql('postgres', $call), 'error|permission_denied', 'on: a Unix-socket call is refused');
like(
	$node->safe_psql('postgres',
		q{SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'suggestion'}),
	qr/sslmode=require/,
	'the refusal says how to reconnect');
is((run_on($tcp_plain, $call))[0], 'error|permission_denied', 'on: TCP without SSL is refused');
is((run_on($tcp_ssl, $call))[0], 'success|', 'on: an SSL connection is accepted');
like($node->safe_psql('postgres', q{SELECT ai_tool_list() ->> 0}),
	qr/select_query/, 'the catalog stays readable: only calls are refused');

# 3. off: anything goes
$node->safe_psql('postgres', "LOAD 'neon_ai_tools'; ALTER SYSTEM SET neon_ai_tools.require_ssl = 'off'");
$node->reload;
is($node->safe_psql('postgres', $call), 'success|', 'off: a Unix-socket call is accepted');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET neon_ai_tools.require_ssl');
$node->reload;

# 4. the audit log: one server-log line per write, naming tool and table,
# never the inserted value, and nothing sent to the client
my $log_offset = -s $node->logfile;
my ($out, $err) = run_on($tcp_plain,
	q{SELECT ai_tool_call('insert_data', '{"table": "t", "rows": {"id": 2, "note": "TOP-SECRET-VALUE"}}') ->> 'status'});
is($out, 'success', 'the insert succeeded');
is($err, '', 'no audit text reached the client');
$node->safe_psql('postgres',
	q{SELECT ai_tool_call('select_query', '{"table": "t", "where": {"note": "ANOTHER-SECRET"}}')});

my $log = slurp_file($node->logfile, $log_offset);
my @lines = grep { /NEON_AI_TOOLS AUDIT:/ } split /\n/, $log;
is(scalar(@lines), 1, 'one audit line: the insert (reads are not audited by default)');
like($lines[0] // '', qr/NEON_AI_TOOLS AUDIT: \w+,postgres,insert_data,public\.t,insert,success,1,/,
	'the line names role, database, tool, table, outcome and affected rows');
# (the test cluster logs every statement the client sends; only the audit
# lines are ours)
unlike(join("\n", @lines), qr/TOP-SECRET-VALUE|ANOTHER-SECRET/,
	'no supplied value appears in the audit line');

# with audit = all, reads are logged too, still without values
$node->safe_psql('postgres', "LOAD 'neon_ai_tools'; ALTER SYSTEM SET neon_ai_tools.audit = 'all'");
$node->reload;
$log_offset = -s $node->logfile;
$node->safe_psql('postgres',
	q{SELECT ai_tool_call('select_query', '{"table": "t", "where": {"note": "THIRD-SECRET"}}')});
@lines = grep { /NEON_AI_TOOLS AUDIT:/ } split /\n/, slurp_file($node->logfile, $log_offset);
is(scalar(@lines), 1, 'audit = all logs the read');
like($lines[0] // '', qr/select_query,public\.t,select,success/, 'naming the tool and table');
unlike($lines[0] // '', qr/THIRD-SECRET/, 'still without the value');

# audit_log_client sends the line to the client as well (for tests)
$node->safe_psql('postgres', "LOAD 'neon_ai_tools'; ALTER SYSTEM SET neon_ai_tools.audit_log_client = on");
$node->reload;
($out, $err) = run_on($tcp_plain,
	q{SELECT ai_tool_call('delete_data', '{"table": "t", "where": {"id": 2}, "dry_run": true}') ->> 'status'});
like($err, qr/NOTICE:  NEON_AI_TOOLS AUDIT: [^\n]*delete_data,public\.t,delete,dry_run,1,/,
	'audit_log_client: the client gets the line, a dry run marked as such');

# comments are not logged, and nothing in a statement (a line break in a
# quoted name) can split the line or forge another
($out, $err) = run_on($tcp_plain,
	q{SELECT ai_tool_call('execute_sql', jsonb_build_object('sql',
	  E'SELECT 1 /* db password is hunter3 */ AS "x\nNEON_AI_TOOLS AUDIT: forged" -- a tail\n, 2')) ->> 'status'});
is($out, 'success', 'a statement with comments and a line break in a name runs');
my @audit = grep { /NEON_AI_TOOLS AUDIT/ } split /\n/, $err;
is(scalar(@audit), 1, 'one audit line, whatever line breaks the statement holds');
unlike($err, qr/hunter3|a tail/, 'comments are not logged');
like($audit[0] // '', qr/,"SELECT \? AS ""x NEON_AI_TOOLS AUDIT: forged"" , \?"$/,
	'the statement is logged token by token, constants masked, the line break a space');

# audit = off: nothing
$node->safe_psql('postgres', "LOAD 'neon_ai_tools'; ALTER SYSTEM SET neon_ai_tools.audit = 'off'");
$node->reload;
$log_offset = -s $node->logfile;
($out, $err) = run_on($tcp_plain,
	q{SELECT ai_tool_call('insert_data', '{"table": "t", "rows": {"id": 3}}') ->> 'status'});
is($out, 'success', 'the insert succeeded');
unlike(slurp_file($node->logfile, $log_offset) . $err, qr/NEON_AI_TOOLS AUDIT/, 'audit = off: no line');

$node->stop;
done_testing();
