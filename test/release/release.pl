# The release suite (issue 33): what a release is made of agrees with itself.
#   - META.json is valid against the PGXN Meta Spec 1.0.0 (ajv, with
#     pgxn-meta-1.0.0.schema.json), and the schema refuses broken documents;
#   - one version everywhere: the control file's default_version is
#     META.json's, its extension's, the install script's, CHANGELOG.md's
#     newest section's, debian/changelog's upstream version and
#     neon-ai-tools-mcp --version's;
#   - every older install script has a chain of update scripts to it, and the
#     released scripts are byte for byte as released (released.sha256);
#   - make dist makes neon_ai_tools-VERSION.zip of exactly the tracked files,
#     in a clone of the checkout NAT_GIT_ROOT (skipped without one).
# Prints TAP.  Env: PG_CONFIG (neon-ai-tools-mcp is looked for in its
# --bindir), NAT_GIT_ROOT (a git checkout with a commit), NODE (node).
use strict;
use warnings;

use Digest::SHA;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use IO::Uncompress::Unzip qw($UnzipError);
use JSON::PP;
use Test::More;

my $here = dirname(__FILE__);
my $root = "$here/../..";
my $node = $ENV{NODE} // 'node';
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $json = JSON::PP->new->canonical;

sub slurp { local (@ARGV, $/) = @_; return scalar <> }

my $control = slurp("$root/neon_ai_tools.control");
my ($version) = $control =~ /^default_version\s*=\s*'([^']+)'/m;
my ($comment) = $control =~ /^comment\s*=\s*'([^']+)'/m;
like($version, qr/^\d+\.\d+\.\d+$/, "the control file's default_version is a semantic version ($version)");

# --- META.json against the PGXN Meta Spec -------------------------------------
my $meta = eval { decode_json(slurp("$root/META.json")) };
ok($meta, 'META.json is JSON') or diag $@;
$meta //= {};

# documents the schema must refuse: each a copy of META.json with one fault
my %broken = (
	'no provides' => sub { delete $_[0]{provides} },
	'no meta-spec' => sub { delete $_[0]{'meta-spec'} },
	'a two-part version' => sub { $_[0]{version} = '0.2' },
	'an unknown license' => sub { $_[0]{license} = 'PostgreSQL License' },
	'a one-letter name' => sub { $_[0]{name} = 'n' },
	'a name with a space' => sub { $_[0]{name} = 'neon ai tools' },
	'a provided extension without file' => sub { delete $_[0]{provides}{neon_ai_tools}{file} },
	'an unknown prereq phase' => sub { $_[0]{prereqs}{install} = { requires => { PostgreSQL => '15.0.0' } } },
	'a bad version range' => sub { $_[0]{prereqs}{runtime}{requires}{PostgreSQL} = '>= 15' },
	'an unknown key' => sub { $_[0]{homepage} = 'https://example.com/' },
	'meta-spec 2.0.0' => sub { $_[0]{'meta-spec'}{version} = '2.0.0' });
my @docs = ([ 'META.json', $meta ]);
foreach my $label (sort keys %broken)
{
	my $copy = decode_json(encode_json($meta));
	$broken{$label}->($copy);
	push @docs, [ $label, $copy ];
}
my $tmp = tempdir(CLEANUP => 1);
open my $fh, '>', "$tmp/docs.json" or die;
print $fh encode_json(\@docs);
close $fh;
my %verdict = map { split /\t/, $_, 2 }
  split /\n/, `$node "$here/validate-meta.mjs" < "$tmp/docs.json"`;
is($verdict{'META.json'}, 'ok', 'META.json is valid against the PGXN Meta Spec 1.0.0 schema');
is(join(', ', grep { ($verdict{$_} // 'ok') eq 'ok' } sort keys %broken), '',
	'the schema refuses ' . scalar(keys %broken) . ' broken copies of META.json');

# --- one version -----------------------------------------------------------------
my $ext = $meta->{provides}{neon_ai_tools} // {};
is($meta->{name}, 'neon_ai_tools', "META.json's name is the extension's");
is($meta->{version}, $version, "META.json's version is the control file's");
is($ext->{version}, $version, "META.json's provided extension has the control file's version");
is($ext->{file}, "sql/neon_ai_tools--$version.sql", "... and its install script");
ok(-f "$root/$ext->{file}", "$ext->{file} exists") if $ext->{file};
is($meta->{abstract}, $comment, "META.json's abstract is the control file's comment");
is($meta->{prereqs}{runtime}{requires}{PostgreSQL}, '15.0.0', 'META.json requires PostgreSQL 15 or later');

my $changelog = slurp("$root/CHANGELOG.md");
my @sections = $changelog =~ /^## \[?(\d+(?:\.\d+)+)\]?/mg;
is($sections[0], $version, "CHANGELOG.md's newest section is $version");
# the Debian packages' upstream version (debian/changelog's newest entry,
# "neon-ai-tools (X.Y.Z-N) ...")
my ($debian) = slurp("$root/debian/changelog") =~ /\A\S+ \(([^)-]+)-[^)]+\)/;
is($debian, $version, "debian/changelog's newest entry packages $version");

opendir my $dh, "$root/sql" or die;
my @scripts = grep { /^neon_ai_tools--.*\.sql$/ } readdir $dh;
closedir $dh;
my @installs = map { /^neon_ai_tools--([^-]+)\.sql$/ ? $1 : () } @scripts;
my %updates;
foreach (@scripts)
{
	push @{ $updates{$1} }, $2 if /^neon_ai_tools--([^-]+)--([^-]+)\.sql$/;
}
is(join(' ', sort grep { my $v = $_; !grep { $_ eq $v } @sections } @installs), '',
	'every version with an install script has a CHANGELOG.md section');
# an update chain from every older version to the current one
my @stranded;
foreach my $v (grep { $_ ne $version } @installs)
{
	my %seen = ($v => 1);
	my @todo = ($v);
	while (my $from = shift @todo)
	{
		push @todo, grep { !$seen{$_}++ } @{ $updates{$from} // [] };
	}
	push @stranded, $v unless $seen{$version};
}
is(join(' ', @stranded), '', "every older install script updates to $version");

# released scripts never change (README, "Releases": add each release's)
my @released = grep { /\S/ } split /\n/, slurp("$here/released.sha256");
my @changed = grep {
	my ($sum, $file) = split /\s+/;
	!-f "$root/$file" || Digest::SHA->new(256)->addfile("$root/$file")->hexdigest ne $sum
} @released;
is(join(', ', @changed), '', scalar(@released) . ' released scripts are as released');

SKIP:
{
	my $bindir = `"$pg_config" --bindir 2>/dev/null`;
	chomp $bindir;
	my $mcp = "$bindir/neon-ai-tools-mcp";
	skip 'neon-ai-tools-mcp is not installed', 1 unless -x $mcp;
	is(`"$mcp" --version`, "neon-ai-tools-mcp (neon_ai_tools) $version\n",
		"neon-ai-tools-mcp --version names $version");
}

# --- make dist --------------------------------------------------------------------
SKIP:
{
	my $git_root = $ENV{NAT_GIT_ROOT} // '';
	# a checkout owned by another user (test.sh runs this as an unprivileged
	# one; a worktree's git directory is elsewhere) is only read: trusted
	# by a global configuration of this run's own (the clone's upload-pack
	# does not see -c safe.directory)
	open my $cfg, '>', "$tmp/gitconfig" or die;
	print $cfg "[safe]\n\tdirectory = *\n";
	close $cfg;
	local $ENV{GIT_CONFIG_GLOBAL} = "$tmp/gitconfig";
	my @git = ('git');
	my $git = 'git';
	skip 'no git checkout with a commit (NAT_GIT_ROOT)', 5
	  unless $git_root ne ''
	  && `$git -C '$git_root' rev-parse -q --verify HEAD 2>/dev/null` ne '';
	my $clone = "$tmp/clone";
	# HEAD alone: the zip is HEAD's
	system(@git, 'clone', '-q', '--depth', '1', "file://$git_root", $clone) == 0
	  or die "git clone failed";
	# neither an untracked file nor a build product may go in
	system("touch '$clone/stray.txt' '$clone/neon_ai_tools.so'") == 0 or die;
	my $out = `make -s -C '$clone' dist PG_CONFIG='$pg_config' 2>&1`;
	is($?, 0, 'make dist succeeds') or diag $out;
	my $zip = "$clone/neon_ai_tools-$version.zip";
	ok(-f $zip, "make dist makes neon_ai_tools-$version.zip");
	my @names;
	my $u = IO::Uncompress::Unzip->new($zip) or die "$zip: $UnzipError";
	for (my $status = 1; $status > 0; $status = $u->nextStream)
	{
		push @names, $u->getHeaderInfo->{Name};
	}
	$u->close;
	my $prefix = "neon_ai_tools-$version/";
	is(join("\n", grep { index($_, $prefix) != 0 } @names), '', "every entry is under $prefix");
	my @files = sort map { substr($_, length $prefix) } grep { !m{/$} } @names;
	my @tracked = sort split /\n/, `git -C '$clone' ls-files`;
	is(join("\n", @files), join("\n", @tracked),
		'the zip holds exactly the tracked files (' . scalar(@tracked) . ')');
	ok(!grep({ $_ eq 'stray.txt' || $_ eq 'neon_ai_tools.so' } @files),
		'... and no untracked file or build product');
}

done_testing();
