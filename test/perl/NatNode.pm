# Every TAP cluster is made here, with an explicit encoding and locale:
# UTF8 and C.UTF-8, which exist on a minimal Debian.  A cluster made by a
# bare $node->init takes the environment's locale instead, and a fresh
# container (env -i, no LANG) has none: initdb then picks SQL_ASCII, and
# every test that stores a non-ASCII character fails.
# scripts/check-clusters.sh fails on an init anywhere else.
#
#   use NatNode qw(nat_node);
#   my $node = nat_node('main');                        # initialized
#   my $primary = nat_node('primary', allows_streaming => 1);
package NatNode;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;

our @EXPORT_OK = qw(nat_node nat_init);

our @INITDB_LOCALE = ('--encoding=UTF8', '--locale=C.UTF-8');

# nat_init(NODE, INIT_PARAMS...): NODE->init with the encoding and locale
sub nat_init
{
	my ($node, %params) = @_;
	$params{extra} = [ @INITDB_LOCALE, @{ $params{extra} // [] } ];
	$node->init(%params);
	return $node;
}

# nat_node(NAME, INIT_PARAMS...): a new cluster, initialized, not started
sub nat_node
{
	my ($name, %params) = @_;
	return nat_init(PostgreSQL::Test::Cluster->new($name), %params);
}

1;
