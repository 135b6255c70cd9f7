# Custom tools across sessions and databases: pg_dump of a database with
# custom tools restores them into a fresh database, where they work; a
# role made read-only by its administrator (ALTER ROLE ... SET, read at
# login) cannot call a writing custom tool, and sees it in no catalog; the
# MCP program over stdio announces a tool defined while it runs.
use strict;
use warnings;

use IPC::Run;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $node = nat_node('main');
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql(
	'src', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE SCHEMA app;
	CREATE TABLE app.orders (id int PRIMARY KEY, customer text, total numeric, status text);
	INSERT INTO app.orders VALUES (1, 'ann', 10, 'paid'), (2, 'bob', 20, 'new');
	CREATE FUNCTION app.cancel_order(order_id int) RETURNS text
	LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
	AS $$ UPDATE app.orders SET status = 'cancelled' WHERE id = order_id RETURNING status $$;
	COMMENT ON FUNCTION app.cancel_order(int) IS 'Cancel an order.';
	SELECT ai_tool_define('orders_of', 'Orders of one customer.',
		'SELECT id, total FROM app.orders WHERE customer = $1 ORDER BY id',
		'[{"name": "customer", "type": "text", "enum": ["ann", "bob"]}]', '{"max_rows": 10}');
	SELECT ai_tool_define('mark_paid', 'Mark an order paid.',
		'UPDATE app.orders SET status = ''paid'' WHERE id = $1 RETURNING id, status',
		'[{"name": "order_id", "type": "int"}]');
	SELECT ai_tool_from_function('app.cancel_order(int)');
});

# 1. pg_dump and restore into a fresh database (the dump creates the
# extension, then restores the configuration table's rows)
my $dump = $node->basedir . '/src.dump';
$node->command_ok(
	[ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('src') ],
	'pg_dump of a database with custom tools');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok(
	[ 'pg_restore', '--exit-on-error', '-d', $node->connstr('dst'), $dump ],
	'pg_restore into a fresh database');
is( $node->safe_psql(
		'dst', 'SELECT string_agg(name, \',\' ORDER BY name) FROM ai_tool_definitions'),
	'cancel_order,mark_paid,orders_of',
	'the definitions are restored');
is( $node->safe_psql('dst',
		q{SELECT t ->> 'name' FROM jsonb_array_elements(ai_tool_list('openai')) x, LATERAL (SELECT x -> 'function' AS t) f WHERE t ->> 'name' = 'orders_of'}
	),
	'orders_of',
	'a restored tool is in the catalog');
is( $node->safe_psql('dst',
		q{SELECT ai_tool_call('orders_of', '{"customer": "ann"}') -> 'data'}),
	'[{"id": 1, "total": 10}]',
	'a restored tool runs');
is( $node->safe_psql('dst',
		q{SELECT ai_tool_call('orders_of', '{"customer": "cid"}') ->> 'errorType'}),
	'invalid_parameters',
	'a restored tool validates with its parameter list');
is( $node->safe_psql('dst',
		q{SELECT ai_tool_call('cancel_order', '{"order_id": 2}') -> 'data'}),
	'[{"cancel_order": "cancelled"}]',
	'a restored function tool runs');
is( $node->safe_psql('dst',
		q{SELECT e.extconfig::regclass[]::text FROM pg_extension e WHERE extname = 'neon_ai_tools'}),
	'{ai_tool_definitions}',
	'the restored table is still the extension\'s configuration table');
# the write was audited (neon_ai_tools.audit = writes, the default): the
# tool, its operation, the outcome, the one row the function changed
# (counted by the executor, at the function's own level) and its SQL with
# $n, in the server log
ok( $node->log_contains(
		qr/NEON_AI_TOOLS AUDIT: [^,]+,dst,cancel_order,,select,success,1,[0-9.]+ms,SELECT \* FROM app\.cancel_order\(\$1\)/),
	'a custom tool call is audited');
# a second dump of the restored database dumps the rows once more
my $dump2 = $node->basedir . '/dst.sql';
$node->command_ok([ 'pg_dump', '-f', $dump2, '-d', $node->connstr('dst') ],
	'pg_dump of the restored database');
like(slurp_file($dump2), qr/COPY public\.ai_tool_definitions /,
	'the configuration table\'s rows are in the dump');

# 2. A read-only role (set by the administrator, read at login) cannot call
# a writing custom tool, and its catalog shows only the reading ones
$node->safe_psql(
	'src', q{
	CREATE ROLE reader LOGIN;
	GRANT USAGE ON SCHEMA app TO reader;
	GRANT SELECT, UPDATE ON app.orders TO reader;
	GRANT EXECUTE ON FUNCTION app.cancel_order(int) TO reader;
	ALTER ROLE reader SET neon_ai_tools.read_only = on;
});
my $reader = $node->connstr('src') . ' user=reader';
my ($out, $err);
$out = $node->safe_psql('src',
	q{SELECT string_agg(t ->> 'name', ',' ORDER BY t ->> 'name') FROM jsonb_array_elements(ai_tool_list()) t
	  WHERE t ->> 'name' IN ('orders_of', 'mark_paid', 'cancel_order')},
	connstr => $reader);
is($out, 'orders_of', 'the read-only role sees only the reading custom tool');
$out = $node->safe_psql('src',
	q{SELECT a ->> 'errorType' || ' ' || (a ->> 'error') FROM ai_tool_call('mark_paid', '{"order_id": 2}') a},
	connstr => $reader);
is( $out,
	'tool_disabled tool "mark_paid" writes, and this role is read-only',
	'the read-only role cannot call a writing custom tool');
$out = $node->safe_psql('src',
	q{SELECT ai_tool_call('cancel_order', '{"order_id": 1}') ->> 'errorType'},
	connstr => $reader);
is($out, 'tool_disabled', 'nor a tool made from a volatile function');
is($node->safe_psql('src', 'SELECT status FROM app.orders WHERE id = 2'),
	'new', 'nothing was written');
$out = $node->safe_psql('src',
	q{SELECT ai_tool_call('orders_of', '{"customer": "bob"}') -> 'data'},
	connstr => $reader);
is($out, '[{"id": 2, "total": 20}]', 'the reading tool still works for it');
# the role cannot lift the setting for itself
($out, $err) = ('', '');
$node->psql('src', 'SELECT ai_tool_list() IS NOT NULL; SET neon_ai_tools.read_only = off',
	connstr => $reader, stderr => \$err);
like($err, qr/permission denied to set parameter/, 'the role cannot turn read-only off');

# 4. The MCP program over stdio tells its client when the tool list changes
# (capability tools.listChanged): after a tools/call, once a second at most,
# it reads the catalog again; a tool defined meanwhile is announced with
# notifications/tools/list_changed, and the next tools/list has it.
SKIP:
{
	my $program = $ENV{NAT_MCP_PROGRAM};
	if (!$program)
	{
		my $bindir = `pg_config --bindir`;
		chomp $bindir;
		($program) = grep { -x $_ } ("$bindir/neon-ai-tools-mcp");
	}
	skip 'neon-ai-tools-mcp is not installed', 4 unless $program;

	my ($in, $out, $err) = ('', '', '');
	my $mcp = IPC::Run::start([ $program, $node->connstr('src') ],
		'<', \$in, '>', \$out, '2>', \$err, IPC::Run::timeout(60));
	my $answers = sub {
		my ($want) = @_;
		$mcp->pump until (() = $out =~ /\n/g) >= $want;
		return [ split /\n/, $out ];
	};
	$in .= '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' . "\n";
	my $lines = $answers->(1);
	like($lines->[0], qr/"listChanged":true/, 'MCP over stdio: initialize offers tools.listChanged');
	$in .= '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' . "\n";
	$lines = $answers->(2);
	unlike($lines->[1], qr/"name": ?"orders_total"/, '... the list has no orders_total yet');
	sleep 1.2;
	$node->safe_psql('src',
		q{SELECT ai_tool_define('orders_total', 'Total of all orders.', 'SELECT sum(total) FROM app.orders', '[]')});
	$in .= '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"orders_of","arguments":{"customer":"ann"}}}' . "\n";
	$lines = $answers->(4);
	is($lines->[3], '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
		'... a tool defined meanwhile: notifications/tools/list_changed after the call');
	$in .= '{"jsonrpc":"2.0","id":4,"method":"tools/list"}' . "\n";
	$lines = $answers->(5);
	like($lines->[4], qr/"name": ?"orders_total"/, '... and the next tools/list has the tool');
	$mcp->finish;
}

$node->stop;
done_testing();
