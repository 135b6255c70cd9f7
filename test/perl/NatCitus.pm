# A Citus cluster for TAP tests: a coordinator and two workers, each a
# PostgreSQL::Test::Cluster with citus and neon_ai_tools preloaded, the
# workers registered by their socket directory, the extension created (Citus
# propagates it to the workers), and the roles agent (read-write) and
# agent_ro (neon_ai_tools.read_only = on) on every node.
#
#   my $c = NatCitus->new('name');     # skips the whole file without Citus
#   $c->{coord}, @{ $c->{workers} }    # the nodes
#   $c->all_nodes                      # coordinator first
#   $c->call($tool, $args_json, $role) # ai_tool_call() on the coordinator, decoded
#   $c->digest($node, $table)          # md5 of a table's rows, ordered
#   $c->stop
package NatCitus;

use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Cluster;
use NatNode qw(nat_node);
use PostgreSQL::Test::Utils;
use Test::More;

my $json = JSON::PP->new->canonical;

# Is Citus installed for the PostgreSQL the tests run against?
sub available
{
	my $libdir = `pg_config --pkglibdir`;
	chomp $libdir;
	return -f "$libdir/citus.so";
}

sub new
{
	my ($class, $name) = @_;
	plan skip_all => 'Citus is not installed (scripts/test-citus.sh builds it)'
	  unless available();

	my $self = bless { workers => [] }, $class;
	my @nodes;
	for my $role ('coord', 'w1', 'w2')
	{
		my $node = nat_node("${name}_$role");
		$node->append_conf(
			'postgresql.conf', qq{
shared_preload_libraries = 'citus,neon_ai_tools'
max_prepared_transactions = 20
max_connections = 60
citus.shard_count = 8
});
		$node->start;
		$node->safe_psql('postgres', 'CREATE EXTENSION citus');
		push @nodes, $node;
	}
	$self->{coord} = shift @nodes;
	$self->{workers} = \@nodes;

	my $coord = $self->{coord};
	$coord->safe_psql('postgres',
		    "SELECT citus_set_coordinator_host('"
		  . $coord->host . "', "
		  . $coord->port
		  . ')');
	for my $w (@nodes)
	{
		$coord->safe_psql('postgres',
			"SELECT citus_add_node('" . $w->host . "', " . $w->port . ')');
	}
	# roles are propagated by Citus; the extension too (CREATE EXTENSION)
	$coord->safe_psql(
		'postgres', q{
		CREATE EXTENSION neon_ai_tools;
		CREATE ROLE agent LOGIN;
		CREATE ROLE agent_ro LOGIN;
		ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
		GRANT USAGE ON SCHEMA public TO agent, agent_ro;
	});
	return $self;
}

sub all_nodes
{
	my ($self) = @_;
	return ($self->{coord}, @{ $self->{workers} });
}

# ai_tool_call(tool, args) on the coordinator as ROLE (default agent), decoded
sub call
{
	my ($self, $tool, $args, $role) = @_;
	$args =~ s/'/''/g;
	my $out = $self->{coord}->safe_psql(
		'postgres', "SELECT ai_tool_call('$tool', '$args')",
		extra_params => [ '-U', $role || 'agent' ]);
	return $json->decode($out);
}

# md5 of every row of TABLE on NODE, in a fixed order (shards included on a
# worker: the caller names the shard or a plain table)
sub digest
{
	my ($self, $node, $table) = @_;
	return $node->safe_psql('postgres',
		"SET citus.override_table_visibility = off; SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM $table t"
	);
}

# md5 of every table's rows on NODE, shards included: one line per table
sub node_digest
{
	my ($self, $node) = @_;
	my $tables = $node->safe_psql(
		'postgres', q{
		SET citus.override_table_visibility = off;
		SELECT string_agg(format('%I.%I', n.nspname, c.relname), ' ' ORDER BY 1)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind IN ('r', 'p', 'm')
		  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'citus', 'pg_toast')
		  AND n.nspname NOT LIKE 'pg_temp%'});
	my @lines;
	for my $t (split / /, $tables)
	{
		push @lines, "$t " . $self->digest($node, $t);
	}
	return join("\n", @lines);
}

sub stop
{
	my ($self) = @_;
	$_->stop for reverse $self->all_nodes;
}

1;
