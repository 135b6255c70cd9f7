# Citus (issue 31, items 3, 4 and 7): exact answers on a Citus cluster.
#
# - Pages without an order: a distributed table's rows come from several
#   shards at once, in another order on each run, so pages by offset lost
#   and repeated rows.  select_query now orders such a table by its primary
#   key (and says so), and pages by keyset; with no key, or through a view,
#   and for execute_sql without ORDER BY, there is no next, and the warning
#   says what to add.
# - insert_data with on_conflict skip counts the rows really inserted on
#   distributed, reference and Citus local tables (Citus reports INSERT 0 2
#   for INSERT ... SELECT ... ON CONFLICT DO NOTHING that skipped one of two).
# - execute_sql without LIMIT: the row cap is written into the query, so
#   every shard gets a LIMIT and the coordinator no longer gathers the whole
#   table (citus.log_remote_commands shows the shards' queries; the
#   coordinator's temp_bytes shows what it spilled).
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use JSON::PP;
use NatCitus;
use PostgreSQL::Test::Utils;
use Test::More;

my $c = NatCitus->new('results');
my $coord = $c->{coord};
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE events (tenant_id int NOT NULL, id bigint NOT NULL, kind int, payload text,
		PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('events', 'tenant_id');
	INSERT INTO events SELECT g % 100, g, g % 7, 'p' || g FROM generate_series(1, 30000) g;
	CREATE VIEW events_v AS SELECT tenant_id, id FROM events;
	CREATE TABLE nokey (tenant_id int, v int);
	SELECT create_distributed_table('nokey', 'tenant_id');
	INSERT INTO nokey SELECT g % 100, g FROM generate_series(1, 3000) g;
	CREATE TABLE kinds (id int PRIMARY KEY, name text);
	SELECT create_reference_table('kinds');
	INSERT INTO kinds SELECT g, 'kind ' || g FROM generate_series(1, 2500) g;
	CREATE TABLE settings_cl (id int PRIMARY KEY, v text);
	SELECT citus_add_local_table_to_metadata('settings_cl');
	INSERT INTO settings_cl VALUES (1, 'x');
	CREATE TABLE notes_local (id int PRIMARY KEY, body text);
	INSERT INTO notes_local VALUES (1, 'a');
	GRANT SELECT, INSERT, UPDATE, DELETE ON events, events_v, nokey, kinds, settings_cl, notes_local TO agent;
});

# Every page of a call, following next: (rows as "a/b" strings, answers)
sub page_through
{
	my ($tool, $args) = @_;
	my (@rows, @answers);
	my $next;
	for my $page (1 .. 100)
	{
		my $call = $args;
		$call =~ s/}$/, "next": "$next"}/ if defined $next;
		my $r = $c->call($tool, $call);
		die "page $page failed: " . encode_json($r) unless $r->{success};
		push @answers, $r;
		push @rows, map { join('/', @$_) } @{ $r->{data} };
		$next = $r->{next};
		last unless defined $next;
	}
	return (\@rows, \@answers);
}

sub distinct
{
	my %seen;
	$seen{$_}++ for @_;
	return scalar(keys %seen);
}

# 1. select_query without order_by on a distributed table: the primary key's
# order, keyset pages, every row exactly once
my ($rows, $answers) = page_through('select_query',
	'{"table": "events", "columns": ["tenant_id", "id"], "limit": 1000, "format": "columnar"}');
is(scalar(@$answers), 30, 'select_query, no order_by: 30 pages of 1,000');
is(scalar(@$rows), 30000, 'select_query, no order_by: 30,000 rows');
is(distinct(@$rows), 30000, 'select_query, no order_by: every row exactly once');
like($answers->[0]{warning},
	qr/public\.events is a Citus distributed table, whose rows come in no stable order: they are in the order of its primary key \(tenant_id, id\)/,
	'the answer says the rows were put in primary key order, and why');
my %tenants = map { (split m{/})[0] => 1 } @$rows[0 .. 999];
my $shards = $coord->safe_psql('postgres',
	    "SELECT count(DISTINCT get_shard_id_for_distribution_column('events', t)) FROM unnest(ARRAY["
	  . join(',', keys %tenants)
	  . ']) t');
cmp_ok($shards, '>=', 2, "the first page alone holds rows of $shards shards");

# a reference table: the same, by its primary key
($rows, $answers) = page_through('select_query',
	'{"table": "kinds", "columns": ["id"], "limit": 1000, "format": "columnar"}');
is(distinct(@$rows) . '/' . scalar(@$rows), '2500/2500',
	'reference table, no order_by: every row exactly once');
like($answers->[0]{warning}, qr/public\.kinds is a Citus reference table.*primary key \(id\)/,
	'the answer says so for a reference table');

# no key to order by, or a view: no next, and what to pass instead
my $r = $c->call('select_query', '{"table": "nokey", "limit": 1000}');
ok($r->{truncated} && !exists $r->{next}, 'a distributed table without a key: truncated, no next');
like($r->{warning}, qr/There is no next: public\.nokey is a Citus distributed table without a primary key or unique key you may read.*Pass an order_by on columns that identify a row/,
	'the warning says why and what to pass');
$r = $c->call('select_query', '{"table": "events_v", "limit": 1000}');
ok($r->{truncated} && !exists $r->{next}, 'a view over a distributed table: no next');
like($r->{warning}, qr/There is no next: public\.events_v reads a Citus distributed table/,
	'the warning says the view reads a distributed table');

# 2. execute_sql without ORDER BY: no next, and the ORDER BY to add
for my $sql ('SELECT tenant_id, id FROM events', 'SELECT * FROM events_v')
{
	$r = $c->call('execute_sql', qq({"sql": "$sql", "limit": 1000}));
	ok($r->{truncated} && !exists $r->{next}, "execute_sql $sql: truncated, no next");
	like($r->{warning},
		qr/There is no next: the statement reads a Citus distributed table \(public\.events\) without ORDER BY.*Add ORDER BY on a unique key, for example ORDER BY tenant_id, id \(the primary key of public\.events\)/,
		'the warning asks for ORDER BY on the primary key');
}
# with the ORDER BY it asks for: exact pages
($rows, $answers) = page_through('execute_sql',
	'{"sql": "SELECT tenant_id, id FROM events ORDER BY tenant_id, id", "limit": 1000, "format": "columnar"}');
is(distinct(@$rows) . '/' . scalar(@$rows), '30000/30000',
	'execute_sql with ORDER BY the primary key: every row exactly once');
like($answers->[0]{warning}, qr/next is exact only if its ORDER BY is on a unique key/,
	'its pages warn that the ORDER BY must be on a unique key');

# 3. on_conflict skip: the rows really inserted and skipped
my $n = 50000;
for my $t (
	[ 'events', 'distributed', '"tenant_id": 1, "id": 1', '"tenant_id": 2, "id": %d' ],
	[ 'kinds', 'reference', '"id": 1', '"id": %d' ],
	[ 'settings_cl', 'Citus local', '"id": 1', '"id": %d' ],
	[ 'notes_local', 'plain', '"id": 1', '"id": %d' ])
{
	my ($table, $kind, $old, $new) = @$t;
	for my $returning ('', ', "returning": []')
	{
		my $fresh = sprintf($new, ++$n);
		$r = $c->call('insert_data',
			qq({"table": "$table", "rows": [{$old}, {$fresh}], "on_conflict": "skip"$returning}));
		is( join(',',
				map { $_ // 'absent' } $r->{affectedRows}, $r->{skippedRows},
				$r->{statementAffectedRows}),
			'1,1,absent',
			"$kind table, returning " . ($returning ? 'none' : 'default')
			  . ': affectedRows 1, skippedRows 1');
		is($coord->safe_psql('postgres', "SELECT count(*) FROM $table WHERE id = $n"),
			'1', "$kind table: the new row is there once");
	}
}

# 4. execute_sql without LIMIT on a wide table: every shard gets the LIMIT,
# the coordinator does not gather the table
sub wide_call
{
	my ($sql) = @_;
	my ($out, $err);
	$coord->psql(
		'postgres', qq{
		SELECT pg_stat_force_next_flush();
		SELECT 'before ' || temp_bytes FROM pg_stat_database WHERE datname = current_database();
		SET citus.log_remote_commands = on;
		SET ROLE agent;
		SELECT ai_tool_call('execute_sql', '{"sql": "$sql"}')::text;
		RESET ROLE;
		SELECT pg_stat_force_next_flush();
		SELECT 'after ' || temp_bytes FROM pg_stat_database WHERE datname = current_database();
	}, stdout => \$out, stderr => \$err, on_error_die => 1);
	my ($before) = $out =~ /^before (\d+)$/m;
	my ($after) = $out =~ /^after (\d+)$/m;
	my ($answer) = $out =~ /^(\{.*\})$/m;
	my @shard_queries = grep { /issuing SELECT .* FROM public\.events_\d+ / } split /\n/, $err;
	return (decode_json($answer), $after - $before, \@shard_queries);
}

my ($wide, $spilled, $queries) =
  wide_call(q{SELECT *, repeat(''x'', 2000) AS pad FROM events});
note("SELECT *, repeat('x', 2000) FROM events: $wide->{executionTime}, "
	  . "$spilled bytes of temporary files on the coordinator");
is(scalar(@$queries), 8, 'one query per shard');
is(scalar(grep { /LIMIT '1001'::bigint$/ } @$queries), 8,
	"every shard's query has the LIMIT (row cap + 1)")
  or diag(join("\n", @$queries[0 .. 1]));
cmp_ok($spilled, '<', 30000 * 2000 / 2,
	'the coordinator spilled less than half of the table (8 shards x 1001 rows at most)');
is(join(',', $wide->{truncated} ? 'truncated' : 'complete', $wide->{truncation}{reason}),
	'truncated,byte_limit', 'the answer is truncated at the byte cap, as before');

# with ORDER BY: the LIMIT goes with it to the shards, and the order holds
($wide, $spilled, $queries) =
  wide_call(q{SELECT id, repeat(''x'', 2000) AS pad FROM events WHERE id <= 30000 ORDER BY id DESC});
is(scalar(grep { /ORDER BY id DESC LIMIT '1001'::bigint$/ } @$queries), 8,
	"every shard's query has the ORDER BY and the LIMIT")
  or diag(join("\n", @$queries[0 .. 1]));
my @ids = map { $_->{id} } @{ $wide->{data} };
cmp_ok(scalar(@ids), '>', 100, scalar(@ids) . ' rows before the byte cap');
is_deeply(\@ids, [ reverse((30001 - @ids) .. 30000) ],
	'they are the highest ids, in descending order');

# 5. TRUNCATE, LOCK, DROP TABLE and ALTER TABLE ... TYPE of Citus tables in
# a writing call.  Citus locks the tables on every node with a string of its
# own that turns DDL propagation off and on with session SETs, which a call
# refused: TRUNCATE and LOCK failed.  And their rows are in the shards: the
# coordinator's own table is empty, so they counted 0 against the limit.
$coord->safe_psql(
	'postgres', q{
	CREATE TABLE tr_d (tenant_id int, v int);
	SELECT create_distributed_table('tr_d', 'tenant_id');
	INSERT INTO tr_d SELECT g, g FROM generate_series(1, 300) g;
	CREATE TABLE tr_r (id int PRIMARY KEY);
	SELECT create_reference_table('tr_r');
	INSERT INTO tr_r SELECT generate_series(1, 40);
	CREATE TABLE tr_l (id int PRIMARY KEY);
	SELECT citus_add_local_table_to_metadata('tr_l');
	INSERT INTO tr_l SELECT generate_series(1, 7);
	CREATE TABLE tr_nosel (tenant_id int);
	SELECT create_distributed_table('tr_nosel', 'tenant_id');
	INSERT INTO tr_nosel SELECT generate_series(1, 5);
	CREATE TABLE tr_own (tenant_id int, v int);
	SELECT create_distributed_table('tr_own', 'tenant_id');
	INSERT INTO tr_own SELECT g, g FROM generate_series(1, 30) g;
	ALTER TABLE tr_own OWNER TO agent;
	GRANT SELECT, TRUNCATE ON tr_d, tr_r, tr_l TO agent;
	GRANT TRUNCATE ON tr_nosel TO agent;
});
sub count_of { $coord->safe_psql('postgres', "SELECT count(*) FROM $_[0]") }

$r = $c->call('execute_sql', '{"sql": "TRUNCATE tr_d", "max_affected": 100}');
is($r->{errorType}, 'limit_exceeded',
	'TRUNCATE of a distributed table of 300 rows, max_affected 100: limit_exceeded')
  or diag(encode_json($r));
like($r->{error}, qr/300 rows/, 'the count is the rows in its shards');
is(count_of('tr_d'), '300', 'nothing was removed');

$r = $c->call('execute_sql', '{"sql": "LOCK TABLE tr_d IN SHARE MODE"}');
ok($r->{success}, 'LOCK TABLE of a distributed table in a writing call works')
  or diag(encode_json($r));
$r = $c->call('execute_sql', '{"sql": "LOCK TABLE tr_d IN SHARE MODE", "read_only": true}');
is($r->{errorType}, 'read_only_violation', 'and is refused in a read-only call');

my $out = $coord->safe_psql(
	'postgres', q{
	SET ROLE agent;
	SELECT ai_tool_call('execute_sql', '{"sql": "TRUNCATE tr_d"}')::jsonb ->> 'affectedRows';
	SHOW citus.enable_ddl_propagation;
	SELECT ai_tool_call('execute_sql', '{"sql": "TRUNCATE tr_r, tr_l"}')::jsonb ->> 'affectedRows';
	SHOW citus.enable_ddl_propagation;});
is($out, "300\non\n47\non",
	'TRUNCATE of distributed, reference and Citus local tables: affectedRows 300, then 40 + 7, and the session keeps DDL propagation on');
is(count_of('tr_d') . ',' . count_of('tr_r') . ',' . count_of('tr_l'), '0,0,0',
	'the tables are empty');

# Citus sends its lock string once to each worker: not again on every
# connection, as it would a propagated SET LOCAL (its LOCK then waited
# for the transaction's own lock: a distributed deadlock)
$coord->safe_psql('postgres', 'INSERT INTO tr_d SELECT g, g FROM generate_series(1, 300) g');
my ($lock_out, $lock_err);
$coord->psql(
	'postgres', q{
	SET citus.log_remote_commands = on;
	SET ROLE agent;
	SELECT ai_tool_call('execute_sql', '{"sql": "TRUNCATE tr_d"}')::jsonb ->> 'affectedRows';},
	stdout => \$lock_out, stderr => \$lock_err, on_error_die => 1);
is($lock_out, '300', 'TRUNCATE again: affectedRows 300');
my $lock_sends = () = $lock_err =~ /^LOCK public\.tr_d IN ACCESS EXCLUSIVE MODE;$/mg;
is($lock_sends, 2, "Citus's lock string went to each of the two workers once");

$r = $c->call('execute_sql', '{"sql": "TRUNCATE tr_nosel"}');
is($r->{errorType}, 'permission_denied',
	'TRUNCATE of a Citus table the role may not SELECT from: refused (its rows cannot be counted)');
like($r->{error}, qr/needs SELECT on it/, 'the message says what it needs');
is(count_of('tr_nosel'), '5', 'nothing was removed');

$r = $c->call('execute_sql', '{"sql": "ALTER TABLE tr_own ALTER COLUMN v TYPE bigint"}');
is($r->{affectedRows}, 30,
	'ALTER TABLE ... TYPE of a distributed table: affectedRows is its 30 rows')
  or diag(encode_json($r));
$r = $c->call('execute_sql', '{"sql": "DROP TABLE tr_own", "max_affected": 29}');
is($r->{errorType}, 'limit_exceeded', 'DROP TABLE of 30 rows, max_affected 29: limit_exceeded');
$r = $c->call('execute_sql', '{"sql": "DROP TABLE tr_own"}');
is($r->{affectedRows}, 30,
	"DROP TABLE of a distributed table: affectedRows 30 (not Citus's own metadata rows)")
  or diag(encode_json($r));

# 6. Counting that an agent cannot bend.
$coord->safe_psql(
	'postgres', q{
	GRANT CREATE ON SCHEMA public TO agent;
	CREATE TABLE tr_h (id int PRIMARY KEY);
	SELECT citus_add_local_table_to_metadata('tr_h');
	INSERT INTO tr_h SELECT generate_series(1, 20);
	CREATE TABLE tr_d2 (tenant_id int, v int);
	SELECT create_distributed_table('tr_d2', 'tenant_id');
	INSERT INTO tr_d2 SELECT g, g FROM generate_series(1, 20) g;
	CREATE TABLE tr_rls (tenant_id int, v int);
	SELECT create_distributed_table('tr_rls', 'tenant_id');
	INSERT INTO tr_rls SELECT g, g FROM generate_series(1, 20) g;
	ALTER TABLE tr_rls ENABLE ROW LEVEL SECURITY;
	CREATE POLICY few ON tr_rls FOR SELECT USING (v <= 2);
	GRANT SELECT, TRUNCATE ON tr_h, tr_d2, tr_rls TO agent;
});

# a count() of the agent's own, earlier in its search_path, counted 0
$r = $c->call('execute_sql',
	q{{"sql": "DO $d$ BEGIN CREATE AGGREGATE public.count(*) (SFUNC = pg_catalog.int8abs, STYPE = int8, INITCOND = '0'); SET LOCAL search_path = public, pg_catalog; TRUNCATE tr_h; END $d$", "max_affected": 10}});
is($r->{errorType}, 'limit_exceeded',
	'TRUNCATE after planting an aggregate count() before pg_catalog in search_path: still limit_exceeded (20 rows, limit 10)')
  or diag(encode_json($r));
is(count_of('tr_h'), '20', 'nothing was removed');

# under row-level security the count would see only the policy's rows
$r = $c->call('execute_sql', '{"sql": "TRUNCATE tr_rls"}');
is($r->{errorType}, 'permission_denied',
	'TRUNCATE of a Citus table under row-level security: refused (its policies would hide rows from the count)')
  or diag(encode_json($r));
is(count_of('tr_rls'), '20', 'nothing was removed');

# a TRUNCATE that fails inside an exception block does not leave its
# shards' exemption behind: a relation named like a shard placed on a
# worker, filled later in the call, is counted
my $shard = $coord->safe_psql('postgres',
	q{SELECT shard_name FROM citus_shards WHERE table_name = 'tr_d2'::regclass AND nodeport <> (SELECT setting::int FROM pg_settings WHERE name = 'port') ORDER BY shardid LIMIT 1});
like($shard, qr/^tr_d2_\d+$/, "a shard of tr_d2 on a worker: $shard");
$r = $c->call('execute_sql',
	qq{{"sql": "DO \$d\$ BEGIN CREATE TABLE tr_boom (i int); CREATE FUNCTION tr_boom() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RAISE EXCEPTION ''boom''; END'; CREATE TRIGGER b BEFORE TRUNCATE ON tr_boom EXECUTE FUNCTION tr_boom(); BEGIN TRUNCATE tr_d2, tr_boom; EXCEPTION WHEN others THEN NULL; END; CREATE MATERIALIZED VIEW $shard AS SELECT g FROM generate_series(1, 50) g; END \$d\$", "max_affected": 60}});
is($r->{errorType}, 'limit_exceeded',
	'a relation named like a shard on a worker, after a TRUNCATE of its table failed in an exception block: its 50 rows count (20 + 50, limit 60)')
  or diag(encode_json($r));
is(count_of('tr_d2'), '20', 'tr_d2 keeps its rows');

$c->stop;
done_testing();
