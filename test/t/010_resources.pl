# The resource suite (issue 13): every numbered case of the issue, each in a
# fresh session, with its time, its backend's peak memory and what it
# answers.  The server runs under an address-space limit, so a regression
# fails a call with "out of memory" instead of taking the machine down.
#
# Memory is the growth of VmHWM (the backend's peak resident size, from
# /proc) over the idle size of the same backend with the extension loaded.
# Arguments built in the measured statement count too, so large inputs are
# prepared beforehand in a table (reading one back costs its size once) and
# the inputs of the memory bounds are sized to leave the bound to the
# extension; where the issue's size cannot fit under the bound, the big
# input is checked for the behaviour (an answer, on time) and a smaller
# one for memory.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;
use lib abs_path(dirname(__FILE__) . '/../perl');
use NatNode qw(nat_node);
use NatSession qw(hwm_mb);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $MB = 1024 * 1024;
my $AS_LIMIT = 2048 * $MB;    # address space of every backend
my $BOUND_MB = 64;            # peak growth allowed for cases 2, 5, 6, 7, 8, 9
my $suite_start = time;

my $node = nat_node('resources');
# shared memory stays small beside the address-space limit
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\n");
$node->start;

# Limit the postmaster's address space: every backend forked from now on
# inherits it.  A backend that reaches it fails an allocation with "out of
# memory" (an ERROR), so a regression cannot take the machine down.
sub limit_postmaster
{
	my $pid = (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0];
	system('prlimit', "--pid=$pid", "--as=$AS_LIMIT") == 0
	  or BAIL_OUT("prlimit --as failed on the postmaster (util-linux prlimit is needed)");
}
limit_postmaster();

# A crashed backend stops the server (the test clusters run with
# restart_after_crash off): start it again so the remaining cases still
# run; the start-time check at the end then fails.
sub ensure_up
{
	my $file = $node->data_dir . '/postmaster.pid';
	my $pid = -f $file ? (split /\n/, slurp_file($file))[0] : 0;
	return if $pid && kill(0, $pid);
	diag('the server is down: starting it again for the remaining cases');
	$node->start;
	limit_postmaster();
}

my @figures;    # one line per measured call, printed at the end
my $start_time = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

# The statement of one call: the answer's error type (or "ok"), truncation
# reason, serialized length, rowCount and the first 200 characters of its
# error message, '|'-separated.  OFFSET 0 keeps the call evaluated once.
sub call_sql
{
	my ($tool, $args) = @_;
	return qq{SELECT coalesce(r->>'errorType', 'ok'), coalesce(r->'truncation'->>'reason', '-'),
  length(r::text), coalesce(r->>'rowCount', '-'),
  replace(left(coalesce(r->>'error', ''), 200), E'\\n', ' ')
FROM (SELECT ai_tool_call('$tool', $args) AS r OFFSET 0) s};
}

# The arguments stored under KEY in the args table, for call_sql
sub stored
{
	my ($key) = @_;
	return "(SELECT a FROM args WHERE k = '$key')";
}

# Run one call in a fresh session and measure it.  Options: setup (SQL run
# before, after the extension is loaded), timeout (psql-side, seconds).
# Returns a hash: etype, reason, len, rows, msg, out, err, secs, before,
# after, growth (MB; undef when the backend is gone), same (the session
# went on in the same backend), session (still open unless closed).
sub measure
{
	my ($label, $sql, %o) = @_;
	ensure_up();
	my $s = NatSession->new($node);
	# load the extension and its catalogs: the idle size
	$s->query(q{SELECT ai_tool_list() IS NOT NULL});
	$s->query(call_sql('list_tables', q{'{"limit": 1}'}));
	my $before = hwm_mb($s->{pid});
	my ($out, $err, $secs, $done) = $s->query($sql, $o{timeout});
	my $after = hwm_mb($s->{pid});
	my %r = (out => $out, err => $err, secs => $secs, before => $before, after => $after);
	@r{qw(etype reason len rows msg)} = split /\|/, $out, 5 if $done && $out ne '';
	$r{etype} //= '';
	$r{reason} //= '';
	$r{len} //= 0;
	$r{growth} = defined $after ? $after - $before : undef;
	my ($pid) = $s->alive ? $s->query('SELECT pg_backend_pid()') : ('');
	$r{same} = $pid eq $s->{pid};
	note(sprintf("%s: %.2f s, VmHWM %.1f MB -> %s MB, answer %s%s",
			$label, $secs, $before,
			defined $after ? sprintf('%.1f', $after) : 'gone',
			$out ne '' ? $out : '(none)', $err ne '' ? "; stderr: " . substr($err, 0, 300) : ''));
	# quick(): the same call once more, when a starved machine stretched it
	$r{again} = sub { measure("$label (again)", $sql, %o) };
	$r{figures} = sprintf('%.2f s, %.0f -> %s MB', $secs, $before,
		defined $after ? sprintf('%.0f', $after) : 'gone');
	push @figures, sprintf('%-30s %7.2f s %8.1f MB %8s MB %9s MB  %s',
		$label, $secs, $before, defined $after ? sprintf('%.1f', $after) : 'gone',
		defined $after ? sprintf('%+.1f', $after - $before) : '-',
		$err =~ /(ERROR|FATAL):\s+(.{0,60})/ ? "$1: $2"
		: $out =~ /\n/ ? scalar(split /\n/, $out) . ' answers'
		: $r{etype} ne '' ? "$r{etype} $r{reason}" : '-');
	if ($o{keep})
	{
		$r{session} = $s;
	}
	else
	{
		$s->close;
	}
	return \%r;
}

# assertions shared by the cases
sub answered
{
	my ($r, $label) = @_;
	ok($r->{etype} ne '' && $r->{err} !~ /ERROR|FATAL/,
		"$label: answers, raises nothing ($r->{figures})")
	  or diag("stdout: $r->{out}\nstderr: " . substr($r->{err}, 0, 500));
}

sub small
{
	my ($r, $label) = @_;
	ok(defined $r->{growth} && $r->{growth} < $BOUND_MB,
		sprintf("%s: peak memory grows by less than %d MB (%s MB: %s)",
			$label, $BOUND_MB,
			defined $r->{growth} ? sprintf('%+.1f', $r->{growth}) : 'backend gone',
			$r->{figures}));
}

# The bound is the contract itself (DESIGN: a call ends within timeout_ms
# + 1 s whatever it does), not a guess at this machine's speed: over 69
# runs on 15 to 19, loaded CI machines included, case 7's calls took
# 0.01 to 0.07 s against bounds of 1.1 and 1.2 s.  A machine whose cores
# run three CI targets at once once stretched one of them to 1.38 s: a call
# over its bound is measured once more, and the faster of the two counts
# (a call that does not stop fails both times).
sub quick
{
	my ($r, $label, $secs) = @_;
	my $took = $r->{secs};
	if ($took >= $secs && $r->{again})
	{
		my $again = $r->{again}->()->{secs};
		note(sprintf('%s: %.2f s, over %.1f s: measured again, %.2f s', $label, $took, $secs, $again));
		$took = $again if $again < $took;
	}
	cmp_ok($took, '<', $secs, sprintf("%s: ends within %.1f s (%.2f s)", $label, $secs, $took));
}

sub is_type
{
	my ($r, $label, $want) = @_;
	is($r->{etype}, $want, "$label: answers $want")
	  or diag("message: " . ($r->{msg} // '') . "\nstderr: " . substr($r->{err}, 0, 500));
}

# ---------------------------------------------------------------------------
# Data.  Large inputs are built here, server-side, in another session.

my $lz4 = $node->safe_psql('postgres',
	q{SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'});
$node->safe_psql('postgres', ($lz4 eq 't' ? "SET default_toast_compression = lz4;\n" : '') . q{
CREATE EXTENSION neon_ai_tools;
CREATE TABLE t (id int PRIMARY KEY, name text);
INSERT INTO t SELECT g, 'name ' || g FROM generate_series(1, 10) g;
CREATE TABLE args (k text PRIMARY KEY, a jsonb);
-- case 2: 2 million names, "id,id,...,id" (6 MB)
INSERT INTO args VALUES ('columns_2m', jsonb_build_object('table', 't',
	'columns', rtrim(repeat('id,', 2000000), ',')));
-- case 5: rows of 5 MB through a view; one 300 MB value, TOASTed
CREATE VIEW wide AS SELECT g AS id, repeat('x', 5000000) AS payload
	FROM generate_series(1, 200) g;
CREATE TABLE huge (id int, doc text);
INSERT INTO huge VALUES (1, repeat('x', 300000000));
CREATE TABLE ins (id int);
-- case 7: the issue's IN list of 6 MB
INSERT INTO args SELECT 'in_6mb', jsonb_build_object('timeout_ms', 100, 'sql',
	'SELECT 1 WHERE 1 IN (' || string_agg(g::text, ',') || ')')
	FROM generate_series(1000000, 1750000) g;
-- case 8: 100 MB strings in four places, and 16 MB ones for the memory bound
INSERT INTO args SELECT 'columns_' || n, jsonb_build_object('table', 't', 'columns', repeat('x', n))
	FROM (VALUES (100000000), (16000000)) v(n);
INSERT INTO args SELECT 'where_' || n, jsonb_build_object('table', 't',
	'where', jsonb_build_object(repeat('x', n), 1)) FROM (VALUES (100000000), (16000000)) v(n);
INSERT INTO args SELECT 'table_' || n, jsonb_build_object('table', repeat('x', n))
	FROM (VALUES (100000000), (16000000)) v(n);
INSERT INTO args SELECT 'pattern_' || n, jsonb_build_object('pattern', repeat('x', n))
	FROM (VALUES (100000000), (16000000)) v(n);
-- review: a wide table (300 columns of 60-character names) for many headers
DO $$BEGIN
	EXECUTE (SELECT format('CREATE TABLE w300 (%s)', string_agg(format('%s int', rpad('c' || g, 60, 'x')), ', '))
		FROM generate_series(1, 300) g);
END$$;
INSERT INTO w300 DEFAULT VALUES;
-- case 9: a million empty rows
CREATE TABLE ins9 (id serial, note text DEFAULT 'n');
INSERT INTO args SELECT 'rows_1m', jsonb_build_object('table', 'ins9', 'rows', jsonb_agg('{}'::jsonb))
	FROM generate_series(1, 1000000);
});
note(sprintf('data ready after %.1f s', time - $suite_start));

# ---------------------------------------------------------------------------
# The limit is in force in every backend.
{
	my $s = NatSession->new($node);
	my $limits = slurp_file("/proc/$s->{pid}/limits");
	like($limits, qr/^Max address space\s+$AS_LIMIT\s+$AS_LIMIT\s+bytes/m,
		'backends run under the address-space limit');
	$s->close;
}

# ---------------------------------------------------------------------------
# 1. A deadline agent code swallows (009_deadline holds the variants): the
# call ends on time (timeout_ms and the 500 ms grace), as a timeout answer
# or a FATAL.
{
	my $r = measure('1 deadline', call_sql('execute_sql',
		q{jsonb_build_object('timeout_ms', 500, 'sql',
  'DO $$BEGIN LOOP BEGIN PERFORM pg_sleep(10); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END$$')}),
		timeout => 20);
	ok($r->{etype} eq 'timeout' || $r->{err} =~ /FATAL:  terminating connection because a tool call ran past its time limit/,
		'case 1: a loop catching every cancel ends as a timeout answer or our FATAL')
	  or diag("stdout: $r->{out}\nstderr: $r->{err}");
	# the loop never ends by itself: 5 s leaves a slow machine room
	quick($r, 'case 1', 5);
}

# ---------------------------------------------------------------------------
# 2. Two million column names: refused before they are parsed.
{
	my $r = measure('2 columns', call_sql('select_query', stored('columns_2m')));
	is_type($r, 'case 2: 2 million names', 'invalid_parameters');
	small($r, 'case 2');
}

# ---------------------------------------------------------------------------
# 3. max_response_bytes above what jsonb can hold is refused, and the
# largest value allowed truncates a huge answer instead of failing it.
{
	ensure_up();
	my $s = NatSession->new($node);
	# loaded first: before, SET would only make a placeholder
	$s->query(q{SELECT ai_tool_list() IS NOT NULL});
	my ($out, $err) = $s->query(q{SET neon_ai_tools.max_response_bytes = '1GB'});
	like($err, qr/ERROR/, 'case 3: max_response_bytes = 1GB is refused')
	  or diag("stdout: $out");
	my ($max) = $s->query(q{SELECT least(max_val::bigint, 1024 * 1024 * 1024) FROM pg_settings
	  WHERE name = 'neon_ai_tools.max_response_bytes'});
	$s->query("SET neon_ai_tools.max_response_bytes = $max");
	# 300 rows of 1 MB: more than any allowed budget, more than jsonb holds
	($out, $err, my $secs) = $s->query(call_sql('execute_sql',
		q{'{"sql": "SELECT repeat(''x'', 1048576) AS v FROM generate_series(1, 300)"}'}));
	my ($etype, $reason) = split /\|/, $out;
	ok(defined $reason && $etype eq 'ok' && $reason eq 'byte_limit',
		sprintf('case 3: at the largest budget allowed (%d MB), a 300 MB answer is truncated at byte_limit (%.2f s)',
			$max / $MB, $secs))
	  or diag("stdout: $out\nstderr: " . substr($err, 0, 500));
	unlike($err, qr/FATAL/, 'case 3: no FATAL');
	my ($pid) = $s->alive ? $s->query('SELECT pg_backend_pid()') : ('');
	is($pid, $s->{pid}, 'case 3: the session goes on');
	$s->close;
}

# ---------------------------------------------------------------------------
# 4. A PARALLEL SAFE wrapper under forced parallel mode: an error or an
# answer, and the session can call tools afterwards.  With no worker to
# launch, the leader runs the wrapper itself, in parallel mode.
{
	ensure_up();
	$node->safe_psql('postgres', q{CREATE FUNCTION parallel_call(name text, args jsonb)
	  RETURNS jsonb LANGUAGE sql STRICT PARALLEL SAFE AS $$SELECT ai_tool_call($1, $2)$$});
	my $s = NatSession->new($node);
	my ($force) = $s->query(q{SELECT name FROM pg_settings
	  WHERE name IN ('debug_parallel_query', 'force_parallel_mode')});
	my $call = q{'select_query', '{"table": "t", "limit": 1}'};
	for my $workers (0, 8)
	{
		$s->query("SET $force = on; SET max_parallel_workers = $workers");
		my ($plan) = $s->query("EXPLAIN (COSTS OFF) SELECT parallel_call($call)");
		like($plan, qr/Gather/, "case 4 ($workers workers): the wrapper runs under a Gather");
		my ($out, $err) = $s->query("SELECT parallel_call($call) ->> 'success'");
		note("case 4 ($workers workers): stdout '$out', stderr '$err'");
		ok($out ne '' || $err =~ /ERROR/, "case 4 ($workers workers): an error or an answer")
		  or diag("stdout: $out\nstderr: $err");
		unlike($err, qr/FATAL|PANIC/, "case 4 ($workers workers): nothing worse than an ERROR");
		$s->query("RESET $force; RESET max_parallel_workers");
		($out, $err) = $s->query(qq{SELECT ai_tool_call($call) ->> 'success'});
		is($out, 'true', "case 4 ($workers workers): a normal call in the same session works afterwards")
		  or diag("stderr: $err");
	}
	my ($pid) = $s->alive ? $s->query('SELECT pg_backend_pid()') : ('');
	is($pid, $s->{pid}, 'case 4: the session goes on');
	$s->close;
}

# ---------------------------------------------------------------------------
# 5. Memory bounded by the byte budget (the default 1 MB), whatever the
# row width.
{
	my $r = measure('5 view with 5 MB rows', call_sql('select_query', q{'{"table": "wide"}'}));
	is($r->{reason}, 'byte_limit', 'case 5: a view with 5 MB rows is truncated at byte_limit');
	small($r, 'case 5, a view with 5 MB rows');

	$r = measure('5 rows of 10 MB', call_sql('execute_sql',
		q{'{"sql": "SELECT repeat(''x'', 10000000) FROM generate_series(1, 200)"}'}));
	is($r->{reason}, 'byte_limit', 'case 5: 200 rows of 10 MB are truncated at byte_limit');
	small($r, 'case 5, 200 rows of 10 MB');

	$r = measure('5 one 300 MB value', call_sql('select_query', q{'{"table": "huge"}'}));
	is($r->{reason}, 'byte_limit', 'case 5: one 300 MB stored value is truncated at byte_limit');
	small($r, 'case 5, one 300 MB stored value');

	# \u0001 is six bytes of answer: counted as rendered
	$r = measure('5 control characters', call_sql('execute_sql',
		q{'{"sql": "SELECT repeat(chr(1), 6000) AS c FROM generate_series(1, 1000)"}'}));
	is($r->{reason}, 'byte_limit', 'case 5: 6 MB of control characters is truncated at byte_limit');
	cmp_ok($r->{len}, '<=', $MB + 16 * 1024,
		"case 5: ... and the answer's serialized size stays within the 1 MB budget ($r->{len} characters)");
	small($r, 'case 5, control characters');

	$r = measure('5 INSERT RETURNING 2M rows', call_sql('execute_sql',
		q{'{"sql": "INSERT INTO ins SELECT generate_series(1, 2000000) RETURNING *"}'}));
	is_type($r, 'case 5: INSERT ... RETURNING of 2 million rows', 'limit_exceeded');
	small($r, 'case 5, INSERT ... RETURNING of 2 million rows');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM ins'), '0', 'case 5: ... nothing was inserted');
}

# ---------------------------------------------------------------------------
# 6. 256 distinct statements of 63 kB each (the issue's were 106 kB; these
# stay under the 65536-character sql cap): the session does not keep them
# all.
{
	my $one = q{SELECT coalesce(ai_tool_call('execute_sql', jsonb_build_object('sql',
	  format('SELECT %s AS k FROM t WHERE id IN (%s)', i,
	    (SELECT string_agg(g::text, ',') FROM generate_series(100000, 108999) g))))->>'errorType', 'ok')
	  FROM (VALUES (N)) v(i)};
	my $all = join(";\n", map { $one =~ s/\bN\b/$_/r } 1 .. 256);
	my $r = measure('6 256 distinct statements', $all);
	my @types = split /\n/, $r->{out};
	is(scalar(grep { $_ eq 'ok' } @types), 256, 'case 6: the 256 calls succeed')
	  or diag("answers: @types[0..2] ...; stderr: " . substr($r->{err}, 0, 300));
	small($r, 'case 6, 256 distinct statements');
}

# ---------------------------------------------------------------------------
# 7. Work the agent sizes stays interruptible and linear.
{
	my $r = measure('7 1664 copies of a column', call_sql('select_query',
		q{jsonb_build_object('table', 't', 'timeout_ms', 100,
		  'columns', (SELECT string_agg('id', ',') FROM generate_series(1, 1664)))}));
	quick($r, 'case 7, 1664 copies of a column with timeout_ms 100', 1.1);
	small($r, 'case 7, 1664 copies of a column');

	$r = measure('7 array_fill', call_sql('execute_sql',
		q{'{"timeout_ms": 200, "sql": "SELECT array_fill(1, ARRAY[10000000])"}'}));
	answered($r, 'case 7, array_fill of 10 million');
	quick($r, 'case 7, array_fill of 10 million with timeout_ms 200', 1.2);
	# PostgreSQL itself pays about 76 MB for this statement, with or without
	# the tool: the planner folds the 40 MB constant and copies it.  The
	# bound is on what the call adds to that.
	my $plain = measure('7 array_fill, plain SQL',
		q{SELECT CASE WHEN a IS NULL THEN 'null' ELSE 'ok' END, '-', 0, '-', '' FROM (SELECT array_fill(1, ARRAY[10000000]) AS a OFFSET 0) s});
	ok(defined $r->{growth} && defined $plain->{growth}
		  && $r->{growth} - $plain->{growth} < 8,
		sprintf('case 7, array_fill of 10 million: the call adds less than 8 MB to what plain SQL takes (%s vs %s MB)',
			defined $r->{growth} ? sprintf('%+.1f', $r->{growth}) : 'gone',
			defined $plain->{growth} ? sprintf('%+.1f', $plain->{growth}) : 'gone'));

	# an IN list as long as the sql cap (65536 characters) allows: 65534
	$r = measure('7 IN list of 64 kB', call_sql('execute_sql',
		q{jsonb_build_object('timeout_ms', 100, 'sql', 'SELECT 1 WHERE 1 IN ('
		  || (SELECT string_agg(g::text, ',') FROM generate_series(100000, 109358) g) || ')')}));
	answered($r, 'case 7, an IN list of 64 kB');
	quick($r, 'case 7, an IN list of 64 kB with timeout_ms 100', 1.1);
	small($r, 'case 7, an IN list of 64 kB');

	# the issue's 6 MB IN list
	$r = measure('7 IN list of 6 MB', call_sql('execute_sql', stored('in_6mb')));
	answered($r, 'case 7, an IN list of 6 MB');
	quick($r, 'case 7, an IN list of 6 MB with timeout_ms 100', 1.1);
	small($r, 'case 7, an IN list of 6 MB');

	# a where nested 13,000 levels deep
	$r = measure('7 where 13000 deep', call_sql('select_query',
		q{jsonb_build_object('table', 't', 'where',
		  (repeat('{"not": ', 13000) || '{"id": 1}' || repeat('}', 13000))::jsonb)}));
	is_type($r, 'case 7: a where nested 13,000 levels deep', 'invalid_parameters');
	small($r, 'case 7, a where nested 13,000 levels deep');
}

# ---------------------------------------------------------------------------
# 8. Huge arguments: 100 MB strings are refused before they are copied
# (more than an eighth of max_call_memory, 256MB), with a short answer;
# 16 MB ones (within it) answer invalid_parameters, their echo clipped.
for my $what (qw(columns where table pattern))
{
	my $tool = $what eq 'pattern' ? 'list_tables' : 'select_query';
	my $r = measure("8 100 MB $what", call_sql($tool, stored("${what}_100000000")));
	is_type($r, "case 8, a 100 MB $what", 'resource_limit');
	ok($r->{len} > 0 && $r->{len} < 16384,
		"case 8, a 100 MB $what: the answer quotes it clipped ($r->{len} characters)");
	quick($r, "case 8, a 100 MB $what", 5);

	$r = measure("8 16 MB $what", call_sql($tool, stored("${what}_16000000")));
	is_type($r, "case 8, a 16 MB $what", 'invalid_parameters');
	small($r, "case 8, a 16 MB $what");
}

# ---------------------------------------------------------------------------
# 9. A million rows in one insert_data: refused by the write cap before any
# is converted.
{
	my $r = measure('9 insert of a million rows', call_sql('insert_data', stored('rows_1m')));
	is_type($r, 'case 9: an insert of a million rows', 'limit_exceeded');
	small($r, 'case 9, an insert of a million rows');
	is($node->safe_psql('postgres', 'SELECT count(*) FROM ins9'), '0', 'case 9: nothing was inserted');
}

# ---------------------------------------------------------------------------
# Found in review: many statements in one call, each with a wide header or a
# large bound value, share one budget and cost what the largest costs; a
# numeric array that renders huge is measured, not converted, on time.
{
	my $r = measure('R many statements', call_sql('execute_sql',
		q{jsonb_build_object('mode', 'multiple', 'sql', repeat('select;', 101))}));
	is_type($r, 'review: 101 statements in one call', 'invalid_parameters');

	$r = measure('R 100 wide headers', call_sql('execute_sql',
		q{jsonb_build_object('mode', 'multiple', 'sql', repeat('table w300;', 100))}));
	answered($r, 'review, 100 statements of 300 wide columns');
	cmp_ok($r->{len}, '<', 1100000, "review, 100 wide headers: the answer stays near the 1 MB budget ($r->{len} characters)");
	small($r, 'review, 100 statements of 300 wide columns');

	$r = measure('R 100 x 5 MB params', call_sql('execute_sql',
		q{jsonb_build_object('mode', 'multiple', 'sql', repeat('select $1 is null;', 100),
		  'params', jsonb_build_array(repeat('x', 5000000)))}));
	answered($r, 'review, a 5 MB value bound in 100 statements');
	small($r, 'review, a 5 MB value bound in 100 statements');

	$r = measure('R huge numerics', call_sql('execute_sql',
		q{'{"timeout_ms": 100, "sql": "SELECT array_fill(1e131071, ARRAY[80000]) AS a"}'}), timeout => 60);
	answered($r, 'review, 80,000 numerics of 131,072 digits');
	quick($r, 'review, 80,000 numerics of 131,072 digits with timeout_ms 100', 1.1);
	is($r->{reason}, 'byte_limit', 'review, 80,000 numerics of 131,072 digits: left out at the byte limit');

	$r = measure('R nested jsonb', call_sql('execute_sql',
		q{'{"limit": 10000, "sql": "SELECT array_fill(''{}''::jsonb, ARRAY[100]) AS j FROM generate_series(1, 100000)"}'}));
	answered($r, 'review, 10,000 rows of 100 empty objects');
	small($r, 'review, 10,000 rows of 100 empty objects');
}

# ---------------------------------------------------------------------------
# No call restarted the cluster.
ensure_up();
note(join("\n", 'figures (call, time, idle VmHWM, peak VmHWM, growth, answer):', @figures));
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'),
	$start_time, 'the postmaster never restarted');
my $log = slurp_file($node->logfile);
my @crash = grep { /terminated by signal|was terminated|server process|all server processes terminated/ }
  split /\n/, $log;
is(scalar(@crash), 0, 'no backend crashed (server log)')
  or diag(join("\n", @crash[0 .. ($#crash < 9 ? $#crash : 9)]));
my $total = time - $suite_start;
# a bound on the suite's own time, so that a case that stops stopping shows
# here; generous, as CI runs three targets at once on two cores (130 to
# 144 s there, 60 s on an idle machine)
cmp_ok($total, '<', 300, sprintf('the suite ran in %.0f s', $total));

$node->stop;
done_testing();
