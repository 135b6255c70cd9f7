# Upgrade and uninstall: every version the install scripts offer updates to
# the current one (ALTER EXTENSION ... UPDATE), and the result is the same
# extension as a fresh install, object for object: function definitions
# (volatility, strictness, parallel safety, SET clauses), privileges and
# comments.  DROP EXTENSION leaves nothing behind.
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
$node->start;

# Everything that makes up the installed extension, one line per object,
# sorted: what an upgrade must reproduce exactly.
my $fingerprint = q{
	SELECT string_agg(line, E'\n' ORDER BY line) FROM (
		SELECT 'extension ' || e.extname || ' relocatable=' || e.extrelocatable ||
			   ' schema=' || e.extnamespace::regnamespace ||
			   ' config=' || coalesce(e.extconfig::regclass[]::text, '{}') ||
			   ' comment=' || coalesce(obj_description(e.oid, 'pg_extension'), '') AS line
		FROM pg_extension e WHERE e.extname = 'neon_ai_tools'
		UNION ALL
		SELECT pg_describe_object(d.classid, d.objid, d.objsubid) || ': ' ||
			   CASE d.classid
				   WHEN 'pg_proc'::regclass THEN
					   pg_get_functiondef(d.objid) ||
					   ' acl=' || coalesce((SELECT proacl::text FROM pg_proc WHERE oid = d.objid), 'default')
				   WHEN 'pg_class'::regclass THEN
					   coalesce((SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
								 FROM pg_attribute WHERE attrelid = d.objid AND attnum > 0 AND NOT attisdropped), '') ||
					   ' acl=' || coalesce((SELECT relacl::text FROM pg_class WHERE oid = d.objid), 'default')
				   ELSE ''
			   END ||
			   ' comment=' || coalesce(obj_description(d.objid, d.classid::regclass::name), '')
		FROM pg_depend d
		WHERE d.refclassid = 'pg_extension'::regclass
		  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'neon_ai_tools')
		  AND d.deptype = 'e'
	) objects(line)
};

my $default = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'neon_ai_tools'");
like($default, qr/^\d+\.\d+$/, "the control file names a default version ($default)");

$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION neon_ai_tools');
my $fresh = $node->safe_psql('fresh', $fingerprint);
like($fresh, qr/function ai_tool_call\(text,jsonb\)/, 'the fingerprint lists the functions');

# Every version an install script exists for, oldest first.
my @versions = split /\n/, $node->safe_psql('postgres', q{
	SELECT version FROM pg_available_extension_versions
	WHERE name = 'neon_ai_tools'
	ORDER BY string_to_array(version, '.')::int[]});
ok(scalar(grep { $_ eq $default } @versions), 'the default version can be installed');

foreach my $v (@versions)
{
	my $db = "from_" . ($v =~ s/\W/_/gr);
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION neon_ai_tools VERSION '$v'");
	my $path = $node->safe_psql('postgres', qq{
		SELECT coalesce(path, '') FROM pg_extension_update_paths('neon_ai_tools')
		WHERE source = '$v' AND target = '$default'});
	ok($v eq $default || $path ne '', "$v has an update path to $default ($path)");
	$node->safe_psql($db, 'ALTER EXTENSION neon_ai_tools UPDATE');
	is($node->safe_psql($db, "SELECT extversion FROM pg_extension WHERE extname = 'neon_ai_tools'"),
		$default, "$v updated to $default");
	is($node->safe_psql($db, $fingerprint), $fresh,
		"$v updated to $default equals a fresh install of $default");
	is($node->safe_psql($db,
			q{SELECT ai_tool_call('list_tables', '{}') ->> 'status'}),
		'success', "a tool call works after the update from $v");
}

# Uninstall: nothing of the extension is left in the database.
$node->safe_psql('fresh', 'DROP EXTENSION neon_ai_tools');
is($node->safe_psql('fresh', q{
	SELECT count(*) FROM pg_proc
	WHERE proname IN ('ai_tool_list', 'ai_tool_call', 'ai_error_info', 'ai_tool_plan_cache_stats')}),
	'0', 'DROP EXTENSION removes every function');
is($node->safe_psql('fresh',
		"SELECT count(*) FROM pg_extension WHERE extname = 'neon_ai_tools'"),
	'0', 'DROP EXTENSION removes the extension');
# and it can be installed again
$node->safe_psql('fresh', 'CREATE EXTENSION neon_ai_tools');
is($node->safe_psql('fresh', $fingerprint), $fresh, 'a reinstall equals the first install');

$node->stop;
done_testing();
