# Citus (issue 31, item 6): Citus's own errors answered with a category and
# advice an agent can act on, its query-shape settings (SET LOCAL
# citus.enable_repartition_joins = on) usable inside a call, and every other
# Citus setting refused in calls, read-only and read-write, by every path.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatCitus;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

my $c = NatCitus->new('cerr');
my $coord = $c->{coord};
# few shards: a repartition join moves every shard's rows between the nodes
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE events (tenant_id int NOT NULL, id bigint NOT NULL, kind int, payload text,
		PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('events', 'tenant_id', shard_count => 4);
	INSERT INTO events SELECT g % 20, g, g % 7, 'p' || g FROM generate_series(1, 400) g;
	CREATE TABLE orders (order_id bigint PRIMARY KEY, tenant_id int, kind int, amount numeric);
	SELECT create_distributed_table('orders', 'order_id', colocate_with => 'none', shard_count => 4);
	INSERT INTO orders SELECT g, g % 20, g % 7, g FROM generate_series(1, 60) g;
	CREATE TABLE kinds (id int PRIMARY KEY, name text);
	SELECT create_reference_table('kinds');
	INSERT INTO kinds SELECT g, 'kind ' || g FROM generate_series(0, 6) g;
	GRANT SELECT, INSERT, UPDATE, DELETE ON events, orders, kinds TO agent, agent_ro;
	-- a distributed table the write role owns, for its DDL
	CREATE SCHEMA agent_s AUTHORIZATION agent;
	GRANT USAGE ON SCHEMA agent_s TO agent_ro;
	CREATE TABLE agent_s.owned (tenant_id int, id int, v text);
	SELECT create_distributed_table('agent_s.owned', 'tenant_id', shard_count => 4);
	ALTER TABLE agent_s.owned OWNER TO agent;
	-- an administrator's read-only function whose SET clause turns shard
	-- hiding off
	CREATE FUNCTION public.visible_relations() RETURNS bigint STABLE LANGUAGE sql
		SET citus.override_table_visibility = off
		AS $f$ SELECT count(*) FROM pg_class $f$;
	GRANT EXECUTE ON FUNCTION public.visible_relations() TO agent, agent_ro;
});

# execute_sql with these arguments (a Perl hash), as ROLE
sub sql_call
{
	my ($role, %args) = @_;
	return $c->call('execute_sql', JSON::PP->new->canonical->encode(\%args),
		$role);
}

# ---------------------------------------------------------------------
# Citus's errors: a category and advice, not unknown_error

my %errors = (
	'a join of tables that are not co-located' => [
		'SELECT count(*) FROM events e JOIN orders o ON e.tenant_id = o.tenant_id',
		'XX000', 'syntax_error', qr/SET LOCAL citus\.enable_repartition_joins = on/
	],
	'multi-shard SELECT ... FOR UPDATE' => [
		'SELECT * FROM events WHERE tenant_id < 3 FOR UPDATE',
		'0A000', 'syntax_error',
		qr/FOR UPDATE\/SHARE .*equality filter on the distribution column/
	],
	'a volatile function in a distributed UPDATE' => [
		'UPDATE events SET payload = random()::text WHERE tenant_id = 1',
		'0A000', 'syntax_error', qr/VOLATILE functions .*pass it as a parameter/
	],
	'a volatile function in the WHERE of a distributed UPDATE' => [
		'UPDATE events SET kind = 1 WHERE id = (random() * 10)::int',
		'0A000', 'syntax_error', qr/VOLATILE functions/
	],
	'ALTER TABLE ... ADD UNIQUE without the distribution column' => [
		'ALTER TABLE agent_s.owned ADD UNIQUE (id)',
		'0A000', 'syntax_error',
		qr/on distributed table "owned" it must include the table's distribution column/
	],
	'CREATE UNIQUE INDEX without the distribution column' => [
		'CREATE UNIQUE INDEX ON agent_s.owned (id)',
		'0A000', 'syntax_error', qr/must include the table's distribution column/
	],
	'a correlated subquery beside a reference table' => [
		'SELECT (SELECT count(*) FROM events e WHERE e.kind = k.id) FROM kinds k',
		'0A000', 'syntax_error', qr/correlated subquery .*a reference table/
	],
	'a correlated subquery on tables that are not co-located' => [
		'SELECT e.id, (SELECT max(o.amount) FROM orders o WHERE o.tenant_id = e.tenant_id) FROM events e LIMIT 3',
		'0A000', 'syntax_error', qr/co-located .*in a CTE/
	],
	'ALTER TABLE of the distribution column' => [
		'ALTER TABLE agent_s.owned ALTER COLUMN tenant_id TYPE bigint',
		'XX000', 'syntax_error', qr/alter_distributed_table\(\)/
	],);
my $before = $c->node_digest($coord) . join('', map { $c->node_digest($_) } @{ $c->{workers} });
for my $case (sort keys %errors)
{
	my ($sql, $code, $type, $advice) = @{ $errors{$case} };
	my $r = sql_call('agent', sql => $sql);
	is($r->{errorType}, $type, "$case: $type");
	is($r->{error_code}, $code, "$case: Citus's SQLSTATE $code");
	is($r->{retryable}, JSON::PP::false, "$case: not retryable as it is");
	like($r->{suggestion} // '', $advice, "$case: the advice");
}
is($c->node_digest($coord) . join('', map { $c->node_digest($_) } @{ $c->{workers} }),
	$before, 'the refused statements changed nothing on any node');

# the same through a read-only call
my $r = sql_call('agent_ro',
	sql => 'SELECT count(*) FROM events e JOIN orders o ON e.tenant_id = o.tenant_id');
is($r->{errorType}, 'syntax_error', 'read-only: the join is syntax_error');
like($r->{suggestion}, qr/mode "multiple"/, 'read-only: with the way to run it');

# a worker that is down: connection_error, retryable, about the node
$c->{workers}[1]->stop;
$r = sql_call('agent', sql => 'SELECT count(*) FROM events');
is($r->{errorType}, 'connection_error', 'a worker down: connection_error');
is($r->{retryable}, JSON::PP::true, 'a worker down: retryable');
like($r->{suggestion}, qr/Citus could not reach its node \S+:\d+/,
	'a worker down: the advice names the node, not the connection settings');
$c->{workers}[1]->start;

# ---------------------------------------------------------------------
# Citus's remedy inside one call: SET LOCAL, then the join

my $expected = $coord->safe_psql('postgres',
	'SET citus.enable_repartition_joins = on; SELECT count(*) FROM events e JOIN orders o ON e.tenant_id = o.tenant_id'
);
my $join = 'SET LOCAL citus.enable_repartition_joins = on; SELECT count(*) AS n FROM events e JOIN orders o ON e.tenant_id = o.tenant_id';
$r = sql_call('agent', mode => 'multiple', sql => $join, timeout_ms => 120000);
is($r->{status}, 'success', 'read-write: SET LOCAL and the join in one call')
  or diag explain $r;
is($r->{data}[0]{command}, 'SET', 'read-write: the SET LOCAL ran first');
is($r->{data}[1]{data}[0]{n}, $expected, 'read-write: the join counts every row');

# read-only: the same, with the administrator allowing the functions through
# which Citus's executor moves the repartitioned rows on the coordinator
# (volatile, they write no table: intermediate results of the transaction)
$coord->safe_psql('postgres',
	q{ALTER ROLE agent_ro SET neon_ai_tools.read_only_allowed_functions = 'pg_catalog.fetch_intermediate_results, pg_catalog.read_intermediate_results, pg_catalog.read_intermediate_result'}
);
$r = sql_call('agent_ro', mode => 'multiple', sql => $join, timeout_ms => 120000);
is($r->{status}, 'success', 'read-only: SET LOCAL and the join in one call')
  or diag explain $r;
is($r->{data}[1]{data}[0]{n}, $expected, 'read-only: the join counts every row');

# the setting ends with the call
$r = sql_call('agent',
	sql => 'SELECT count(*) FROM events e JOIN orders o ON e.tenant_id = o.tenant_id');
is($r->{errorType}, 'syntax_error', 'the next call runs without it again');

# other settings of the allow-list, within their rules
$r = sql_call('agent', mode => 'multiple',
	sql => 'SET LOCAL citus.max_adaptive_executor_pool_size = 2; SHOW citus.max_adaptive_executor_pool_size');
is($r->{data}[1]{data}[0]{'citus.max_adaptive_executor_pool_size'}, '2',
	'the executor pool size may be lowered');
$r = sql_call('agent', mode => 'multiple',
	sql => 'SET LOCAL citus.max_adaptive_executor_pool_size = 100; SELECT 1');
is($r->{errorType}, 'permission_denied', 'the executor pool size may not be raised');
like($r->{error}, qr/cannot be raised during a tool call/, '... saying so');
$r = sql_call('agent_ro', mode => 'multiple',
	sql => "SET LOCAL citus.multi_shard_modify_mode = 'sequential'; SHOW citus.multi_shard_modify_mode");
is($r->{data}[1]{data}[0]{'citus.multi_shard_modify_mode'}, 'sequential',
	'multi_shard_modify_mode may be sequential (read-only call)');
$r = sql_call('agent', mode => 'multiple',
	sql => "SELECT set_config('citus.enable_repartition_joins', 'on', true); SHOW citus.enable_repartition_joins");
is($r->{data}[1]{data}[0]{'citus.enable_repartition_joins'}, 'on',
	'set_config() of an allowed setting works too');

# ---------------------------------------------------------------------
# every other Citus setting stays refused, read-only and read-write

for my $setting (
	qw(citus.override_table_visibility citus.show_shards_for_app_name_prefixes
	citus.propagate_set_commands citus.function_opens_transaction_block
	citus.select_opens_transaction_block citus.enable_local_execution
	citus.enable_router_execution citus.enable_ddl_propagation
	citus.force_max_query_parallelization citus.enable_metadata_sync
	citus.all_modifications_commutative citus.enable_manual_changes_to_shards))
{
	for my $role (qw(agent agent_ro))
	{
		$r = sql_call($role, mode => 'multiple',
			sql => "SET LOCAL $setting TO DEFAULT; SELECT 1");
		is($r->{errorType}, 'invalid_parameters', "$role: SET LOCAL $setting refused");
		like($r->{error}, qr/this Citus setting cannot be changed/,
			"$role: SET LOCAL $setting: as a Citus setting");
		like($r->{suggestion}, qr/citus\.enable_repartition_joins/,
			"$role: SET LOCAL $setting: naming the settings a call may change");
	}
}

# below the agent's statement: a DO block, set_config(), pg_settings, a
# function's SET clause (the agent's own, an administrator's in a read-only
# call), a CHECK constraint calling set_config()
my %nested = (
	'a DO block' => [
		'agent',
		'DO $$BEGIN SET LOCAL citus.override_table_visibility = off; END$$',
		qr/parameter "citus\.override_table_visibility" cannot be changed during a tool call/
	],
	'a DO block, with RESET semantics' => [
		'agent',
		'DO $$BEGIN SET LOCAL citus.propagate_set_commands TO DEFAULT; END$$',
		qr/parameter "citus\.propagate_set_commands" cannot be changed/
	],
	'set_config()' => [
		'agent',
		"SELECT set_config('citus.override_table_visibility', 'off', true)",
		qr/parameter "citus\.override_table_visibility" cannot be changed/
	],
	'set_config() with a computed name' => [
		'agent',
		"SELECT set_config(n, 'off', true) FROM (VALUES ('citus.override_table_visibility')) v(n)",
		qr/not a constant/
	],
	'UPDATE pg_settings' => [
		'agent',
		"UPDATE pg_settings SET setting = 'off' WHERE name = 'citus.override_table_visibility'",
		qr/not a constant/
	],
	"the agent's function with a SET clause" => [
		'agent',
		'CREATE FUNCTION agent_s.f() RETURNS bigint LANGUAGE sql SET citus.override_table_visibility = off AS $$ SELECT count(*) FROM pg_class $$; SELECT agent_s.f()',
		qr/function agent_s\.f\(\) sets parameter "citus\.override_table_visibility"/
	],
	"an administrator's function with a SET clause, read-only" => [
		'agent_ro',
		'SELECT public.visible_relations()',
		qr/sets parameter "citus\.override_table_visibility"/
	],
	'a CHECK constraint calling set_config()' => [
		'agent',
		"CREATE TABLE agent_s.chk (x int CHECK (set_config('citus.override_table_visibility', 'off', true) IS NOT NULL)); INSERT INTO agent_s.chk VALUES (1)",
		qr/parameter "citus\.override_table_visibility" was changed during a tool call/
	],);
for my $case (sort keys %nested)
{
	my ($role, $sql, $message) = @{ $nested{$case} };
	$r = sql_call($role, mode => 'multiple', sql => $sql);
	is($r->{errorType}, 'permission_denied', "$case: refused");
	like($r->{error}, $message, "$case: naming the setting");
	like($r->{suggestion} // '', qr/may change only those that shape one query's plan|Citus's settings/,
		"$case: the advice says which settings a call may change");
}
is( $coord->safe_psql(
		'postgres',
		q{SELECT count(*) FROM pg_proc WHERE proname = 'f' AND pronamespace = 'agent_s'::regnamespace}
	),
	'0',
	'the refused calls were rolled back');
is($coord->safe_psql('postgres', 'SHOW citus.override_table_visibility'),
	'on', 'shards stay hidden');

$c->stop;
done_testing();
