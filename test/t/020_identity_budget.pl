# Issue 29, "One caller, one identity, one budget", seen from other
# sessions: every case of the issue's "Must be shown" list run as written,
# as the role and through the path written, and checked from a second
# session (the rows, pg_roles / pg_db_role_setting, pg_class.relfilenode,
# pg_stat_user_tables.last_analyze, lastval() in the other caller's call).
# pg_regress (test/sql/identity_budget.sql) holds the single-session cases.
#
#   1. the call's identity is fixed: SET [LOCAL] ROLE, RESET ROLE, SET ...
#      TO DEFAULT, SET [LOCAL] SESSION AUTHORIZATION (also DEFAULT),
#      set_config('role' | 'session_authorization', value or NULL, ...), a
#      column DEFAULT calling set_config and functions whose SET clause
#      names role are refused at every level (execute_sql single and
#      multiple, DO, PL/pgSQL functions, CALL, query_to_xml, xml2's
#      xpath_table, insert_data, custom tools, ai_tool_run), through the
#      authenticator pattern over SQL (SET ROLE, and a superuser's SET
#      SESSION AUTHORIZATION) and over neon-ai-tools-mcp --http, also with
#      a superuser role granted to the authenticator; SECURITY DEFINER
#      functions keep working; sequence state (lastval/currval) does not
#      cross callers on one backend;
#   2. read-only calls run utility statements by allow-list at every level
#      (CLUSTER, REINDEX, ANALYZE, VACUUM, CHECKPOINT, COMMENT, SECURITY
#      LABEL, LOCK, REFRESH MATERIALIZED VIEW through xpath_table refused;
#      SHOW, EXPLAIN, DO, SET LOCAL still run);
#   3. max_affected_rows counts every row the call changes, at every level
#      (DO, functions, CALL, data-modifying WITH, MERGE, rules, triggers,
#      ON DELETE CASCADE, TRUNCATE [CASCADE], DROP TABLE, CREATE TABLE AS),
#      and affectedRows reports that total (statementAffectedRows beside it
#      when the statement's own count differs);
#   4. confirmation = token counts the same total (WITH, DO, TRUNCATE, a
#      filtered delete's cascade);
#   5. max_call_memory bounds a call's memory (VmHWM growth under the cap +
#      32 MB, plus what building large arguments costs without any call,
#      within timeout + 1 s, the session goes on), and the settings that
#      raise resource use cannot be raised inside a call (by SET LOCAL,
#      set_config, a function's SET clause or a reset), only lowered;
#   6. ai_tool_run has one deadline for all its calls (run_timeout).
#
# The server runs under an address-space limit (prlimit --as, as in
# 010_resources.pl), so a regression fails a call with "out of memory"
# instead of taking the machine down.  Every case failed before issue 29
# but the controls (marked so) and three utility statements PostgreSQL's
# read-only transaction already refused (COMMENT, SECURITY LABEL, REFRESH
# MATERIALIZED VIEW).
use strict;
use warnings;

use Cwd qw(abs_path);
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use IPC::Run;
use Time::HiRes qw(time);

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use lib abs_path(dirname(__FILE__) . '/../mcp/http');
use McpHttp;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);
use NatSession qw(hwm_mb);

my $MB = 1024 * 1024;
my $AS_LIMIT = 2048 * $MB;    # address space of every backend
my $CAP_MB = 64;              # neon_ai_tools.max_call_memory of the memory cases
my $suite_start = time;

my $node = nat_node('identity_budget');
$node->append_conf('postgresql.conf',
	"shared_buffers = 32MB\nautovacuum = off\nlog_min_messages = warning\n");
$node->start;

# Every backend forked from now on inherits the limit.
my $pm_pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
system('prlimit', "--pid=$pm_pid", "--as=$AS_LIMIT") == 0
  or BAIL_OUT('prlimit --as failed on the postmaster (util-linux prlimit is needed)');
my $start_time = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

my $have_xml2 = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_available_extensions WHERE name = 'xml2'}) eq '1';

# ---------------------------------------------------------------------------
# Roles and data.
#
# authn: the authenticator (NOINHERIT, granted the agents, as
# neon-ai-tools-mcp --http and the README's SQL pattern use it) is also
# granted su_role, a superuser role: an agent that could change the role
# would become a superuser.

$node->safe_psql(
	'postgres', q{
CREATE EXTENSION neon_ai_tools;
CREATE ROLE authn LOGIN NOINHERIT;
CREATE ROLE agent_a NOLOGIN;
CREATE ROLE agent_b NOLOGIN PASSWORD 'b-password';
CREATE ROLE agent_ro LOGIN;
CREATE ROLE su_role SUPERUSER NOLOGIN;
CREATE ROLE writer LOGIN;
CREATE ROLE confirmer LOGIN;
CREATE ROLE memrole LOGIN;
CREATE ROLE runner LOGIN;
GRANT agent_a, agent_b, agent_ro, su_role TO authn;
GRANT pg_checkpoint TO agent_ro;
GRANT CREATE ON SCHEMA public TO writer, confirmer;
ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
ALTER ROLE writer SET neon_ai_tools.max_affected_rows = 10;
ALTER ROLE confirmer SET neon_ai_tools.confirmation = 'token';

-- row-level security per tenant
CREATE TABLE public.tenant_data (id serial PRIMARY KEY, owner name NOT NULL DEFAULT current_user, secret text);
ALTER TABLE public.tenant_data ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON public.tenant_data USING (owner = current_user) WITH CHECK (owner = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON public.tenant_data TO agent_a, agent_b;
GRANT USAGE, SELECT ON SEQUENCE public.tenant_data_id_seq TO agent_a, agent_b;
INSERT INTO public.tenant_data (owner, secret)
  VALUES ('agent_a', 'a-secret-1'), ('agent_b', 'b-secret-1'), ('agent_b', 'b-secret-2');

-- the role changed below the agent's statement
CREATE FUNCTION public.become_b() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('role', 'agent_b', true);
  RETURN (SELECT string_agg(secret, ',' ORDER BY id) FROM public.tenant_data);
END$$;
CREATE PROCEDURE public.become_b_p() LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL ROLE agent_b;
  UPDATE public.tenant_data SET secret = 'pwned-by-procedure';
END$$;
CREATE FUNCTION public.secrets_as_b() RETURNS text LANGUAGE sql SET role = 'agent_b'
  AS $$SELECT string_agg(secret, ',' ORDER BY id) FROM public.tenant_data$$;
-- a column default that changes the role, for the structured tools
CREATE TABLE public.sneaky (id int PRIMARY KEY, r text DEFAULT set_config('role', 'agent_b', true));
GRANT SELECT, INSERT ON public.sneaky TO agent_a;
-- a function whose SET clause raises a setting
CREATE FUNCTION public.big_work_mem() RETURNS text LANGUAGE sql SET work_mem = '1GB'
  AS $$SELECT current_setting('work_mem')$$;
-- what an administrator grants on purpose: must keep working
CREATE FUNCTION public.count_all() RETURNS bigint LANGUAGE sql SECURITY DEFINER
  SET search_path = pg_catalog AS $$SELECT count(*) FROM public.tenant_data$$;
SELECT ai_tool_define('peek_b', 'Peek.', 'SELECT public.become_b() AS s', '[]') IS NOT NULL;

-- write budget (writer: max_affected_rows = 10)
CREATE TABLE public.items (id int PRIMARY KEY, v text);
INSERT INTO public.items SELECT g, 'v' || g FROM generate_series(1, 500) g;
CREATE TABLE public.small (id int PRIMARY KEY);
INSERT INTO public.small SELECT generate_series(1, 20);
CREATE FUNCTION public.wipe() RETURNS int LANGUAGE plpgsql AS $$
BEGIN DELETE FROM public.items WHERE id > 100; RETURN 1; END$$;
CREATE PROCEDURE public.wipe_p() LANGUAGE plpgsql AS $$
BEGIN DELETE FROM public.items WHERE id > 100; END$$;
CREATE TABLE public.ruled (id int PRIMARY KEY, v text);
INSERT INTO public.ruled VALUES (1, 'x'), (2, 'x');
CREATE RULE ruled_also AS ON UPDATE TO public.ruled DO ALSO DELETE FROM public.items WHERE id > 100;
CREATE TABLE public.ruled_small (id int PRIMARY KEY, v text);
INSERT INTO public.ruled_small VALUES (1, 'x');
CREATE RULE ruled_small_also AS ON UPDATE TO public.ruled_small DO ALSO DELETE FROM public.small WHERE id BETWEEN 9 AND 11;
CREATE TABLE public.trig (id int PRIMARY KEY);
CREATE FUNCTION public.trig_wipe() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM public.items WHERE id > 100; RETURN NEW; END$$;
CREATE TRIGGER trig_wipe AFTER INSERT ON public.trig FOR EACH ROW EXECUTE FUNCTION public.trig_wipe();
CREATE TABLE public.parent (id int PRIMARY KEY);
INSERT INTO public.parent VALUES (1), (2);
CREATE TABLE public.child (id int PRIMARY KEY, parent_id int REFERENCES public.parent ON DELETE CASCADE);
INSERT INTO public.child SELECT g, 1 FROM generate_series(1, 500) g;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.items, public.small, public.ruled, public.ruled_small, public.trig,
  public.parent, public.child TO writer;
SET ROLE writer;
CREATE TABLE public.own500 (id int PRIMARY KEY);
INSERT INTO public.own500 SELECT generate_series(1, 500);
CREATE TABLE public.tparent (id int PRIMARY KEY);
INSERT INTO public.tparent VALUES (1);
CREATE TABLE public.tchild (id int PRIMARY KEY, parent_id int REFERENCES public.tparent);
INSERT INTO public.tchild SELECT g, 1 FROM generate_series(1, 500) g;
CREATE TABLE public.drop500 (id int PRIMARY KEY);
INSERT INTO public.drop500 SELECT generate_series(1, 500);
RESET ROLE;

-- confirmation (confirmer: confirmation = token)
CREATE TABLE public.citems (id int PRIMARY KEY);
INSERT INTO public.citems SELECT generate_series(1, 500);
GRANT SELECT, DELETE ON public.citems TO confirmer;
CREATE TABLE public.cparent (id int PRIMARY KEY);
INSERT INTO public.cparent VALUES (1), (2);
CREATE TABLE public.cchild (id int PRIMARY KEY, parent_id int REFERENCES public.cparent ON DELETE CASCADE);
INSERT INTO public.cchild SELECT g, 1 FROM generate_series(1, 500) g;
GRANT SELECT, DELETE ON public.cparent, public.cchild TO confirmer;
SET ROLE confirmer;
CREATE TABLE public.cown (id int PRIMARY KEY);
INSERT INTO public.cown SELECT generate_series(1, 500);
RESET ROLE;

-- memory
CREATE TABLE public.args (k text PRIMARY KEY, a jsonb);
CREATE TABLE public.blob (id int PRIMARY KEY, v text);
INSERT INTO public.blob VALUES (1, 'small');
GRANT SELECT, UPDATE ON public.blob TO memrole;
GRANT SELECT ON public.args TO memrole;
INSERT INTO public.args SELECT 'update_' || n || 'mb', jsonb_build_object('table', 'blob',
  'where', jsonb_build_object('id', 1), 'set', jsonb_build_object('v', repeat('x', n * 1000000)),
  'returning', '[]'::jsonb) FROM (VALUES (6), (100)) v(n);
INSERT INTO public.args SELECT 'update_32mb', jsonb_build_object('table', 'blob',
  'where', jsonb_build_object('id', 1), 'set', jsonb_build_object('v', repeat('x', 32000000)),
  'returning', '[]'::jsonb);
});

# Settings that exist only with issue 29: an older build refuses them (a
# reserved prefix); the cases that need them then fail on their own.
foreach my $s (
	[ 'memrole', 'neon_ai_tools.max_call_memory', "'${CAP_MB}MB'" ],
	[ 'runner', 'neon_ai_tools.run_timeout', '1500' ])
{
	my ($rc, $out, $err) = $node->psql('postgres', "ALTER ROLE $s->[0] SET $s->[1] = $s->[2]");
	note("ALTER ROLE $s->[0] SET $s->[1]: " . ($rc == 0 ? 'done' : "failed: $err"));
}

if ($have_xml2)
{
	$node->safe_psql(
		'postgres', q{
CREATE EXTENSION xml2;
-- a read-only role that owns a table (the issue's r3.ro_owned)
CREATE SCHEMA r3 AUTHORIZATION agent_ro;
SET ROLE agent_ro;
CREATE TABLE r3.ro_owned (id int CONSTRAINT ro_owned_pkey PRIMARY KEY, x text);
INSERT INTO r3.ro_owned SELECT g, '<a>' || g || '</a>' FROM generate_series(1, 100) g;
CREATE MATERIALIZED VIEW r3.mv AS SELECT id FROM r3.ro_owned;
RESET ROLE;
-- a writing role's own table, read with "read_only": true
SET ROLE writer;
CREATE TABLE public.w_owned (id int CONSTRAINT w_owned_pkey PRIMARY KEY, x text);
INSERT INTO public.w_owned SELECT g, '<a/>' FROM generate_series(1, 100) g;
RESET ROLE;
});
}

# ---------------------------------------------------------------------------
# Helpers

# a jsonb literal of ARGS (a Perl structure or JSON text)
sub jarg
{
	my ($args) = @_;
	my $j = ref $args ? $json->encode($args) : $args;
	die "arguments hold the quote tag" if $j =~ /\$A9\$/;
	return "\$A9\$$j\$A9\$::jsonb";
}

# Run SQL in a fresh session of USER (default: the bootstrap superuser);
# the last line of the output is decoded as JSON.  Returns {rc, out, err,
# secs, ans, lines}.
sub run_sql
{
	my ($sql, %o) = @_;
	my @extra = $o{user} ? ('-U', $o{user}) : ();
	my $t0 = time;
	my ($rc, $out, $err) = $node->psql('postgres', $sql, extra_params => \@extra,
		timeout => $o{timeout} // 60);
	my $secs = time - $t0;
	my @lines = grep { /^[\[{]/ } split /\n/, $out // '';
	my @ans = map { my $x = eval { $json->decode($_) }; $x // {} } @lines;
	return {
		rc => $rc, out => $out // '', err => $err // '', secs => $secs,
		ans => $ans[-1] // {}, all => \@ans
	};
}

# One tool call: user (login role), role (SET ROLE before), tool, args.
sub call
{
	my (%o) = @_;
	my $sql = '';
	$sql .= "SET ROLE $o{role};\n" if $o{role};
	$sql .= "SELECT ai_tool_call('$o{tool}', " . jarg($o{args}) . ");\n";
	return run_sql($sql, %o);
}

# execute_sql as agent_a through the authenticator
sub as_a
{
	my ($args) = @_;
	$args = { sql => $args } unless ref $args;
	return call(user => 'authn', role => 'agent_a', tool => 'execute_sql', args => $args);
}

# the rows of an answer, as JSON text (a refusal may echo the query, never rows)
sub data_of
{
	my ($r) = @_;
	return $json->encode($r->{ans}{data} // []);
}

sub kinds
{
	my ($a) = @_;
	return join('/', map { $a->{$_} // '-' } qw(errorType error_type));
}

sub text_of
{
	my ($a) = @_;
	return join(' ', map { $a->{$_} // '' } qw(error message));
}

# An error answer of kind WANT (errorType, error_type or error), whose
# message matches MSG_RE when given.
sub refused
{
	my ($r, $want, $label, $msg_re) = @_;
	my $a = $r->{ans};
	my $ok = ref $a eq 'HASH' && !($a->{success} // 0)
	  && grep { defined $_ && !ref $_ && $_ eq $want } @$a{qw(errorType error_type error)};
	ok($ok, "$label: refused with $want")
	  or diag("answer: " . substr($r->{out}, 0, 1500) . "\nstderr: " . substr($r->{err}, 0, 500));
	if ($msg_re)
	{
		like(text_of($a), $msg_re, "$label: the message names what was refused")
		  or diag("answer: " . substr($r->{out}, 0, 800));
	}
	return $ok;
}

sub succeeded
{
	my ($r, $label) = @_;
	ok(($r->{ans}{success} // 0) && $r->{err} !~ /ERROR|FATAL/, "$label: succeeds")
	  or diag("answer: " . substr($r->{out}, 0, 1500) . "\nstderr: " . substr($r->{err}, 0, 500));
}

# from a second session
sub q2 { return $node->safe_psql('postgres', $_[0]); }

# the same, for SQL that fails when a case was not refused
sub q2_soft
{
	my ($rc, $out, $err) = $node->psql('postgres', $_[0]);
	return $rc == 0 ? $out : "error: $err";
}

my $tenant_rows = q{SELECT string_agg(owner || ':' || secret, ',' ORDER BY id) FROM public.tenant_data};
my $tenant_before = q2($tenant_rows);

# Put back what a case changed (on a build where the case is not refused),
# so that every case starts from the same state.
sub restore_tenant
{
	q2(q{DELETE FROM public.tenant_data;
	INSERT INTO public.tenant_data (id, owner, secret)
	  VALUES (1, 'agent_a', 'a-secret-1'), (2, 'agent_b', 'b-secret-1'), (3, 'agent_b', 'b-secret-2');
	ALTER ROLE agent_ro SET neon_ai_tools.read_only = on;
	ALTER ROLE agent_a NOSUPERUSER;});
}
my $role_re = qr/\brole\b|session.?authorization/i;

# ---------------------------------------------------------------------------
# 1. The call's identity is fixed.

# the authenticator pattern over SQL: SET ROLE agent_a, then the issue's call
{
	my $r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'agent_b', true); SELECT current_user, secret FROM public.tenant_data} });
	refused($r, 'permission_denied', "1 set_config('role', 'agent_b', true) in a multiple call", $role_re);
	unlike($r->{out}, qr/b-secret/, "1 set_config('role'): no agent_b row in the answer");

	$r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'agent_b', true); UPDATE public.tenant_data SET secret = 'pwned'} });
	refused($r, 'permission_denied', "1 set_config('role') then UPDATE", $role_re);
	is(q2($tenant_rows), $tenant_before, "1 set_config('role') then UPDATE: agent_b's rows unchanged (second session)");
	restore_tenant();

	$r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'none', true); SELECT current_user AS u} });
	refused($r, 'permission_denied', "1 set_config('role', 'none', true)", $role_re);
	unlike(data_of($r), qr/authn/, "1 set_config('role', 'none'): no row shows the authenticator as current_user");

	$r = as_a({ sql => q{SELECT set_config('role', 'agent_b', false)} });
	refused($r, 'permission_denied', "1 set_config('role', 'agent_b', false)", $role_re);

	# a NULL value resets the setting: the authenticator again
	$r = as_a({ mode => 'multiple', sql => q{SELECT set_config('role', NULL, true); SELECT current_user AS u} });
	refused($r, 'permission_denied', "1 set_config('role', NULL, true)", $role_re);
	unlike(data_of($r), qr/authn/, "1 set_config('role', NULL): no row shows the authenticator as current_user");

	# the session is as it was: still agent_a, and its next call works (a
	# control: settings a call changes were always undone)
	$r = run_sql("SET ROLE agent_a;\nSELECT ai_tool_call('execute_sql', "
		  . jarg({ mode => 'multiple', sql => q{SELECT set_config('role', 'agent_b', false); SELECT 1} })
		  . ");\nSELECT current_user || ' ' || session_user || ' ' || current_setting('role');\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => 'SELECT current_user AS u' }) . ");",
		user => 'authn');
	like($r->{out}, qr/^agent_a authn agent_a$/m,
		'1 after a refused call, the session is still agent_a (current_user, role)')
	  or diag("stdout: $r->{out}\nstderr: $r->{err}");
	is_deeply($r->{ans}{data}, [ { u => 'agent_a' } ], '1 ... and its next call runs as agent_a');
}

# the agent's own statement: refused before anything runs, as before
# issue 29 (invalid_parameters from the statement check, or
# permission_denied); a control
foreach my $sql ('SET LOCAL ROLE agent_b', 'RESET ROLE', 'SET SESSION AUTHORIZATION agent_b')
{
	my $r = as_a({ mode => 'multiple', sql => "$sql; SELECT current_user, secret FROM public.tenant_data" });
	ok(!($r->{ans}{success} // 1) && kinds($r->{ans}) =~ /permission_denied|invalid_parameters/
		  && text_of($r->{ans}) =~ $role_re,
		"1 $sql as the agent's own statement: refused, naming the role")
	  or diag('answer: ' . substr($r->{out}, 0, 800));
	unlike($r->{out}, qr/b-secret/, "1 $sql as the agent's own statement: no agent_b row");
}

# every level: DO, PL/pgSQL function, CALL, a function's SET clause,
# query_to_xml, a custom tool
{
	my @cases = (
		[ 'DO SET LOCAL ROLE', q{DO $$BEGIN SET LOCAL ROLE agent_b; UPDATE public.tenant_data SET secret = 'pwned-by-do'; END$$} ],
		[ 'DO SET ROLE', q{DO $$BEGIN SET ROLE agent_b; UPDATE public.tenant_data SET secret = 'pwned-by-do'; END$$} ],
		[ 'DO RESET ROLE', q{DO $$BEGIN RESET ROLE; UPDATE public.tenant_data SET secret = 'pwned-by-do'; END$$} ],
		[ 'DO set_config(role)', q{DO $$BEGIN PERFORM set_config('role', 'agent_b', true); UPDATE public.tenant_data SET secret = 'pwned-by-do'; END$$} ],
		[ 'PL/pgSQL function', q{SELECT public.become_b()} ],
		[ 'CALL', q{CALL public.become_b_p()} ],
		[ "a function's SET role clause", q{SELECT public.secrets_as_b()} ],
	);
	foreach my $c (@cases)
	{
		my $r = as_a($c->[1]);
		refused($r, 'permission_denied', "1 $c->[0]", $role_re);
		unlike($r->{out}, qr/b-secret/, "1 $c->[0]: no agent_b row in the answer");
		is(q2($tenant_rows), $tenant_before, "1 $c->[0]: tenant_data unchanged (second session)");
		restore_tenant();
	}
	# SET LOCAL ... TO DEFAULT in a DO block lasts past it: the next
	# statement would run as the authenticator
	my $r = as_a({ mode => 'multiple',
		sql => q{DO $$BEGIN SET LOCAL role TO DEFAULT; END$$; SELECT current_user AS u} });
	refused($r, 'permission_denied', '1 DO SET LOCAL role TO DEFAULT', $role_re);
	unlike(data_of($r), qr/authn/, '1 DO SET LOCAL role TO DEFAULT: nothing ran as the authenticator');

	# a column DEFAULT calling set_config('role'), through insert_data
	$r = call(user => 'authn', role => 'agent_a', tool => 'insert_data', args => { table => 'sneaky', rows => { id => 1 } });
	refused($r, 'permission_denied', "1 insert_data into a table whose DEFAULT calls set_config('role')", $role_re);
	is(q2('SELECT count(*) FROM public.sneaky'), '0', '1 column DEFAULT: no row kept (second session)');

	$r = as_a({ mode => 'multiple',
		sql => q{SELECT query_to_xml('SELECT set_config(''role'', ''agent_b'', true)', true, true, ''); SELECT current_user, secret FROM public.tenant_data} });
	refused($r, 'permission_denied', '1 query_to_xml running set_config(role)', $role_re);
	unlike($r->{out}, qr/b-secret/, '1 query_to_xml: no agent_b row in the answer');

	$r = call(user => 'authn', role => 'agent_a', tool => 'peek_b', args => {});
	refused($r, 'permission_denied', '1 a custom tool whose SQL changes the role', $role_re);
	unlike($r->{out}, qr/b-secret/, '1 custom tool: no agent_b row in the answer');

	is(q2($tenant_rows), $tenant_before, '1 query_to_xml, custom tool: tenant_data unchanged (second session)');
	restore_tenant();
}

# ai_tool_run: the same attack in a model's tool call
{
	my $resp = {
		role => 'assistant',
		tool_calls => [
			{
				id => 'r1', type => 'function',
				function => {
					name => 'execute_sql',
					arguments => $json->encode({ mode => 'multiple',
						sql => q{SELECT set_config('role', 'agent_b', true); SELECT current_user, secret FROM public.tenant_data} })
				}
			}
		]
	};
	my $r = run_sql("SET ROLE agent_a;\nSELECT ai_tool_run(" . jarg($resp) . ");", user => 'authn');
	my $msg = ref $r->{ans} eq 'ARRAY' ? $r->{ans}[0] : undef;
	my $ans = $msg ? eval { $json->decode($msg->{content}) } // {} : {};
	ok(!($ans->{success} // 1) && kinds($ans) =~ /permission_denied/,
		'1 ai_tool_run: set_config(role) in a tool call refused with permission_denied')
	  or diag("answer: " . substr($r->{out}, 0, 1000) . "\nstderr: $r->{err}");
	unlike($r->{out}, qr/b-secret/, '1 ai_tool_run: no agent_b row in the results');
	restore_tenant();
}

# SET [LOCAL] SESSION AUTHORIZATION: only a superuser session can, so a
# superuser's call tries it (agent_b's rows are behind row-level security)
{
	my $r = call(tool => 'execute_sql', args => { mode => 'multiple',
		sql => q{SELECT set_config('session_authorization', 'agent_b', true); SELECT current_user, secret FROM public.tenant_data} });
	refused($r, 'permission_denied', "1 set_config('session_authorization')", $role_re);
	unlike(data_of($r), qr/agent_b|b-secret/, "1 set_config('session_authorization'): no row read as agent_b");
	$r = call(tool => 'execute_sql', args => { sql =>
		  q{DO $$BEGIN SET LOCAL SESSION AUTHORIZATION agent_b; UPDATE public.tenant_data SET secret = 'pwned-by-sa'; END$$} });
	refused($r, 'permission_denied', '1 DO SET LOCAL SESSION AUTHORIZATION', $role_re);
	$r = call(tool => 'execute_sql', args => { sql =>
		  q{DO $$BEGIN SET SESSION AUTHORIZATION agent_b; END$$} });
	refused($r, 'permission_denied', '1 DO SET SESSION AUTHORIZATION', $role_re);
	is(q2($tenant_rows), $tenant_before, '1 session authorization: tenant_data unchanged (second session)');
	restore_tenant();

	# a superuser pooler that hands its session to agent_a with SET SESSION
	# AUTHORIZATION: the agent must not get the superuser back by resetting it
	my $su = q2('SELECT current_user');
	foreach my $c ([ 'DO SET LOCAL SESSION AUTHORIZATION DEFAULT', q{DO $$BEGIN SET LOCAL SESSION AUTHORIZATION DEFAULT; END$$} ],
		[ "set_config('session_authorization', NULL, true)", q{SELECT set_config('session_authorization', NULL, true)} ])
	{
		$r = run_sql("SET SESSION AUTHORIZATION agent_a;\nSELECT ai_tool_call('execute_sql', "
			  . jarg({ mode => 'multiple', sql => "$c->[1]; SELECT current_user AS u, secret FROM public.tenant_data" }) . ');');
		refused($r, 'permission_denied', "1 after SET SESSION AUTHORIZATION agent_a, $c->[0]", $role_re);
		unlike(data_of($r), qr/\b\Q$su\E\b|b-secret/, "1 $c->[0]: nothing ran as the superuser");
	}
}

# xml2's xpath_table, run by a read-only role (agent_ro, through authn)
SKIP:
{
	skip 'xml2 is not available', 3 unless $have_xml2;
	my $r = call(user => 'authn', role => 'agent_ro', tool => 'execute_sql', args => {
		mode => 'multiple',
		sql => q{SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', $1) AS t(id text, a text); SELECT current_user, secret FROM public.tenant_data},
		params => [q{false; SET LOCAL ROLE agent_b; SELECT 1::text, '<a/>'::text}] });
	refused($r, 'permission_denied', '1 xpath_table running SET LOCAL ROLE (read-only role)', $role_re);
	unlike($r->{out}, qr/b-secret/, '1 xpath_table: no agent_b row in the answer');
	restore_tenant();
}

# a superuser role granted to the authenticator
{
	my $r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'su_role', true); SELECT rolname, rolpassword FROM pg_authid} });
	refused($r, 'permission_denied', '1 su_role: pg_authid', $role_re);
	unlike(data_of($r), qr/SCRAM|md5|agent_b/, '1 su_role: no row of pg_authid in the answer');

	$r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'su_role', true); SELECT pg_read_file('postmaster.pid') AS f} });
	refused($r, 'permission_denied', '1 su_role: pg_read_file', $role_re);
	my $datadir = $node->data_dir;
	unlike(data_of($r), qr/\Q$datadir\E/, '1 su_role: no file content in the answer');

	my $settings = q{SELECT coalesce(string_agg(r.rolname || '=' || array_to_string(s.setconfig, ';'), ',' ORDER BY r.rolname), '')
		FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole};
	my $roles = q{SELECT string_agg(rolname || ':' || rolsuper, ',' ORDER BY rolname) FROM pg_roles WHERE rolname LIKE 'agent%'};
	my ($set_before, $roles_before) = (q2($settings), q2($roles));
	like($set_before, qr/agent_ro=neon_ai_tools\.read_only=on/, '1 su_role: (agent_ro is read-only before)');
	$r = as_a(q{DO $$BEGIN SET LOCAL ROLE su_role; ALTER ROLE agent_ro RESET neon_ai_tools.read_only; END$$});
	refused($r, 'permission_denied', '1 su_role: ALTER ROLE agent_ro RESET neon_ai_tools.read_only', $role_re);
	$r = as_a({ mode => 'multiple',
		sql => q{SELECT set_config('role', 'su_role', true); ALTER ROLE agent_a SUPERUSER} });
	refused($r, 'permission_denied', '1 su_role: ALTER ROLE agent_a SUPERUSER', $role_re);
	is(q2($settings), $set_before, '1 su_role: pg_db_role_setting unchanged (second session)');
	is(q2($roles), $roles_before, '1 su_role: pg_roles unchanged (second session)');
	restore_tenant();
}

# SECURITY DEFINER functions keep working, and a plain call still runs as
# the role (controls: these pass on every build)
{
	my $r = as_a(q{SELECT public.count_all() AS n, current_user AS u});
	succeeded($r, '1 a SECURITY DEFINER function');
	is_deeply($r->{ans}{data}, [ { n => 3, u => 'agent_a' } ],
		'1 a SECURITY DEFINER function sees what its owner sees; the call is still agent_a');
	$r = as_a(q{SELECT current_user AS u, secret FROM public.tenant_data});
	is_deeply($r->{ans}{data}, [ { u => 'agent_a', secret => 'a-secret-1' } ],
		"1 agent_a's plain call sees agent_a's row only");
}

# sequence state does not cross callers on one backend
{
	my $r = run_sql(
		"SET ROLE agent_a;\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => q{SELECT nextval('public.tenant_data_id_seq') AS n} }) . ");\n"
		  . "SET ROLE agent_b;\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => q{SELECT lastval() AS n} }) . ");\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => q{SELECT currval('public.tenant_data_id_seq') AS n} }) . ");\n",
		user => 'authn');
	my ($first, $last, $curr) = @{ $r->{all} };
	ok(($first->{success} // 0) && defined $first->{data}[0]{n}, "1 agent_a's call runs nextval")
	  or diag($r->{out} . $r->{err});
	ok(!($last->{success} // 1) && text_of($last) =~ /not yet defined/,
		"1 lastval() in agent_b's next call on the same backend: not yet defined")
	  or diag('answer: ' . $json->encode($last // {}));
	ok(!($curr->{success} // 1) && text_of($curr) =~ /not yet defined/,
		"1 currval() in agent_b's next call on the same backend: not yet defined")
	  or diag('answer: ' . $json->encode($curr // {}));

	# a superuser pooler switching callers with SET SESSION AUTHORIZATION
	$r = run_sql(
		"SET SESSION AUTHORIZATION agent_a;\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => q{SELECT nextval('public.tenant_data_id_seq') AS n} }) . ");\n"
		  . "SET SESSION AUTHORIZATION agent_b;\n"
		  . "SELECT ai_tool_call('execute_sql', " . jarg({ sql => q{SELECT lastval() AS n} }) . ");\n");
	($first, $last) = @{ $r->{all} };
	ok(($first->{success} // 0) && !($last->{success} // 1) && text_of($last) =~ /not yet defined/,
		"1 after SET SESSION AUTHORIZATION agent_b, lastval() in agent_b's call: not yet defined")
	  or diag($r->{out} . $r->{err});
}

# ---------------------------------------------------------------------------
# 2. Utility statements in read-only calls: xpath_table runs the
# statements of its condition at a nested level.

SKIP:
{
	skip 'xml2 is not available', 20 unless $have_xml2;
	my $relfile = q{SELECT relfilenode FROM pg_class WHERE oid = 'r3.ro_owned'::regclass};
	my $idxfile = q{SELECT relfilenode FROM pg_class WHERE oid = 'r3.ro_owned_pkey'::regclass};
	my $mvfile = q{SELECT relfilenode FROM pg_class WHERE oid = 'r3.mv'::regclass};
	my ($rel0, $idx0, $mv0) = (q2($relfile), q2($idxfile), q2($mvfile));
	my $ckpt = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int >= 170000})
	  eq 't'
	  ? q{SELECT num_requested FROM pg_stat_checkpointer}
	  : q{SELECT checkpoints_req FROM pg_stat_bgwriter};
	my $ckpt0 = q2($ckpt);

	my $xpath = q{SELECT * FROM xpath_table('id', 'x::text', 'r3.ro_owned', '/a', $1) AS t(id text, a text)};
	my @cases = (
		[ 'CLUSTER', 'CLUSTER r3.ro_owned USING ro_owned_pkey' ],
		[ 'REINDEX', 'REINDEX TABLE r3.ro_owned' ],
		[ 'ANALYZE', 'ANALYZE r3.ro_owned' ],
		[ 'VACUUM', 'VACUUM r3.ro_owned' ],
		[ 'CHECKPOINT', 'CHECKPOINT' ],
		[ 'COMMENT', q{COMMENT ON TABLE r3.ro_owned IS 'c'} ],
		[ 'SECURITY LABEL', q{SECURITY LABEL ON TABLE r3.ro_owned IS 'x'} ],
		[ 'LOCK', 'LOCK TABLE r3.ro_owned IN ACCESS SHARE MODE' ],
		[ 'REFRESH MATERIALIZED VIEW', 'REFRESH MATERIALIZED VIEW r3.mv' ],
	);
	foreach my $c (@cases)
	{
		my $r = call(user => 'agent_ro', tool => 'execute_sql',
			args => { sql => $xpath, params => ["false; $c->[1]; SELECT 1::text, '<a/>'::text"] });
		refused($r, 'read_only_violation', "2 read-only role, xpath_table running $c->[0]");
	}
	is(q2($relfile), $rel0, '2 CLUSTER: pg_class.relfilenode of r3.ro_owned unchanged (second session)');
	is(q2($idxfile), $idx0, '2 REINDEX: relfilenode of ro_owned_pkey unchanged');
	is(q2($mvfile), $mv0, '2 REFRESH MATERIALIZED VIEW: relfilenode of r3.mv unchanged');
	is(q2(q{SELECT coalesce(last_analyze::text, 'null') FROM pg_stat_user_tables WHERE relid = 'r3.ro_owned'::regclass}),
		'null', '2 ANALYZE: pg_stat_user_tables.last_analyze still null');
	is(q2($ckpt), $ckpt0, '2 CHECKPOINT: no checkpoint requested');
	is(q2(q{SELECT coalesce(obj_description('r3.ro_owned'::regclass, 'pg_class'), 'none')}),
		'none', '2 COMMENT: no comment');

	# "read_only": true on a writing role's own table
	my $w0 = q2(q{SELECT relfilenode FROM pg_class WHERE oid = 'public.w_owned'::regclass});
	my $r = call(user => 'writer', tool => 'execute_sql', args => {
		read_only => JSON::PP::true,
		sql => q{SELECT * FROM xpath_table('id', 'x::text', 'public.w_owned', '/a', $1) AS t(id text, a text)},
		params => [q{false; CLUSTER public.w_owned USING w_owned_pkey; SELECT 1::text, '<a/>'::text}] });
	refused($r, 'read_only_violation', '2 "read_only": true, xpath_table running CLUSTER');
	is(q2(q{SELECT relfilenode FROM pg_class WHERE oid = 'public.w_owned'::regclass}), $w0,
		'2 "read_only": true: relfilenode unchanged');

	# what stays allowed (controls)
	$r = call(user => 'agent_ro', tool => 'execute_sql',
		args => { sql => $xpath, params => [q{false; SHOW work_mem; SELECT 1::text, '<a/>'::text}] });
	succeeded($r, '2 read-only role, xpath_table running SHOW (allowed)');
	$r = call(user => 'agent_ro', tool => 'execute_sql',
		args => { sql => q{EXPLAIN SELECT * FROM r3.ro_owned WHERE id = 1} });
	succeeded($r, '2 read-only role, EXPLAIN (allowed)');
	$r = call(user => 'agent_ro', tool => 'execute_sql',
		args => { sql => $xpath, params => [q{false; DO $d$BEGIN PERFORM 1; END$d$; SET LOCAL work_mem = '1MB'; SELECT 1::text, '<a/>'::text}] });
	succeeded($r, '2 read-only role, xpath_table running DO and SET LOCAL (allowed)');
}

# ---------------------------------------------------------------------------
# 3. max_affected_rows (10 for writer) counts every row, at every level.

my $restore_items = q{INSERT INTO public.items SELECT g, 'v' || g FROM generate_series(1, 500) g ON CONFLICT DO NOTHING};
{
	my @cases = (
		[ 'a DO block', 'execute_sql', { sql => q{DO $$BEGIN DELETE FROM public.items WHERE id > 100; END$$} } ],
		[ 'SELECT wipe()', 'execute_sql', { sql => q{SELECT public.wipe()} } ],
		[ 'CALL wipe_p()', 'execute_sql', { sql => q{CALL public.wipe_p()} } ],
		[ 'a data-modifying WITH', 'execute_sql',
			{ sql => q{WITH d AS (DELETE FROM public.items WHERE id > 100 RETURNING 1) SELECT count(*) FROM d} } ],
		[ 'a multiple call', 'execute_sql',
			{ mode => 'multiple', sql => q{SELECT 1; SELECT public.wipe()} } ],
		[ 'a MERGE in a DO block', 'execute_sql',
			{ sql => q{DO $$BEGIN MERGE INTO public.items i USING (SELECT generate_series(101, 500) AS id) s ON i.id = s.id WHEN MATCHED THEN DELETE; END$$} } ],
		[ 'update_data of one row with an ON UPDATE DO ALSO DELETE rule', 'update_data',
			{ table => 'ruled', set => { v => 'y' }, where => { id => 1 } } ],
		[ 'insert_data of one row with a trigger that deletes', 'insert_data',
			{ table => 'trig', rows => { id => 1 } } ],
	);
	foreach my $c (@cases)
	{
		my $r = call(user => 'writer', tool => $c->[1], args => $c->[2]);
		refused($r, 'limit_exceeded', "3 $c->[0] deleting 400 rows");
		is(q2('SELECT count(*) FROM public.items'), '500', "3 $c->[0]: all 500 rows remain (second session)");
		q2($restore_items);
	}
	is(q2(q{SELECT string_agg(v, ',' ORDER BY id) FROM public.ruled}), 'x,x', '3 rule: the updated row is unchanged too');
	is(q2('SELECT count(*) FROM public.trig'), '0', '3 trigger: the inserted row is not kept');
	my $r = call(user => 'writer', tool => 'execute_sql',
		args => { sql => q{DO $$BEGIN INSERT INTO public.items SELECT g, 'n' FROM generate_series(1001, 1400) g; END$$} });
	refused($r, 'limit_exceeded', '3 a DO block inserting 400 rows');
	is(q2('SELECT count(*) FROM public.items'), '500', '3 a DO block inserting 400 rows: none kept (second session)');

	$r = call(user => 'writer', tool => 'delete_data', args => { table => 'parent', where => { id => 1 } });
	refused($r, 'limit_exceeded', '3 delete_data of one parent row with 500 ON DELETE CASCADE children');
	is(q2('SELECT count(*) FROM public.child') . '/' . q2('SELECT count(*) FROM public.parent'), '500/2',
		'3 cascade: the parent and its 500 children remain (second session)');

	$r = call(user => 'writer', tool => 'execute_sql', args => { sql => 'TRUNCATE public.own500' });
	refused($r, 'limit_exceeded', "3 TRUNCATE of the role's own 500-row table");
	is(q2('SELECT count(*) FROM public.own500'), '500', '3 TRUNCATE: 500 rows remain');
	$r = call(user => 'writer', tool => 'delete_data',
		args => { table => 'own500', mode => 'truncate', confirm => JSON::PP::true });
	refused($r, 'limit_exceeded', "3 delete_data mode truncate of the role's own 500-row table");
	is(q2('SELECT count(*) FROM public.own500'), '500', '3 delete_data truncate: 500 rows remain');
	$r = call(user => 'writer', tool => 'execute_sql', args => { sql => 'TRUNCATE public.tparent CASCADE' });
	refused($r, 'limit_exceeded', '3 TRUNCATE ... CASCADE of a 1-row table with 500 referencing rows');
	is(q2('SELECT count(*) FROM public.tchild'), '500', '3 TRUNCATE ... CASCADE: the 500 referencing rows remain');
	$r = call(user => 'writer', tool => 'execute_sql', args => { sql => 'DROP TABLE public.drop500' });
	refused($r, 'limit_exceeded', "3 DROP TABLE of the role's own 500-row table");
	is(q2_soft('SELECT count(*) FROM public.drop500'), '500', '3 DROP TABLE: the table and its 500 rows remain');
	$r = call(user => 'writer', tool => 'execute_sql',
		args => { sql => 'CREATE TABLE public.filled AS SELECT generate_series(1, 500) AS id' });
	refused($r, 'limit_exceeded', '3 CREATE TABLE AS of 500 rows');
	is(q2(q{SELECT to_regclass('public.filled') IS NULL}), 't', '3 CREATE TABLE AS: no table left');

	# under the limit: affectedRows is the total of every level
	$r = call(user => 'writer', tool => 'execute_sql',
		args => { sql => q{WITH d AS (DELETE FROM public.small WHERE id <= 5 RETURNING 1) SELECT count(*) AS n FROM d} });
	succeeded($r, '3 a data-modifying WITH deleting 5 rows');
	is($r->{ans}{affectedRows}, 5, '3 ... affectedRows 5');
	$r = call(user => 'writer', tool => 'execute_sql',
		args => { sql => q{DO $$BEGIN DELETE FROM public.small WHERE id <= 8; END$$} });
	succeeded($r, '3 a DO block deleting 3 rows');
	is($r->{ans}{affectedRows}, 3, '3 ... affectedRows 3');
	is(q2('SELECT count(*) FROM public.small'), '12', '3 ... 8 rows deleted in all (second session)');
	# a write whose own count differs: one row updated, three deleted by a rule
	$r = call(user => 'writer', tool => 'update_data',
		args => { table => 'ruled_small', set => { v => 'y' }, where => { id => 1 } });
	succeeded($r, '3 update_data of one row whose rule deletes 3 rows');
	is(($r->{ans}{affectedRows} // 'none') . '/' . ($r->{ans}{statementAffectedRows} // 'none'), '4/1',
		'3 ... affectedRows 4, statementAffectedRows 1 beside it')
	  or diag('answer: ' . $r->{out});
	is(q2('SELECT count(*) FROM public.small'), '9', '3 ... the rule deleted its 3 rows (second session)');
}

# ---------------------------------------------------------------------------
# 4. confirmation = token counts the same total.

foreach my $c (
	[ 'a data-modifying WITH', q{WITH d AS (DELETE FROM public.citems WHERE id > 100 RETURNING 1) SELECT count(*) FROM d} ],
	[ 'a DO block', q{DO $$BEGIN DELETE FROM public.citems WHERE id > 100; END$$} ])
{
	q2('INSERT INTO public.citems SELECT generate_series(1, 500) ON CONFLICT DO NOTHING');
	my $r = call(user => 'confirmer', tool => 'execute_sql', args => { sql => $c->[1] });
	refused($r, 'confirmation_required', "4 a 400-row delete as $c->[0]");
	ok(defined $r->{ans}{confirmation_token}, "4 $c->[0]: the answer carries a confirmation_token");
	is(q2('SELECT count(*) FROM public.citems'), '500', "4 $c->[0]: nothing deleted (second session)");
	if (defined $r->{ans}{confirmation_token})
	{
		$r = call(user => 'confirmer', tool => 'execute_sql',
			args => { sql => $c->[1], confirmation_token => $r->{ans}{confirmation_token} });
		succeeded($r, "4 $c->[0] with the token");
		is(q2('SELECT count(*) FROM public.citems'), '100', "4 $c->[0] with the token: 400 rows deleted");
	}
	else
	{
		fail("4 $c->[0] with the token: no token to repeat it with") for 1 .. 2;
	}
}

# TRUNCATE needs the confirmation a full delete needs; a filtered delete
# whose cascade removes 500 rows needs it too
{
	my $c = call(user => 'confirmer', tool => 'delete_data', args => { table => 'cparent', where => { id => 1 } });
	refused($c, 'confirmation_required', '4 delete_data of one parent row with 500 ON DELETE CASCADE children');
	is(q2('SELECT count(*) FROM public.cchild'), '500', '4 cascade: the 500 children remain (second session)');

	my $r = call(user => 'confirmer', tool => 'execute_sql', args => { sql => 'TRUNCATE public.cown' });
	refused($r, 'confirmation_required', "4 TRUNCATE of the role's own 500-row table");
	is(q2('SELECT count(*) FROM public.cown'), '500', '4 TRUNCATE: nothing removed (second session)');
}

# ---------------------------------------------------------------------------
# 5. Memory: settings that raise resource use are refused inside a call,
# lowering them is allowed; max_call_memory bounds what a call grows.

{
	my @raise = (
		[ 'work_mem', q{'1GB'} ],
		[ 'hash_mem_multiplier', q{'100'} ],
		[ 'maintenance_work_mem', q{'1GB'} ],
		[ 'join_collapse_limit', q{'100'} ],
		[ 'from_collapse_limit', q{'100'} ],
		[ 'geqo', q{'off'} ],
		[ 'geqo_threshold', q{'100'} ],
		[ 'geqo_effort', q{'10'} ],
		[ 'geqo_pool_size', q{'100000'} ],
		[ 'geqo_generations', q{'100000'} ],
		[ 'max_parallel_workers_per_gather', q{'8'} ],
		[ 'max_parallel_workers', q{'64'} ],
		[ 'max_parallel_maintenance_workers', q{'8'} ],
		[ 'lock_timeout', q{'10min'} ],
	);
	foreach my $s (@raise)
	{
		my ($name, $value) = @$s;
		my $r = call(user => 'writer', tool => 'execute_sql', args => { mode => 'multiple',
			sql => "SELECT set_config('$name', $value, true); SELECT current_setting('$name') AS v" });
		refused($r, 'permission_denied', "5 raising $name with set_config(..., true)", qr/\Q$name\E/);
	}
	# a function's SET clause
	my $r = call(user => 'writer', tool => 'execute_sql', args => { sql => 'SELECT public.big_work_mem()' });
	refused($r, 'permission_denied', "5 a function whose SET clause raises work_mem", qr/work_mem/);
	# at a nested level, as the issue's writing agent did
	$r = call(user => 'writer', tool => 'execute_sql', args => { sql =>
		  q{DO $$BEGIN SET LOCAL join_collapse_limit = 100; SET LOCAL from_collapse_limit = 100; SET LOCAL geqo = off; END$$} });
	refused($r, 'permission_denied', '5 raising the collapse limits in a DO block', qr/collapse_limit|geqo/);
	# temp_file_limit is superuser-only: a superuser's call cannot raise it either
	my $r2 = run_sql("SET temp_file_limit = '1MB';\nSELECT ai_tool_call('execute_sql', "
		  . jarg({ sql => q{DO $$BEGIN SET LOCAL temp_file_limit = '100GB'; END$$} }) . ");");
	refused($r2, 'permission_denied', '5 raising temp_file_limit in a DO block', qr/temp_file_limit/);

	# a reset raises too when the caller had lowered the setting
	foreach my $c ([ 'SET LOCAL work_mem TO DEFAULT in a DO block', q{DO $$BEGIN SET LOCAL work_mem TO DEFAULT; END$$} ],
		[ "set_config('work_mem', NULL, true)", q{SELECT set_config('work_mem', NULL, true)} ])
	{
		$r = run_sql("SET work_mem = '1MB';\nSELECT ai_tool_call('execute_sql', "
			  . jarg({ mode => 'multiple', sql => "$c->[1]; SELECT current_setting('work_mem') AS w" }) . ');',
			user => 'writer');
		refused($r, 'permission_denied', "5 $c->[0] after the session lowered work_mem", qr/work_mem/);
	}

	# lowering stays allowed (controls)
	$r = call(user => 'writer', tool => 'execute_sql', args => { mode => 'multiple',
		sql => q{SELECT set_config('work_mem', '1MB', true), set_config('join_collapse_limit', '4', true), set_config('geqo_threshold', '8', true); SELECT current_setting('work_mem') AS w} });
	succeeded($r, '5 lowering work_mem, join_collapse_limit and geqo_threshold');
	$r = call(user => 'writer', tool => 'execute_sql', args => { sql =>
		  q{DO $$BEGIN SET LOCAL work_mem = '1MB'; SET LOCAL max_parallel_workers_per_gather = 0; END$$} });
	succeeded($r, '5 lowering work_mem and max_parallel_workers_per_gather in a DO block');
}

# The cap: one psql session (test/perl/NatSession.pm), its backend's VmHWM
# before and after.

# One call as memrole (max_call_memory = 64MB) in a fresh session; ARGS is
# SQL yielding the arguments.  Checks the bound (the cap + 32 MB), the time
# and that the session goes on.  Options: allow_ok (a success answer is
# acceptable too), plain (large arguments: what building the same
# arguments costs without any call, measured in a session of its own, is
# added to the bound: PostgreSQL pays it before the call starts).
sub memory_case
{
	my ($label, $tool, $args_sql, $timeout_ms, %o) = @_;
	my $bound_mb = $CAP_MB + 32;
	my $full_args = qq{($args_sql) || jsonb_build_object('timeout_ms', $timeout_ms)};
	my $s;
	if ($o{plain})
	{
		$s = NatSession->new($node, 'memrole');
		$s->query(q{SELECT ai_tool_call('list_tables', '{"limit": 1}') IS NOT NULL});
		my $b0 = hwm_mb($s->{pid});
		$s->query("SELECT jsonb_typeof($full_args)");
		my $plain = hwm_mb($s->{pid}) - $b0;
		$s->close;
		note(sprintf('%s: the arguments alone take %.1f MB', $label, $plain));
		$bound_mb += $plain;
	}
	$s = NatSession->new($node, 'memrole');
	$s->query(q{SELECT ai_tool_call('list_tables', '{"limit": 1}') IS NOT NULL});
	my ($cap) = $s->query(q{SELECT current_setting('neon_ai_tools.max_call_memory', true)});
	my $before = hwm_mb($s->{pid});
	my ($out, $err, $secs, $done) = $s->query(qq{SELECT ai_tool_call('$tool', $full_args)}, 60);
	my $after = hwm_mb($s->{pid});
	my $a = eval { $json->decode($out) } // {};
	my $growth = defined $after && defined $before ? $after - $before : undef;
	note(sprintf('%s: max_call_memory %s, %.2f s, VmHWM %.1f -> %s MB, answer %s%s',
			$label, $cap // '(none)', $secs, $before // 0,
			defined $after ? sprintf('%.1f', $after) : 'gone',
			substr(kinds($a) . ' ' . text_of($a), 0, 300),
			$err ne '' ? '; stderr: ' . substr($err, 0, 300) : ''));
	my $want = $o{accept} // 'resource_limit';
	my $kind_ok = grep { defined $_ && /^(?:$want)$/ } @$a{qw(errorType error_type error)};
	ok($kind_ok || ($o{allow_ok} && ($a->{success} // 0)),
		"5 $label: answers $want" . ($o{allow_ok} ? ' (or succeeds)' : ''))
	  or diag("stdout: " . substr($out, 0, 500) . "\nstderr: " . substr($err, 0, 500));
	ok(defined $growth && $growth < $bound_mb,
		sprintf('5 %s: peak backend memory grows by less than %d MB (%s MB)', $label, $bound_mb,
			defined $growth ? sprintf('%+.1f', $growth) : 'backend gone'));
	cmp_ok($secs, '<', $timeout_ms / 1000 + 1,
		sprintf('5 %s: ends within timeout + 1 s (%.2f s)', $label, $secs));
	my ($next, $err2) = $s->query(q{SELECT ai_tool_call('execute_sql', '{"sql": "SELECT 1 AS one"}') ->> 'success'});
	my ($pid) = $s->query('SELECT pg_backend_pid()');
	ok($next eq 'true' && $pid eq $s->{pid}, "5 $label: the session goes on, its next call works")
	  or diag("next: $next, pid $pid vs $s->{pid}, stderr: $err2");
	$s->close;
	return $secs;
}

{
	my $secs = memory_case('array_agg of 2 million 1 kB strings', 'execute_sql',
		q{jsonb_build_object('sql', 'SELECT array_agg(repeat(''x'', 1000)) FROM generate_series(1, 2000000)')},
		10000);
	# the cap is checked at least as often as the deadline: the call stops
	# soon after crossing 64 MB (about 0.3 s here), long before its 10 s
	# deadline; half the deadline leaves room for a loaded CI machine (a
	# 3 s deadline with a 1.5 s bound once took 1.55 s there)
	cmp_ok($secs, '<', 5, sprintf('5 array_agg: stops well before the deadline (%.2f s)', $secs));
	memory_case('array_fill of 100 million', 'execute_sql',
		q{jsonb_build_object('sql', 'SELECT array_fill(1, ARRAY[100000000])')},
		3000);
	# a 32 MB value in update_data (the issue: 100 MB peaked at 919 MB)
	memory_case('update_data setting a 32 MB value', 'update_data',
		q{SELECT a FROM public.args WHERE k = 'update_32mb'}, 5000, allow_ok => 1, plain => 1);
	# the issue's: a 100 MB value (peaked at 919 MB) and array_fill of 10
	# million with a 200 ms timeout (added 76 MB: within the bound before
	# issue 29 too, a control)
	memory_case('update_data setting a 100 MB value', 'update_data',
		q{SELECT a FROM public.args WHERE k = 'update_100mb'}, 5000, allow_ok => 1, plain => 1);
	memory_case('array_fill of 10 million, timeout 200 ms', 'execute_sql',
		q{jsonb_build_object('sql', 'SELECT array_fill(1, ARRAY[10000000])')}, 200,
		allow_ok => 1, accept => 'resource_limit|timeout');
	# under the arguments' share of the cap: the value goes through the
	# update (a control)
	memory_case('update_data setting a 6 MB value', 'update_data',
		q{SELECT a FROM public.args WHERE k = 'update_6mb'}, 5000, allow_ok => 1, plain => 1);
	is(q2(q{SELECT length(v) IN (5, 6000000, 32000000, 100000000) FROM public.blob WHERE id = 1}), 't',
		'5 update_data: the row is whole (old or new value)');
}

# ---------------------------------------------------------------------------
# 6. ai_tool_run: one deadline (run_timeout = 1500 ms for runner) for its
# four calls of 1 s each.

{
	my $resp = {
		role => 'assistant',
		tool_calls => [
			map {
				{
					id => "c$_", type => 'function',
					function => { name => 'execute_sql', arguments => '{"sql": "SELECT pg_sleep(1)"}' }
				}
			} 1 .. 4
		]
	};
	my $r = run_sql('SELECT ai_tool_run(' . jarg($resp) . ');', user => 'runner');
	my @msgs = ref $r->{ans} eq 'ARRAY' ? @{ $r->{ans} } : ();
	note(sprintf('ai_tool_run of 4 calls of 1 s, run_timeout 1500: %.2f s', $r->{secs}));
	cmp_ok($r->{secs}, '<', 3.2, sprintf('6 ai_tool_run returns well before its four 1-s calls would (under 3.2 s, psql start included: %.2f s)', $r->{secs}));
	is(join(',', map { $_->{tool_call_id} // '?' } @msgs), 'c1,c2,c3,c4', '6 every call gets a result message');
	my @ans = map { eval { $json->decode($_->{content}) } // {} } @msgs;
	ok(@ans && ($ans[0]{success} // 0), '6 the first call, within the deadline, succeeds')
	  or diag(substr($r->{out}, 0, 1000) . $r->{err});
	# c2 is running at the deadline (1.5 s), c3 and c4 are not started
	is(join(',', map { $_->{errorType} // 'ok' } @ans[ 1 .. 3 ]), 'timeout,timeout,timeout',
		'6 the calls past the deadline answer timeout');
	like(join(' ', map { text_of($_) } @ans[ 2 .. 3 ]), qr/\S/, '6 ... with a message')
	  or diag(substr($r->{out}, 0, 1000));
}

# ---------------------------------------------------------------------------
# 1 over HTTP: neon-ai-tools-mcp --http with agent_a's token.

SKIP:
{
	restore_tenant();
	my $program = eval { mcp_program() };
	skip "neon-ai-tools-mcp not found: $@", 4 unless $program;
	skip 'curl is not installed', 4 unless system('curl --version >/dev/null 2>&1') == 0;
	my $tmp = PostgreSQL::Test::Utils::tempdir();
	my %token = map { $_ => "tok-$_-" . sha256_hex(rand() . $$ . $_) } qw(agent_a agent_b);
	open my $fh, '>', "$tmp/tokens" or die;
	print $fh "$_ " . sha256_hex($token{$_}) . "\n" foreach keys %token;
	close $fh;
	chmod 0600, "$tmp/tokens";
	my $s = start_server([ '--pool-size', 1, '--auth-tokens', "$tmp/tokens",
		$node->connstr('postgres') . ' user=authn' ]);
	skip 'neon-ai-tools-mcp --http did not start: ' . substr(server_log($s), 0, 300), 4
	  if defined $s->{rc} || server_log($s) !~ /listening on/;
	my $tool_call = sub {
		my ($tok, $args) = @_;
		my $m = stateless(1, 'tools/call', { name => 'execute_sql', arguments => $args });
		return http_post($s->{url}, $m, stateless_headers($m), "Authorization: Bearer $token{$tok}");
	};
	my $r = $tool_call->('agent_a', { sql => 'SELECT current_user AS u, secret FROM public.tenant_data' });
	is_deeply($r->{json}{result}{structuredContent}{data}, [ { u => 'agent_a', secret => 'a-secret-1' } ],
		"1 HTTP: agent_a's token sees agent_a's row (control)")
	  or diag("HTTP $r->{status}: " . substr($r->{body}, 0, 800));
	$r = $tool_call->('agent_a', { mode => 'multiple',
		sql => q{SELECT set_config('role', 'agent_b', true); SELECT current_user, secret FROM public.tenant_data} });
	my $sc = $r->{json}{result}{structuredContent} // {};
	ok(($r->{json}{result}{isError} // 0) && kinds($sc) =~ /permission_denied/,
		"1 HTTP: agent_a's token, set_config('role', 'agent_b', true): refused with permission_denied")
	  or diag("HTTP $r->{status}: " . substr($r->{body}, 0, 800));
	unlike($r->{body}, qr/b-secret/, '1 HTTP: no agent_b row in the answer');
	$r = $tool_call->('agent_a', { mode => 'multiple',
		sql => q{SELECT set_config('role', 'agent_b', true); UPDATE public.tenant_data SET secret = 'pwned-over-http'} });
	is(q2($tenant_rows), $tenant_before, '1 HTTP: set_config(role) then UPDATE: tenant_data unchanged (second session)');
	stop_server($s);
}

# ---------------------------------------------------------------------------
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'), $start_time,
	'the postmaster never restarted');
my @crash = grep { /terminated by signal|was terminated|all server processes terminated/ }
  split /\n/, slurp_file($node->logfile);
is(scalar(@crash), 0, 'no backend crashed (server log)') or diag(join("\n", @crash[ 0 .. ($#crash < 9 ? $#crash : 9) ]));
my $total = time - $suite_start;
# a bound on the suite's own time, so that a case that stops stopping shows
# here; generous, as CI runs three targets at once on two cores (130 to
# 144 s there, 60 s on an idle machine)
cmp_ok($total, '<', 300, sprintf('the suite ran in %.0f s', $total));

$node->stop;
done_testing();
