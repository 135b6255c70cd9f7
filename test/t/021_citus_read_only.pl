# Citus (issue 31): a read-only call is read-only on every node.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatCitus;
use PostgreSQL::Test::Utils;
use Test::More;

my $c = NatCitus->new('ro');
my $coord = $c->{coord};
$coord->safe_psql('postgres', q{
	CREATE TABLE events (tenant_id int NOT NULL, id bigint NOT NULL, kind int, payload text,
		PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('events', 'tenant_id');
	INSERT INTO events SELECT g % 100, g, g % 7, 'p' || g FROM generate_series(1, 20000) g;
	GRANT SELECT, INSERT, UPDATE, DELETE ON events TO agent, agent_ro;
	SELECT run_command_on_all_nodes($c$SET citus.enable_ddl_propagation = off; CREATE TABLE ro_sink (tenant_id int); GRANT ALL ON ro_sink TO PUBLIC$c$);
	CREATE FUNCTION ro_writer(t int) RETURNS int VOLATILE LANGUAGE plpgsql
		AS $f$ BEGIN INSERT INTO ro_sink VALUES (t); RETURN 1; END $f$;
	CREATE FUNCTION ro_stable_writer(t int) RETURNS int STABLE LANGUAGE plpgsql
		AS $f$ BEGIN RETURN ro_writer(t); END $f$;
});
my $before = join "\n", map { $c->node_digest($_) } $c->all_nodes;
my $r = $c->call('execute_sql',
	'{"sql": "SELECT count(*) FROM events WHERE tenant_id IN (1, 2) AND ro_stable_writer(tenant_id) > 0"}',
	'agent_ro');
is($r->{status}, 'error', 'a pushed-down writer is refused');
is(join("\n", map { $c->node_digest($_) } $c->all_nodes), $before, 'nothing changed on any node');
$c->stop;
done_testing();
