# The official MCP TypeScript SDK client (npm @modelcontextprotocol/sdk,
# pinned in test/mcp/sdk/package-lock.json) spawns neon-ai-tools-mcp over
# stdio against a fresh cluster, lists the tools and calls them
# (test/mcp/sdk/client.mjs).  Each of the client's TAP results is repeated
# here as one assertion, so the counts include them.
#
# node_modules is installed with `npm ci` when it is missing or older than
# the lock file; without node or npm the test is skipped, saying so.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);

my $root = abs_path(dirname(__FILE__) . '/../..');
my $sdkdir = "$root/test/mcp/sdk";

# --- node and the SDK -----------------------------------------------------------

plan skip_all => 'node is not installed'
  unless system('node --version >/dev/null 2>&1') == 0;
my $node_version = `node --version`;
plan skip_all => "node $node_version is older than 18"
  unless $node_version =~ /^v(\d+)/ && $1 >= 18;

my $installed = "$sdkdir/node_modules/.package-lock.json";
if (!-f $installed || -M "$sdkdir/package-lock.json" < -M $installed)
{
	plan skip_all => 'npm cannot run here and test/mcp/sdk/node_modules is missing'
	  unless system('bash', "$root/scripts/npm-ci.sh", '--available') == 0;
	note("npm ci in $sdkdir");
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[ 'bash', "$root/scripts/npm-ci.sh", $sdkdir ],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout(900));
	ok($ok, 'npm ci installs the pinned MCP SDK') or diag("$out\n$err");
	BAIL_OUT('npm ci failed') unless $ok;
}

# --- the program -----------------------------------------------------------------

my $program = $ENV{NAT_MCP_PROGRAM};
if (!$program)
{
	my $bindir = `pg_config --bindir`;
	chomp $bindir;
	($program) = grep { -x $_ } ("$bindir/neon-ai-tools-mcp",
		"$root/src/mcp/neon-ai-tools-mcp");
}
ok(defined $program, 'neon-ai-tools-mcp is installed or built')
  or BAIL_OUT('neon-ai-tools-mcp not found: run make && make install');

# --- a cluster, the client ----------------------------------------------------------

my $node = nat_node('sdk');
$node->start;
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION neon_ai_tools;
	CREATE TABLE mcp_items (id int PRIMARY KEY, name text, price numeric);
	INSERT INTO mcp_items VALUES (1, 'apple', 1.25), (2, 'pear', 2.5),
		(3, 'plum', 123456789012345678901234567890.123456789);
});

my ($out, $err) = ('', '');
{
	local $ENV{NAT_MCP_PROGRAM} = $program;
	local $ENV{NAT_MCP_CONNINFO} = $node->connstr('postgres');
	IPC::Run::run([ 'node', "$sdkdir/client.mjs" ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(180));
}
my $rc = $? >> 8;

my $plan;
my $count = 0;
foreach my $line (split /\n/, $out)
{
	if ($line =~ /^(not )?ok \d+ - (.*)$/)
	{
		ok(!defined $1, "sdk: $2");
		$count++;
	}
	elsif ($line =~ /^1\.\.(\d+)/) { $plan = $1; }
	elsif ($line =~ /^#/) { note($line); }
}
is($rc, 0, 'the SDK client exits 0') or diag("stdout:\n$out\nstderr:\n$err");
ok(defined $plan && $plan == $count && $count > 0,
	"the SDK client ran its whole plan ($count assertions)");

$node->stop;
done_testing();
