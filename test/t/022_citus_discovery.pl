# Citus (issue 31, items 2 and 8): schema discovery on a Citus cluster.
# list_tables, describe_table and the agent's own catalog reads work on the
# coordinator and on a worker, in read-only calls too (Citus's shard filter,
# relation_is_a_known_shard(), is allowed; no other Citus function is);
# shards never appear in an answer, a shard's name is answered with its
# table, and describe_table says how Citus keeps a table.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use JSON::PP;
use NatCitus;
use PostgreSQL::Test::Utils;
use Test::More;

my $json = JSON::PP->new->canonical;
my $c = NatCitus->new('disc');
my $coord = $c->{coord};
my ($w1) = @{ $c->{workers} };
my $long = 'a_reference_table_whose_name_is_long_enough_to_need_a_hash_x';

$coord->safe_psql('postgres', qq{
	CREATE TABLE events (tenant_id int NOT NULL, id bigint NOT NULL, kind int, payload text,
		PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('events', 'tenant_id');
	INSERT INTO events SELECT g % 100, g, g % 7, 'p' || g FROM generate_series(1, 2000) g;
	CREATE TABLE kinds (id int PRIMARY KEY, name text);
	SELECT create_reference_table('kinds');
	CREATE TABLE notes_local (id int PRIMARY KEY, body text);
	CREATE TABLE settings_cl (id int PRIMARY KEY, v text);
	SELECT citus_add_local_table_to_metadata('settings_cl');
	CREATE TABLE single_t (id int, v text);
	SELECT create_distributed_table('single_t', NULL);
	CREATE TABLE $long (id int);
	SELECT create_reference_table('$long');
	GRANT SELECT, INSERT, UPDATE, DELETE ON events, kinds, notes_local, settings_cl, single_t, $long
		TO agent, agent_ro;
	-- same-named functions that are not Citus's: one in public (propagated
	-- to the workers), one overload in pg_catalog (this node only; with two
	-- arguments, since Citus finds its own by name and argument count)
	CREATE FUNCTION public.relation_is_a_known_shard(regclass) RETURNS bool
		VOLATILE LANGUAGE sql AS 'SELECT false';
	GRANT EXECUTE ON FUNCTION public.relation_is_a_known_shard(regclass) TO PUBLIC;
	CREATE FUNCTION pg_catalog.relation_is_a_known_shard(int, int) RETURNS bool
		VOLATILE LANGUAGE sql AS 'SELECT false';
});

# the real shard ids, and the shards present on each node
my @ids = split /\n/,
  $coord->safe_psql('postgres', 'SELECT shardid FROM pg_dist_shard ORDER BY 1');
ok(@ids >= 10, 'the tables have shards (' . scalar(@ids) . ')');
my $shard_re = '_(?:' . join('|', @ids) . ')(?![0-9])';

sub shards_on
{
	my ($node, $pattern) = @_;
	return split /\n/, $node->safe_psql('postgres', qq{
		SET citus.override_table_visibility = off;
		SELECT relname FROM pg_class WHERE relname ~ '$pattern' ORDER BY 1});
}
my ($w1_event_shard) = shards_on($w1, '^events_[0-9]+$');
my ($coord_kinds_shard) = shards_on($coord, '^kinds_[0-9]+$');
my ($coord_local_shard) = shards_on($coord, '^settings_cl_[0-9]+$');
my ($w1_long_shard) = shards_on($w1, '^a_reference_table_whose.*_[0-9]+$');
ok($w1_event_shard && $coord_kinds_shard && $coord_local_shard && $w1_long_shard,
	"shards found: $w1_event_shard on a worker, $coord_kinds_shard and $coord_local_shard on the coordinator, $w1_long_shard (a long name's)");

# every answer, to look for shard names in at the end
my @answers;

# ai_tool_call(tool, args) on NODE as ROLE, after the statements in PRE;
# decoded, and kept
sub call_on
{
	my ($node, $tool, $args, $role, $pre) = @_;
	$args =~ s/'/''/g;
	my $out = $node->safe_psql('postgres',
		($pre // '') . "SELECT ai_tool_call('$tool', '$args')",
		extra_params => [ '-U', $role ]);
	push @answers, $out;
	return $json->decode($out);
}

sub names_of
{
	my ($r) = @_;
	return join ',', map { $_->{name} } @{ $r->{data} || [] };
}

sub brief
{
	my ($r) = @_;
	return $r->{success} ? 'success' : "$r->{errorType}: $r->{error}";
}

my @nodes = ([ 'coordinator', $coord ], [ 'worker', $w1 ]);

# list_tables: works, Citus's tables listed, no shard, whatever Citus's
# own shard hiding is set to
for my $n (@nodes)
{
	my ($where, $node) = @$n;
	my $expect = join ',', sort(($where eq 'coordinator' ? ('notes_local') : ()),
		qw(events kinds settings_cl single_t), $long);
	for my $role (qw(agent agent_ro))
	{
		my $r = call_on($node, 'list_tables', '{"schema": "public"}', $role);
		is(brief($r), 'success', "list_tables on the $where as $role");
		is(join(',', sort split /,/, names_of($r)), $expect,
			"list_tables on the $where as $role: the tables, no shard");
		for my $pre ("SET citus.show_shards_for_app_name_prefixes = '*';",
			'SET citus.override_table_visibility = off;')
		{
			$r = call_on($node, 'list_tables', '{"schema": "public"}', $role, $pre);
			is(join(',', sort split /,/, names_of($r)), $expect,
				"list_tables on the $where as $role after $pre: no shard");
		}
	}
}

# describe_table: Citus's tables with their distribution
my %colocation = split /[|\n]/, $coord->safe_psql('postgres',
	'SELECT logicalrelid::text, colocationid FROM pg_dist_partition');
my %citus = (
	events => {
		table_type => 'distributed',
		distribution_column => 'tenant_id',
		colocation_id => $colocation{events} + 0
	},
	kinds => { table_type => 'reference', colocation_id => $colocation{kinds} + 0 },
	settings_cl => { table_type => 'citus_local' },
	single_t => { table_type => 'single_shard', colocation_id => $colocation{single_t} + 0 },
);
for my $n (@nodes)
{
	my ($where, $node) = @$n;
	for my $role (qw(agent agent_ro))
	{
		for my $t (sort keys %citus)
		{
			my $r = call_on($node, 'describe_table', qq({"table": "$t"}), $role);
			is(brief($r), 'success', "describe_table $t on the $where as $role");
			is($json->encode($r->{data}[0]{citus} // {}), $json->encode($citus{$t}),
				"describe_table $t on the $where as $role: its citus member");
		}
		next unless $where eq 'coordinator';
		my $r = call_on($node, 'describe_table', '{"table": "notes_local"}', $role);
		ok($r->{success} && !exists $r->{data}[0]{citus},
			"describe_table notes_local as $role: a plain table has no citus member");
	}
}

# a distribution column the caller may not use is left out
$coord->safe_psql('postgres', q{
	CREATE TABLE dist_cols (tenant_id int, v text);
	SELECT create_distributed_table('dist_cols', 'tenant_id');
	GRANT SELECT (v) ON dist_cols TO agent_ro;
});
my $r = call_on($coord, 'describe_table', '{"table": "dist_cols"}', 'agent_ro');
is($json->encode($r->{data}[0]{citus} // {}),
	$json->encode({ table_type => 'distributed', colocation_id => $colocation{events} + 0 }),
	'describe_table: no distribution column the caller has no privilege on');

# a shard's name is answered with its table, and says so
for my $case ([ $w1, 'worker', $w1_event_shard, 'public.events' ],
	[ $coord, 'coordinator', $coord_kinds_shard, 'public.kinds' ],
	[ $coord, 'coordinator', $coord_local_shard, 'public.settings_cl' ],
	[ $w1, 'worker', $w1_long_shard, "public.$long" ])
{
	my ($node, $where, $shard, $table) = @$case;
	for my $role (qw(agent agent_ro))
	{
		$r = call_on($node, 'describe_table', qq({"table": "$shard"}), $role);
		is(brief($r), 'success', "describe_table $shard on the $where as $role");
		is(($r->{table} // '') . ' ' . ($r->{data}[0]{name} // ''),
			$table . ' ' . ($table =~ s/^public\.//r),
			"describe_table $shard on the $where as $role: its table");
		like($r->{note} // '', qr/^The name given is a shard of the Citus table \Q$table\E/,
			"describe_table $shard on the $where as $role: the note says so");
	}
}

# the other tools refuse a shard's name and name its table: reading one
# shard gives part of the rows, writing one bypasses Citus
for my $case ([ $w1, 'worker', 'select_query', $w1_event_shard, 'public.events', '{}' ],
	[ $coord, 'coordinator', 'select_query', $coord_kinds_shard, 'public.kinds', '{}' ],
	[ $coord, 'coordinator', 'update_data', $coord_kinds_shard, 'public.kinds',
		'{"where": {"id": 1}, "set": {"name": "x"}}' ],
	[ $coord, 'coordinator', 'delete_data', $coord_local_shard, 'public.settings_cl',
		'{"where": {"id": 1}}' ],
	[ $coord, 'coordinator', 'insert_data', $coord_kinds_shard, 'public.kinds',
		'{"rows": [{"id": 99, "name": "x"}]}' ])
{
	my ($node, $where, $tool, $shard, $table, $extra) = @$case;
	my $args = $json->decode($extra);
	$args->{table} = $shard;
	$r = call_on($node, $tool, $json->encode($args), 'agent');
	is(($r->{errorType} // '') . ' ' . ($r->{suggestion} // ''),
		"invalid_table Use the table $table instead.",
		"$tool $shard on the $where: refused, its table named");
}

# did-you-mean never offers a shard (before, it offered the closest shards)
for my $case ([ $w1, 'worker', 'describe_table', 'events_1020' ],
	[ $w1, 'worker', 'select_query', substr($w1_event_shard, 0, -1) ],
	[ $coord, 'coordinator', 'select_query', substr($coord_kinds_shard, 0, -1) ],
	[ $coord, 'coordinator', 'describe_table', substr($coord_local_shard, 0, -1) ])
{
	my ($node, $where, $tool, $name) = @$case;
	$r = call_on($node, $tool, qq({"table": "$name"}), 'agent_ro');
	my $advice = join(' ', $r->{suggestion} // '', @{ $r->{suggested_actions} || [] });
	ok(($r->{errorType} // '') eq 'invalid_table' && $advice !~ /$shard_re/,
		"$tool $name on the $where: no such table, no shard suggested")
	  or diag($advice);
}

# nor does the did-you-mean of an error in the agent's own SQL
$r = call_on($w1, 'execute_sql', '{"sql": "SELECT count(*) FROM events_1020"}', 'agent_ro');
ok(($r->{errorType} // '') eq 'invalid_table' && ($r->{suggestion} // '') =~ /"public\.events"/
	  && join(' ', $r->{suggestion} // '', @{ $r->{suggested_actions} || [] }) !~ /$shard_re/,
	'execute_sql on a misspelt table on the worker: the table suggested, no shard')
  or diag($r->{suggestion} // $r->{error});

# the agent's own catalog reads, in read-only calls
for my $n (@nodes)
{
	my ($where, $node) = @$n;
	for my $sql ('SELECT count(*) AS n FROM pg_tables',
		"SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
		"SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
		"SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1")
	{
		for my $role (qw(agent agent_ro))
		{
			$r = call_on($node, 'execute_sql', $json->encode({ sql => $sql, read_only => JSON::PP::true }), $role);
			is(brief($r), 'success', "execute_sql on the $where as $role: $sql");
		}
	}
	$r = call_on($node, 'select_query',
		'{"table": "pg_catalog.pg_tables", "columns": ["tablename"], "where": {"schemaname": "public"}}', 'agent_ro');
	like(join(',', map { $_->{tablename} } @{ $r->{data} || [] }), qr/(^|,)events(,|$)/,
		"select_query pg_tables on the $where as agent_ro");
	$r = call_on($node, 'select_query',
		'{"table": "information_schema.columns", "columns": ["column_name"], "where": {"table_name": "events"}}', 'agent_ro');
	like(join(',', map { $_->{column_name} } @{ $r->{data} || [] }), qr/tenant_id/,
		"select_query information_schema.columns on the $where as agent_ro");
}

# Citus's own shard filter runs in a read-only call; no other Citus
# function does, nor a same-named function that is not Citus's (refused
# before too: checked beside the filter, which was refused then)
for my $n (@nodes)
{
	my ($where, $node) = @$n;
	$r = call_on($node, 'execute_sql',
		q({"sql": "SELECT pg_catalog.relation_is_a_known_shard('events'::regclass) AS s"}), 'agent_ro');
	my @wrong = $r->{success} ? () : ('Citus\'s own: ' . brief($r));
	for my $sql ("SELECT public.relation_is_a_known_shard('events'::regclass)",
		($where eq 'coordinator' ? ('SELECT pg_catalog.relation_is_a_known_shard(1, 2)') : ()),
		"SELECT run_command_on_workers('SELECT 1')",
		"SELECT run_command_on_all_nodes('SELECT 1')",
		'SELECT master_get_new_shardid()',
		"SELECT citus_table_size('events')",
		"SELECT get_shard_id_for_distribution_column('events', 1)",
		'SELECT worker_hash(1)')
	{
		$r = call_on($node, 'execute_sql', $json->encode({ sql => $sql }), 'agent_ro');
		push @wrong, "$sql: " . brief($r)
		  unless brief($r) =~ /^(?:read_only_violation: function .* is not allowed in a read-only tool call|permission_denied: function run_command_on_\w+\(.*\) is not allowed in a tool call)$/;
	}
	is(join("\n", @wrong), '',
		"on the $where as agent_ro: Citus's relation_is_a_known_shard() runs, no other Citus function nor a same-named one");
}

# no answer names a shard
my @leaks = grep { /$shard_re/ } @answers;
is(scalar(@leaks), 0, 'no shard name in any of the ' . scalar(@answers) . ' answers')
  or diag(substr($leaks[0], 0, 2000));

$c->stop;
done_testing();
