#!/usr/bin/perl
# The README's SQL examples, run (issue 33, item 5).  Prints TAP: one line
# for the markers, one for each runnable example.
#
# Every ```sql block of the README follows a marker comment:
#
#   <!-- illustrative -->   not run (other tables, other servers, fragments)
#   <!-- runnable -->       run, in README order, each in a fresh psql
#                           session on the database the PG* variables name
#
# A runnable marker may carry hidden SQL, run in the same session, its
# output not shown: "setup:" lines run before the example, "cleanup:" lines
# after it (neither may hold "--", which ends an HTML comment); "user:"
# connects as that role instead of the PG* one (trust authentication):
#
#   <!-- runnable
#   setup: CREATE SCHEMA sales;
#   cleanup: ALTER SYSTEM RESET neon_ai_tools.require_ssl;
#   -->
#
# The fenced block right after a runnable block (blank lines between) is its
# shown output when its language is json, text or none; without one, the
# example must print nothing.  Output is what "psql -X -q -A -t" prints (one
# line a row, columns separated by "|").  A json block is compared as JSON:
# one or more values, key order and layout free, numbers digit for digit;
# two volatile fields are compared by their shape: "executionTime" ("0.8ms")
# and the signature of a "next" token (the database's random key signs it;
# the payload before the "." is compared).  A text block is compared line by line (trailing spaces ignored).
# An example that raises an error fails.
#
# Usage: perl test/readme/examples.pl README.md   (PG* say which database)
# Env:   PSQL  the psql to run (default psql)
use strict;
use warnings;
use JSON::PP;
use File::Temp qw(tempdir);

my $readme = shift or die "usage: $0 README.md\n";
my $base = $readme =~ s{.*/}{}r;
my $psql = $ENV{PSQL} // 'psql';
my $tmp = tempdir(CLEANUP => 1);

# --- the README's blocks ------------------------------------------------------
open my $fh, '<:encoding(UTF-8)', $readme or die "$readme: $!\n";
my @lines = <$fh>;
close $fh;
chomp @lines;

# fenced blocks: {line (1-based, of the opening fence), lang, text, end}
my @blocks;
for (my $i = 0; $i < @lines; $i++) {
	next unless $lines[$i] =~ /^\s*```\s*([\w-]*)\s*$/;
	my ($lang, $start) = ($1, $i);
	my @body;
	for ($i++; $i < @lines && $lines[$i] !~ /^\s*```\s*$/; $i++) {
		push @body, $lines[$i];
	}
	push @blocks, { line => $start + 1, lang => $lang, text => join("\n", @body), end => $i };
}

# the marker before a block: the comment that ends on the last non-blank
# line before its fence, or undef
sub marker
{
	my ($b) = @_;
	my $i = $b->{line} - 2;
	$i-- while $i >= 0 && $lines[$i] =~ /^\s*$/;
	return undef if $i < 0 || $lines[$i] !~ /-->\s*$/;
	my $end = $i;
	$i-- while $i >= 0 && $lines[$i] !~ /<!--/;
	return undef if $i < 0;
	my $comment = join("\n", @lines[$i .. $end]);
	$comment =~ s/^\s*<!--\s*//;
	$comment =~ s/\s*-->\s*$//;
	my ($kind, $rest) = $comment =~ /^(runnable|illustrative)\b(.*)\z/s or return undef;
	my %m = (kind => $kind, setup => '', cleanup => '');
	my $part;
	for my $l (split /\n/, $rest) {
		if ($l =~ /^\s*user:\s*(\w+)\s*$/) {
			$m{user} = $1;
			undef $part;
			next;
		}
		if ($l =~ /^\s*(setup|cleanup):\s*(.*)$/) {
			$part = $1;
			$l = $2;
		}
		next if $l =~ /^\s*$/;
		die "$readme: marker of line $b->{line}: \"$l\" is not setup:, cleanup: or user:\n"
		  unless defined $part;
		$m{$part} .= "$l\n";
	}
	return \%m;
}

# --- TAP ------------------------------------------------------------------------
my $n = 0;
my $failed = 0;
sub ok
{
	my ($pass, $name, @diag) = @_;
	$n++;
	print(($pass ? "ok" : "not ok") . " $n - $name\n");
	$failed++ unless $pass;
	print map { "#   $_\n" } map { split /\n/ } @diag unless $pass;
}

my (@runnable, @unmarked, $illustrative);
for (my $k = 0; $k < @blocks; $k++) {
	my $b = $blocks[$k];
	next unless $b->{lang} eq 'sql';
	my $m = marker($b);
	if (!$m) {
		push @unmarked, $b->{line};
		next;
	}
	if ($m->{kind} eq 'illustrative') {
		$illustrative++;
		next;
	}
	my $next = $blocks[$k + 1];
	my $out;
	if ($next && $next->{lang} =~ /^(json|text|)$/
		&& !grep { !/^\s*$/ } @lines[$b->{end} + 1 .. $next->{line} - 2]) {
		$out = $next;
		$k++;
	}
	push @runnable, { %$b, %$m, out => $out };
}
ok(!@unmarked,
	sprintf("every sql block is marked: %d runnable, %d illustrative",
		scalar @runnable, $illustrative // 0),
	map { "$base:$_: a ```sql block without <!-- runnable --> or <!-- illustrative --> before it" } @unmarked);

# --- running one -----------------------------------------------------------------
sub slurp
{
	my ($f) = @_;
	open my $in, '<:encoding(UTF-8)', $f or return '';
	local $/;
	my $s = <$in>;
	return $s // '';
}

# run SQL in a fresh session: (exit code, stdout, stderr)
sub run_psql
{
	my ($ex) = @_;
	my $script = "$tmp/example.sql";
	open my $out, '>:encoding(UTF-8)', $script or die "$script: $!\n";
	print $out "\\o /dev/null\n$ex->{setup}\\o\n" if $ex->{setup} ne '';
	print $out "$ex->{text}\n";
	print $out "\\o /dev/null\n$ex->{cleanup}\\o\n" if $ex->{cleanup} ne '';
	close $out;
	my $user = $ex->{user} ? "-U $ex->{user}" : '';
	my $rc = system("$psql -X -q -A -t -v ON_ERROR_STOP=1 -v VERBOSITY=terse $user"
		  . " -f '$script' >'$tmp/out' 2>'$tmp/err'");
	return ($rc >> 8, slurp("$tmp/out"), slurp("$tmp/err"));
}

# a JSON text as a canonical string: numbers kept as written (made strings
# with a mark before parsing), the executionTime shape, keys sorted
sub canonical_json
{
	my ($text) = @_;
	$text =~ s/("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/defined $1 ? $1 : "\"\\u0001$2\""/ge;
	my $json = JSON::PP->new->utf8(0)->canonical->pretty->allow_nonref;
	my @values;
	$json->incr_parse($text);
	while (defined(my $v = $json->incr_parse)) {
		push @values, $v;
	}
	die "trailing text that is not JSON: " . substr($json->incr_text, 0, 80) . "\n"
	  if $json->incr_text =~ /\S/;
	my $walk;
	$walk = sub {
		my ($v) = @_;
		if (ref $v eq 'HASH') {
			for my $k (keys %$v) {
				if ($k eq 'executionTime' && !ref $v->{$k} && $v->{$k} =~ /^\d+(\.\d+)?ms$/) {
					$v->{$k} = '(a time in ms)';
				} elsif ($k eq 'next' && !ref $v->{$k} && $v->{$k} =~ /^([\w-]+)\.[\w-]{43}$/) {
					$v->{$k} = "$1.(signature)";
				} else {
					$walk->($v->{$k});
				}
			}
		} elsif (ref $v eq 'ARRAY') {
			$walk->($_) for @$v;
		}
	};
	$walk->($_) for @values;
	my $s = join('', map { $json->encode($_) } @values);
	$s =~ s/"\\u0001([^"]*)"/$1/g;
	return $s;
}

sub text_lines
{
	my ($t) = @_;
	my @l = map { s/\s+$//r } split /\n/, $t;
	pop @l while @l && $l[-1] eq '';
	return join("\n", @l);
}

sub diff
{
	my ($shown, $real) = @_;
	for (['shown', $shown], ['real', $real]) {
		open my $o, '>:encoding(UTF-8)', "$tmp/$_->[0]" or die;
		print $o "$_->[1]\n";
		close $o;
	}
	return scalar `cd '$tmp' && diff -u shown real`;
}

for my $ex (@runnable) {
	my $name = "$base:$ex->{line}: " . ((grep { /\S/ && !/^\s*--/ } split /\n/, $ex->{text})[0] // '');
	$name = substr($name, 0, 100) . '...' if length $name > 103;
	my ($rc, $out, $err) = run_psql($ex);
	if ($rc != 0) {
		ok(0, $name, "psql exited with $rc", $err);
		next;
	}
	my ($shown, $real);
	if (!$ex->{out}) {
		($shown, $real) = ('', text_lines($out));
	} elsif ($ex->{out}{lang} eq 'json') {
		$shown = eval { canonical_json($ex->{out}{text}) };
		if (!defined $shown) {
			ok(0, $name, "the shown output (line $ex->{out}{line}) is not JSON: $@");
			next;
		}
		$real = eval { canonical_json($out) };
		if (!defined $real) {
			ok(0, $name, "the real output is not JSON: $@", $out);
			next;
		}
	} else {
		($shown, $real) = (text_lines($ex->{out}{text}), text_lines($out));
	}
	ok($shown eq $real, $name,
		$ex->{out} ? "shown (line $ex->{out}{line}) and real output differ:" : "prints output the README does not show:",
		diff($shown, $real));
}
print "1..$n\n";
exit($failed ? 1 : 0);
