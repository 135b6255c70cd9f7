# Upgrade and uninstall: every older version, installed from its own script
# (sql/neon_ai_tools--0.1.sql is the script released at commit 2e8d298),
# updates to the current one with ALTER EXTENSION ... UPDATE, and the result
# is the same extension as a fresh install, object for object: functions
# (whole definitions: volatility, strictness, parallel safety, SET clauses,
# defaults), owners, privileges and the extension's initial privileges
# (pg_init_privs, what pg_dump compares against), comments, tables with
# their columns, defaults, constraints, indexes, triggers, policies and row
# counts, views, sequences, types, and the configuration dump
# (pg_extension_config_dump).  Also: the 0.1 functions work under today's
# library before the update, a trusted install by a non-superuser owner
# updated by a superuser equals that owner's fresh install, and DROP
# EXTENSION leaves nothing behind.
#
# One cluster, one database, five psql runs: no CREATE DATABASE, each
# install dropped before the next (the test used one database per version
# and a psql run per statement, and took 76 s on PostgreSQL 17 in CI).
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

# Everything that makes up the installed extension, one line per member
# object, sorted: what an update must reproduce exactly.  Runs on 15 to 19.
my $fingerprint = q{
WITH ext AS (
	SELECT * FROM pg_extension WHERE extname = 'neon_ai_tools'
), members AS (
	SELECT d.classid, d.objid
	FROM pg_depend d, ext
	WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid
	  AND d.deptype = 'e'
), initprivs AS (
	SELECT i.classoid, i.objoid,
		   string_agg(i.objsubid || ':' || i.privtype::text || ':' || i.initprivs::text, ' '
					  ORDER BY i.objsubid) AS privs
	FROM pg_init_privs i GROUP BY i.classoid, i.objoid
), rel AS (
	SELECT c.oid,
		' kind=' || c.relkind::text || ' owner=' || c.relowner::regrole ||
		' acl=' || coalesce(c.relacl::text, 'default') ||
		' rls=' || c.relrowsecurity || '/' || c.relforcerowsecurity ||
		' options=' || coalesce(c.reloptions::text, '') ||
		' columns=(' || coalesce((
			SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ||
							  CASE WHEN a.attnotnull THEN ' not null' ELSE '' END ||
							  coalesce(' collate ' || nullif(a.attcollation, 0)::regcollation::text, '') ||
							  coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '') ||
							  coalesce(' acl=' || a.attacl::text, '') ||
							  coalesce(' comment=' || col_description(c.oid, a.attnum), ''),
							  ', ' ORDER BY a.attnum)
			FROM pg_attribute a
			LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
			WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') || ')' ||
		' constraints=(' || coalesce((
			SELECT string_agg(co.conname || ' ' || pg_get_constraintdef(co.oid) ||
							  coalesce(' comment=' || obj_description(co.oid, 'pg_constraint'), ''),
							  ', ' ORDER BY co.conname)
			FROM pg_constraint co WHERE co.conrelid = c.oid), '') || ')' ||
		' indexes=(' || coalesce((
			SELECT string_agg(pg_get_indexdef(i.indexrelid), ', ' ORDER BY pg_get_indexdef(i.indexrelid))
			FROM pg_index i WHERE i.indrelid = c.oid), '') || ')' ||
		' triggers=(' || coalesce((
			SELECT string_agg(pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text, ', ' ORDER BY t.tgname)
			FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal), '') || ')' ||
		' policies=(' || coalesce((
			SELECT string_agg(p.polname || ' ' || p.polcmd::text || ' permissive=' || p.polpermissive ||
							  ' roles=' || p.polroles::regrole[]::text ||
							  ' using=' || coalesce(pg_get_expr(p.polqual, p.polrelid), '') ||
							  ' check=' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), ''),
							  ', ' ORDER BY p.polname)
			FROM pg_policy p WHERE p.polrelid = c.oid), '') || ')' ||
		CASE WHEN c.relkind IN ('v', 'm') THEN ' view=' || pg_get_viewdef(c.oid) ELSE '' END ||
		CASE WHEN c.relkind = 'S' THEN coalesce((
			SELECT ' sequence=' || s.seqtypid::regtype || ' ' || s.seqstart || ' ' || s.seqincrement ||
				   ' ' || s.seqmin || ' ' || s.seqmax || ' ' || s.seqcache || ' ' || s.seqcycle
			FROM pg_sequence s WHERE s.seqrelid = c.oid), '') ELSE '' END ||
		-- rows, not their values: ai_tool_secret holds one random key
		CASE WHEN c.relkind IN ('r', 'p', 'm') THEN ' rows=' ||
			-- (query_to_xml: a count without a function of our own; no libxml needed)
			substring(query_to_xml(format('SELECT count(*) AS n FROM %s', c.oid::regclass),
								   false, true, '')::text FROM '<n>(\d+)</n>')
		ELSE '' END AS descr
	FROM pg_class c WHERE c.oid IN (SELECT objid FROM members WHERE classid = 'pg_class'::regclass)
), typ AS (
	SELECT t.oid,
		' type=' || t.typtype::text || ' owner=' || t.typowner::regrole ||
		' acl=' || coalesce(t.typacl::text, 'default') ||
		CASE t.typtype
			WHEN 'e' THEN ' labels=' || coalesce((
				SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder)
				FROM pg_enum e WHERE e.enumtypid = t.oid), '')
			WHEN 'd' THEN ' base=' || format_type(t.typbasetype, t.typtypmod) ||
				CASE WHEN t.typnotnull THEN ' not null' ELSE '' END ||
				coalesce(' default ' || t.typdefault, '') ||
				' constraints=(' || coalesce((
					SELECT string_agg(co.conname || ' ' || pg_get_constraintdef(co.oid), ', ' ORDER BY co.conname)
					FROM pg_constraint co WHERE co.contypid = t.oid), '') || ')'
			WHEN 'c' THEN ' attributes=(' || coalesce((
				SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
				FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped), '') || ')'
			ELSE ''
		END AS descr
	FROM pg_type t WHERE t.oid IN (SELECT objid FROM members WHERE classid = 'pg_type'::regclass)
), fn AS (
	SELECT p.oid,
		' owner=' || p.proowner::regrole || ' acl=' || coalesce(p.proacl::text, 'default') || ' ' ||
		CASE WHEN p.prokind = 'a' THEN 'aggregate ' || pg_get_function_arguments(p.oid)
			 ELSE pg_get_functiondef(p.oid) END AS descr
	FROM pg_proc p WHERE p.oid IN (SELECT objid FROM members WHERE classid = 'pg_proc'::regclass)
)
SELECT string_agg(regexp_replace(line, '\s*\n\s*', ' ', 'g'), E'\n' ORDER BY line) FROM (
	SELECT 'extension ' || ext.extname || ' relocatable=' || ext.extrelocatable ||
		   ' schema=' || ext.extnamespace::regnamespace || ' owner=' || ext.extowner::regrole ||
		   ' config=' || coalesce(ext.extconfig::regclass[]::text, '{}') ||
		   ' condition=' || coalesce(ext.extcondition::text, '{}') ||
		   ' comment=' || coalesce(obj_description(ext.oid, 'pg_extension'), '')
	FROM ext
	UNION ALL
	SELECT pg_describe_object(m.classid, m.objid, 0) || ':' ||
		   coalesce(rel.descr, typ.descr, fn.descr, '') ||
		   ' initprivs=' || coalesce(ip.privs, '') ||
		   ' comment=' || coalesce(obj_description(m.objid, m.classid::regclass::name), '')
	FROM members m
	LEFT JOIN rel ON m.classid = 'pg_class'::regclass AND rel.oid = m.objid
	LEFT JOIN typ ON m.classid = 'pg_type'::regclass AND typ.oid = m.objid
	LEFT JOIN fn ON m.classid = 'pg_proc'::regclass AND fn.oid = m.objid
	LEFT JOIN initprivs ip ON ip.classoid = m.classid AND ip.objoid = m.objid
) objects(line)
};

# What the database holds of the extension after DROP EXTENSION: nothing.
my $leftovers = q{
	SELECT count(*) FROM pg_extension WHERE extname = 'neon_ai_tools'
	UNION ALL
	SELECT count(*) FROM pg_proc WHERE proname LIKE 'ai\_tool%' OR proname = 'ai_error_info'
	UNION ALL
	SELECT count(*) FROM pg_class WHERE relname LIKE 'ai\_tool%'
	UNION ALL
	SELECT count(*) FROM pg_init_privs i JOIN pg_proc p ON i.classoid = 'pg_proc'::regclass
		AND i.objoid = p.oid WHERE p.proname LIKE 'ai\_%'
};

# Two fingerprints compared line by line: on a difference, the lines only
# one of them has (not two pages of text).
sub same_objects
{
	my ($got, $want, $name) = @_;
	my %g = map { $_ => 1 } split /\n/, $got;
	my %w = map { $_ => 1 } split /\n/, $want;
	my @diff = ((map { "  missing: $_" } grep { !$g{$_} } sort keys %w),
		(map { "  extra:   $_" } grep { !$w{$_} } sort keys %g));
	is(join("\n", @diff), '', $name);
}

my $psql = sub { $node->safe_psql('postgres', $_[0]) };

# Several steps in one psql run (a run costs a backend start and a library
# load, seconds on a loaded CI machine): each step's output, in order.
sub steps
{
	my @sql = @_;
	my $out = $psql->(join "\n\\echo ~~~\n", @sql);
	my @parts = map { s/^\n//r =~ s/\n$//r } split /^~~~$/m, $out, -1;
	die "expected " . scalar(@sql) . " outputs, got " . scalar(@parts) unless @parts == @sql;
	return @parts;
}

my ($versions, $default_trusted) = steps(
	# every version an install script exists for, oldest first
	q{SELECT version FROM pg_available_extension_versions
	  WHERE name = 'neon_ai_tools'
	  ORDER BY string_to_array(version, '.')::int[];},
	q{SELECT v.version || '|' || v.trusted
	  FROM pg_available_extension_versions v JOIN pg_available_extensions e USING (name)
	  WHERE v.name = 'neon_ai_tools' AND v.version = e.default_version;});
my @versions = split /\n/, $versions;
my ($default, $trusted) = split /\|/, $default_trusted;
like($default, qr/^\d+\.\d+\.\d+$/, "the control file names a semantic default version ($default)");
ok(scalar(grep { $_ eq $default } @versions), 'the default version can be installed');
ok(scalar(grep { $_ eq '0.1' } @versions), '0.1 (as released at 2e8d298) can be installed');

my ($paths, $fresh, $left) = steps(
	qq{SELECT source || '|' || coalesce(path, '') FROM pg_extension_update_paths('neon_ai_tools')
	   WHERE target = '$default';},
	"CREATE EXTENSION neon_ai_tools; $fingerprint;",
	"DROP EXTENSION neon_ai_tools; $leftovers;");
my %paths = map { split /\|/ } split /\n/, $paths;
like($fresh, qr/function ai_tool_call\(text,jsonb\)/, 'the fingerprint lists the functions');
like($fresh, qr/table ai_tool_definitions:.* rows=0/, '... the tables and their rows');
like($fresh, qr/config=\{ai_tool_definitions\}/, '... and the configuration dump');
is($left, "0\n0\n0\n0", 'DROP EXTENSION leaves nothing behind');

my $members = q{
	SELECT string_agg(pg_describe_object(classid, objid, 0), ', '
					  ORDER BY pg_describe_object(classid, objid, 0))
	FROM pg_depend WHERE deptype = 'e' AND refobjid =
		(SELECT oid FROM pg_extension WHERE extname = 'neon_ai_tools');};
foreach my $v (grep { $_ ne $default } @versions)
{
	ok(($paths{$v} // '') ne '', "$v has an update path to $default (" . ($paths{$v} // "none") . ")");
	# today's library under the old SQL, until ALTER EXTENSION ... UPDATE:
	# every symbol the old script names is there and answers
	my ($old, $window, $updated, $objects, $works) = steps(
		"CREATE EXTENSION neon_ai_tools VERSION '$v'; $members",
		q{CREATE TABLE t (id int PRIMARY KEY);
		  INSERT INTO t SELECT generate_series(1, 3);
		  SELECT jsonb_typeof(ai_tool_list('native'));
		  SELECT ai_tool_call('select_query', '{"table": "t"}') ->> 'status';
		  SELECT ai_error_info('relation "x" does not exist') ->> 'errorType';
		  SELECT ai_tool_call('select_query', '{"table": "t", "limit": 1}') #>> '{details,hint}';
		  DROP TABLE t;},
		"ALTER EXTENSION neon_ai_tools UPDATE;
		 SELECT extversion FROM pg_extension WHERE extname = 'neon_ai_tools';",
		"$fingerprint;",
		q{SELECT ai_tool_call('list_tables', '{}') ->> 'status';
		  SELECT jsonb_typeof(ai_tool_list('native', true));
		  DROP EXTENSION neon_ai_tools;});
	if ($v eq '0.1')
	{
		# the script as released: three functions, nothing else
		is($old,
			'function ai_error_info(text,text), function ai_tool_call(text,jsonb), function ai_tool_list(text)',
			'0.1 installs the three functions of 2e8d298');
		is($window, "array\nsuccess\ninvalid_table\n" .
			'Update the extension: ALTER EXTENSION neon_ai_tools UPDATE; if it is already at its current version, re-create it.',
			'0.1 under the current library: list, call and error_info work; a continuation token asks for the update');
	}
	is($updated, $default, "$v updated to $default");
	same_objects($objects, $fresh, "$v updated to $default equals a fresh install of $default");
	is($works, "success\narray", "the tools work after the update from $v");
}

# A trusted extension (0.1 was trusted at 2e8d298 too), installed by a
# database user who is no superuser and updated by a superuser: the result
# is that user's fresh install (the update grants what the install script
# grants to @extowner@ to the extension's owner, not to the updater).
# Then a reinstall: the same extension again.
is($trusted, 'true', "$default is trusted");
my ($owned, $updated, $again) = steps(
	"CREATE ROLE app_owner LOGIN;
	 GRANT CREATE ON DATABASE postgres TO app_owner;
	 GRANT CREATE ON SCHEMA public TO app_owner;
	 SET ROLE app_owner; CREATE EXTENSION neon_ai_tools; RESET ROLE;
	 $fingerprint;",
	"SET ROLE app_owner; DROP EXTENSION neon_ai_tools;
	 CREATE EXTENSION neon_ai_tools VERSION '0.1'; RESET ROLE;
	 ALTER EXTENSION neon_ai_tools UPDATE;
	 $fingerprint;",
	"SET ROLE app_owner; DROP EXTENSION neon_ai_tools; RESET ROLE;
	 CREATE EXTENSION neon_ai_tools;
	 $fingerprint;");
like($owned, qr/owner=app_owner/, 'a non-superuser installs the trusted extension and owns it');
same_objects($updated, $owned,
	"0.1 installed by app_owner, updated by a superuser, equals app_owner's fresh install");
same_objects($again, $fresh, 'a reinstall equals the first install');

# The fingerprint sees what an update script could miss: each change,
# made and rolled back, makes it differ from a fresh install.
my @misses = (
	'COMMENT ON TABLE ai_tool_secret IS NULL',
	'REVOKE EXECUTE ON FUNCTION ai_tool_define(text, text, text, jsonb, jsonb) FROM CURRENT_USER',
	'GRANT SELECT ON ai_tool_definitions TO PUBLIC',
	'ALTER FUNCTION ai_tool_plan_cache_stats() PARALLEL UNSAFE',
	'ALTER FUNCTION ai_tool_call(text, jsonb) SET search_path = pg_catalog',
	'ALTER TABLE ai_tool_definitions DROP CONSTRAINT ai_tool_definitions_name_check',
	q{ALTER TABLE ai_tool_definitions ALTER COLUMN options SET DEFAULT '{}'},
	'ALTER TABLE ai_tool_confirmation_used ENABLE ROW LEVEL SECURITY',
	'CREATE POLICY p ON ai_tool_definitions USING (false)',
	'DELETE FROM ai_tool_secret',
	'ALTER EXTENSION neon_ai_tools DROP TABLE ai_tool_confirmation_used');
# One psql run: the fingerprints' md5, the unchanged one first.
my $md5 = "SELECT md5(f) FROM ($fingerprint) fp(f);";
my ($unchanged, @changed) = split /\n/, $psql->(join "\n", 'BEGIN;', $md5,
	(map { "SAVEPOINT s; $_; $md5 ROLLBACK TO s;" } @misses), 'ROLLBACK;');
is(join("\n", map { $misses[$_] } grep { $changed[$_] eq $unchanged } 0 .. $#misses), '',
	'the fingerprint tells each of ' . scalar(@misses) . ' possible misses from a fresh install');

$node->stop;
done_testing();
