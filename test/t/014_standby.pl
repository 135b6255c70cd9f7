# A hot standby (recovery in progress), where nothing can be written:
# ai_tool_list() leaves out the write tools in every format (and so does
# the MCP program's tools/list), calling one answers read_only_violation
# saying the server is a standby and to write on the primary, and a write
# that reaches the engine (execute_sql with an INSERT, a function that
# inserts) gets the same advice.  Reading works as usual, and the primary
# of the same data lists and runs every tool.
use strict;
use warnings;

use IPC::Run;
use JSON::PP;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $json = JSON::PP->new->canonical;
my @all_tools = qw(select_query insert_data update_data delete_data
  execute_sql explain_query list_tables describe_table);
my @read_tools = qw(select_query execute_sql explain_query list_tables
  describe_table);

my $primary = nat_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE ROLE agent LOGIN;
	CREATE ROLE reader LOGIN;
	ALTER ROLE reader SET neon_ai_tools.read_only = on;
	CREATE TABLE items (id int PRIMARY KEY, name text);
	INSERT INTO items VALUES (1, 'one'), (2, 'two');
	GRANT SELECT, INSERT, UPDATE, DELETE ON items TO agent, reader;
	CREATE FUNCTION add_item(i int) RETURNS int LANGUAGE sql
		AS $$ INSERT INTO items VALUES (i, 'added') RETURNING id $$;
	CREATE FUNCTION count_items() RETURNS bigint VOLATILE LANGUAGE sql
		AS $$ SELECT count(*) FROM items $$;
});
$primary->backup('base');

my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'),
	't', 'the standby is in recovery');

# ai_tool_call(tool, args) as a role, decoded
sub call
{
	my ($node, $tool, $args, $role) = @_;
	$args =~ s/'/''/g;
	return $json->decode(
		$node->safe_psql(
			'postgres', "SELECT ai_tool_call('$tool', '$args')",
			extra_params => [ '-U', $role || 'agent' ]));
}

# the tool names of ai_tool_list(format), in catalog order
sub tool_names
{
	my ($node, $format) = @_;
	my $list = $json->decode(
		$node->safe_psql(
			'postgres', "SELECT ai_tool_list('$format')",
			extra_params => [ '-U', 'agent' ]));
	return [ map { $format eq 'openai' ? $_->{function}{name} : $_->{name} }
		  @$list ];
}

# --- the catalog ------------------------------------------------------------------

is_deeply(tool_names($primary, 'native'), \@all_tools,
	'primary: every tool is listed');
foreach my $format (qw(native openai anthropic mcp))
{
	is_deeply(tool_names($standby, $format), \@read_tools,
		"standby: ai_tool_list('$format') lists the reading tools only");
}

# --- write tools on the standby -----------------------------------------------------

my $standby_advice = qr/read-only hot standby \(recovery in progress\).*primary/;
foreach my $case (
	[ 'insert_data', '{"table": "items", "rows": {"id": 3, "name": "three"}}' ],
	[ 'update_data', '{"table": "items", "set": {"name": "uno"}, "where": {"id": 1}}' ],
	[ 'delete_data', '{"table": "items", "where": {"id": 1}}' ],
	[ 'delete_data', '{"table": "items", "mode": "truncate", "confirm": true}', ' (truncate)' ])
{
	my ($tool, $args, $label) = @$case;
	$label //= '';
	my $r = call($standby, $tool, $args);
	is_deeply(
		[
			$r->{success}, $r->{errorType}, $r->{error_type},
			$r->{sqlState}, $r->{retryable}
		],
		[ JSON::PP::false, 'read_only_violation', 'read_only', '25006', JSON::PP::false ],
		"standby: $tool$label answers read_only_violation 25006");
	is($r->{error}, qq{tool "$tool" writes, and the server is a read-only hot standby},
		"standby: $tool$label says why");
	like($r->{suggestion}, $standby_advice, "standby: $tool$label advises the primary");
}

# a misspelt write tool is not matched to a tool the standby does not offer
{
	my $r = call($standby, 'insert_dat', '{}');
	is($r->{errorType}, 'unknown_tool', 'standby: a misspelt tool is unknown');
	unlike($r->{suggestion} // '', qr/insert_data/,
		'standby: the suggestion names no write tool');
}

# the role's read-only mode says what it says on the primary
{
	my $r = call($standby, 'insert_data', '{"table": "items", "rows": {"id": 3}}', 'reader');
	is($r->{errorType}, 'tool_disabled', 'standby, read-only role: tool_disabled');
	like($r->{suggestion}, qr/neon_ai_tools\.read_only is on/,
		'standby, read-only role: the read-only advice');
}

# --- writes that reach the engine ----------------------------------------------------

foreach my $case (
	[ 'an INSERT', q{INSERT INTO items VALUES (3, 'three')}, 'INSERT' ],
	[ 'a function that inserts', 'SELECT add_item(3)', 'INSERT' ],
	[ 'an INSERT with RETURNING', q{INSERT INTO items VALUES (3, 'x') RETURNING id}, 'INSERT' ],
	[ 'a CREATE TABLE', 'CREATE TABLE t (id int)', 'CREATE TABLE' ])
{
	my ($what, $sql, $command) = @$case;
	my $r = call($standby, 'execute_sql', $json->encode({ sql => $sql }));
	is_deeply(
		[ $r->{errorType}, $r->{error_type}, $r->{sqlState} ],
		[ 'read_only_violation', 'read_only', '25006' ],
		"standby: execute_sql with $what answers read_only_violation");
	is($r->{error}, "cannot execute $command in a read-only transaction",
		"standby: execute_sql with $what: the engine's message");
	like($r->{suggestion}, $standby_advice,
		"standby: execute_sql with $what advises the primary");
}

# what only recovery forbids: a transaction id
{
	my $r = call($standby, 'execute_sql', '{"sql": "SELECT pg_current_xact_id()"}');
	is_deeply(
		[ $r->{errorType}, $r->{sqlState}, $r->{error} ],
		[ 'read_only_violation', '25006', 'cannot execute pg_current_xact_id() during recovery' ],
		'standby: pg_current_xact_id() answers read_only_violation');
	like($r->{suggestion}, $standby_advice, 'standby: pg_current_xact_id() advises the primary');
}

# a call that is read-only by its own choice keeps its own advice
{
	my $r = call($standby, 'execute_sql',
		q({"sql": "INSERT INTO items VALUES (3, 'x')", "read_only": true}));
	is($r->{errorType}, 'read_only_violation', 'standby, read_only call: refused');
	like($r->{suggestion}, qr/^This call is read-only/, 'standby, read_only call: its own advice');
}

# a read-only call that refuses a volatile function (which only reads) is
# refused by the call, as on the primary: not the standby's advice, since
# the same call without read_only reads on the standby
foreach my $case (
	[ 'execute_sql', '{"sql": "SELECT count_items() AS n", "read_only": true}' ],
	[ 'explain_query', '{"sql": "SELECT count_items() AS n", "analyze": true}' ])
{
	my ($tool, $args) = @$case;
	my $r = call($standby, $tool, $args);
	is_deeply(
		[ $r->{errorType}, $r->{sqlState}, $r->{error} ],
		[ 'read_only_violation', '25006', 'function count_items() is not allowed in a read-only tool call' ],
		"standby, read-only $tool: a volatile function is refused by the call");
	unlike($r->{suggestion}, qr/standby/,
		"standby, read-only $tool: the call's advice, not the standby's");
}
{
	my $r = call($standby, 'execute_sql', '{"sql": "SELECT count_items() AS n"}');
	is_deeply($r->{data}, [ { n => 2 } ],
		'standby: the same function without read_only reads');
}

# --- reading on the standby -----------------------------------------------------------

{
	my $r = call($standby, 'select_query', '{"table": "items", "order_by": "id"}');
	ok($r->{success}, 'standby: select_query succeeds');
	is_deeply($r->{data}, [ { id => 1, name => 'one' }, { id => 2, name => 'two' } ],
		'standby: select_query reads the rows');
	$r = call($standby, 'execute_sql', '{"sql": "SELECT count(*) AS n FROM items", "read_only": true}');
	is_deeply($r->{data}, [ { n => 2 } ], 'standby: execute_sql reads');
	$r = call($standby, 'execute_sql', '{"sql": "SELECT count(*) AS n FROM items"}');
	is_deeply($r->{data}, [ { n => 2 } ], 'standby: execute_sql without read_only reads');
	$r = call($standby, 'list_tables', '{}');
	is_deeply([ map { $_->{name} } @{ $r->{data} } ], ['items'], 'standby: list_tables');
	$r = call($standby, 'describe_table', '{"table": "items"}');
	ok($r->{success}, 'standby: describe_table succeeds');
	$r = call($standby, 'explain_query', '{"sql": "SELECT * FROM items", "analyze": true}');
	ok($r->{success}, 'standby: explain_query with analyze succeeds');
}

# --- ai_error_info on the standby and on the primary -------------------------------------

sub error_info
{
	my ($node, $message) = @_;
	return $json->decode(
		$node->safe_psql('postgres', "SELECT ai_error_info('$message')"));
}

like(error_info($standby, 'cannot execute INSERT in a read-only transaction')->{suggestion},
	qr/^INSERT is not allowed: .*hot standby \(recovery in progress\).*primary/,
	'ai_error_info on the standby: a read-only transaction is the standby\'s');
unlike(error_info($primary, 'cannot execute INSERT in a read-only transaction')->{suggestion},
	qr/standby/, 'ai_error_info on the primary: a read-only transaction is not a standby\'s');
foreach my $node ($primary, $standby)
{
	my $r = error_info($node, 'cannot execute VACUUM during recovery');
	is_deeply([ $r->{errorType}, $r->{error_type} ], [ 'read_only_violation', 'read_only' ],
		'ai_error_info on the ' . $node->name . ': "during recovery" is read_only_violation');
	like($r->{suggestion}, qr/^VACUUM is not allowed: the server is a read-only hot standby/,
		'ai_error_info on the ' . $node->name . ': "during recovery" advises the primary');
}

# --- the MCP program's tools/list follows ai_tool_list('mcp') -------------------------------

SKIP:
{
	my $bindir = `pg_config --bindir`;
	chomp $bindir;
	my $program = "$bindir/neon-ai-tools-mcp";
	skip 'neon-ai-tools-mcp is not installed', 1 unless -x $program;
	my $input = join('',
		map { $json->encode($_) . "\n" } (
			{
				jsonrpc => '2.0',
				id => 1,
				method => 'initialize',
				params => {
					protocolVersion => '2025-06-18',
					capabilities => {},
					clientInfo => { name => 'tap', version => '1' }
				}
			},
			{ jsonrpc => '2.0', method => 'notifications/initialized' },
			{ jsonrpc => '2.0', id => 2, method => 'tools/list' }));
	my ($out, $err) = ('', '');
	IPC::Run::run([ $program, $standby->connstr('postgres') . ' user=agent' ],
		'<', \$input, '>', \$out, '2>', \$err, IPC::Run::timeout(180));
	my ($list) = grep { ($_->{id} // 0) == 2 } map { $json->decode($_) } split /\n/, $out;
	is_deeply([ map { $_->{name} } @{ $list->{result}{tools} } ], \@read_tools,
		'standby: the MCP program\'s tools/list lists the reading tools only');
}

# --- the primary writes ---------------------------------------------------------------------

{
	my $r = call($primary, 'insert_data', '{"table": "items", "rows": {"id": 3, "name": "three"}}');
	is($r->{affectedRows}, 1, 'primary: insert_data writes');
	$r = call($primary, 'update_data', '{"table": "items", "set": {"name": "uno"}, "where": {"id": 1}}');
	is($r->{affectedRows}, 1, 'primary: update_data writes');
	$r = call($primary, 'delete_data', '{"table": "items", "where": {"id": 2}}');
	is($r->{affectedRows}, 1, 'primary: delete_data writes');
	$r = call($primary, 'execute_sql', '{"sql": "SELECT add_item(4) AS id"}');
	is_deeply($r->{data}, [ { id => 4 } ], 'primary: execute_sql with a function that inserts');
	$r = call($primary, 'execute_sql', q({"sql": "INSERT INTO items VALUES (5, 'five')"}));
	is($r->{affectedRows}, 1, 'primary: execute_sql with an INSERT');
}

# the standby replays them
$primary->wait_for_catchup($standby);
{
	my $r = call($standby, 'select_query', '{"table": "items", "columns": ["id"], "order_by": "id"}');
	is_deeply([ map { $_->{id} } @{ $r->{data} } ], [ 1, 3, 4, 5 ],
		'standby: the primary\'s writes are replayed');
}

# promoted, the standby lists and runs the write tools from the next call on
$primary->stop;
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the standby was not promoted';
is_deeply(tool_names($standby, 'native'), \@all_tools,
	'promoted: every tool is listed');
{
	my $r = call($standby, 'insert_data', '{"table": "items", "rows": {"id": 6, "name": "six"}}');
	is($r->{affectedRows}, 1, 'promoted: insert_data writes');
}

$standby->stop;
done_testing();
