#!/usr/bin/perl
# scripts/layers.pl: check that the C sources' folders are layers.
#
# The module (src/) and the MCP program (src/mcp/) each declare their
# folders, bottom layer first, in their Makefile (NAT_LAYERS, MCP_LAYERS;
# "." is the program's own folder, its entry point, on top).  From the
# built objects (nm: which file defines each extern symbol, which files use
# it) and the sources' #include "..." lines, this derives the edges between
# folders and fails (exit 1) when
#   - a file calls a function, or uses a variable, of a folder above its own;
#   - a file includes a header of a folder above its own;
#   - the includes between the project's files form a circle;
#   - the calls between files form a circle (two files that need each
#     other, directly or around a ring) across folders, or inside a folder
#     of a program that allows none there (the MCP program; the module
#     allows one, inside run/: README, "Layout").
# It prints the folder order derived from the edges (each folder after the
# ones it uses) and the count of each kind of fault, and names every one.
#
# Usage: scripts/layers.pl [--quiet]    (after make: it reads src/**/*.o)
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

$| = 1;
my $quiet = grep { $_ eq '--quiet' } @ARGV;
chdir(dirname($0) . '/..') or die "layers: $!\n";

my @programs = (
	{ name => 'module', root => 'src', makefile => 'Makefile', var => 'NAT_LAYERS',
	  no_call_circles => 0 },
	{ name => 'MCP program', root => 'src/mcp', makefile => 'src/mcp/Makefile',
	  var => 'MCP_LAYERS', no_call_circles => 1 },
);

my $faults = 0;
for my $p (@programs)
{
	next unless -f $p->{makefile};
	check_program($p);
}
print $faults ? "layers: $faults fault(s)\n" : "layers: ok\n";
exit($faults ? 1 : 0);

sub fault
{
	my ($msg) = @_;
	print "  $msg\n";
	$faults++;
}

# the declared folders of a program, bottom first
sub declared_layers
{
	my ($p) = @_;
	open(my $fh, '<', $p->{makefile}) or die "layers: $p->{makefile}: $!\n";
	while (<$fh>)
	{
		return split(' ', $1) if /^\Q$p->{var}\E\s*[:?]?=\s*(.*?)\s*$/;
	}
	die "layers: $p->{makefile} declares no $p->{var}\n";
}

# the folder of a file, relative to the program's root ("." for the root)
sub folder_of
{
	my ($p, $file) = @_;
	my $rel = File::Spec->abs2rel($file, $p->{root});
	my $dir = dirname($rel);
	return $dir eq '' ? '.' : $dir;
}

# the program's own files: sources and headers, inside its root and not
# inside a sub-program's root (src/mcp is not part of the module)
sub program_files
{
	my ($p, $ext) = @_;
	my @files = map { File::Spec->abs2rel($_) } glob("$p->{root}/*.$ext $p->{root}/*/*.$ext");
	return grep { $p->{root} eq 'src/mcp' || !m{^src/mcp/} } @files;
}

sub nm_symbols
{
	my ($obj, @flags) = @_;
	my @syms;
	open(my $fh, '-|', 'nm', @flags, $obj) or die "layers: nm: $!\n";
	while (<$fh>)
	{
		my @f = split;
		push @syms, $f[-1] if @f;
	}
	close($fh);
	return @syms;
}

# file -> { file it depends on -> [symbols or headers] }
sub call_edges
{
	my ($p) = @_;
	my (%defined_in, %edges);
	my @objs = map { (my $o = $_) =~ s/\.c$/.o/; $o } program_files($p, 'c');
	for my $o (@objs)
	{
		die "layers: $o is missing: build first (make)\n" unless -f $o;
		$defined_in{$_} = $o for nm_symbols($o, '-g', '--defined-only');
	}
	for my $o (@objs)
	{
		for my $s (nm_symbols($o, '-u'))
		{
			my $d = $defined_in{$s};
			next if !defined $d || $d eq $o;
			(my $from = $o) =~ s/\.o$/.c/;
			(my $to = $d) =~ s/\.o$/.c/;
			push @{ $edges{$from}{$to} }, $s;
		}
	}
	return \%edges;
}

sub include_edges
{
	my ($p) = @_;
	my %edges;
	for my $f (program_files($p, 'c'), program_files($p, 'h'))
	{
		open(my $fh, '<', $f) or die "layers: $f: $!\n";
		while (<$fh>)
		{
			next unless /^\s*#\s*include\s+"([^"]+)"/;
			my $name = $1;
			my ($hit) = grep { -f $_ } (File::Spec->abs2rel(dirname($f) . "/$name"), "$p->{root}/$name");
			next unless defined $hit;	# a system or PostgreSQL header
			$hit = File::Spec->canonpath($hit);
			push @{ $edges{$f}{$hit} }, $name;
		}
	}
	return \%edges;
}

# the circles of a graph: its strongly connected components of two or more
sub circles
{
	my ($edges) = @_;
	my (%index, %low, %on, @stack, @found);
	my $n = 0;
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$index{$v} = $low{$v} = $n++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{ $edges->{$v} // {} })
		{
			if (!exists $index{$w})
			{
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			}
			elsif ($on{$w})
			{
				$low{$v} = $index{$w} if $index{$w} < $low{$v};
			}
		}
		if ($low{$v} == $index{$v})
		{
			my @c;
			while (1)
			{
				my $w = pop @stack;
				delete $on{$w};
				push @c, $w;
				last if $w eq $v;
			}
			push @found, [ sort @c ] if @c > 1;
		}
	};
	$visit->($_) for grep { !exists $index{$_} } sort keys %$edges;
	return @found;
}

# each folder after the folders it uses (their longest path down)
sub derived_order
{
	my ($folder_edges, @folders) = @_;
	my %depth;
	my $depth;
	$depth = sub {
		my ($f, $seen) = @_;
		return $depth{$f} if defined $depth{$f};
		return 0 if $seen->{$f}++;
		my $d = 0;
		for my $g (keys %{ $folder_edges->{$f} // {} })
		{
			my $dg = $depth->($g, $seen) + 1;
			$d = $dg if $dg > $d;
		}
		return $depth{$f} = $d;
	};
	return sort { $depth->($a, {}) <=> $depth->($b, {}) || $a cmp $b } @folders;
}

sub check_program
{
	my ($p) = @_;
	my @layers = declared_layers($p);
	my %rank;
	@rank{@layers} = (0 .. $#layers);
	my $calls = call_edges($p);
	my $includes = include_edges($p);
	my $before = $faults;
	print "$p->{name} ($p->{root}): folders, bottom first: @layers\n";

	my %folder_edges;
	for my $kind ([ 'calls', $calls ], [ 'includes', $includes ])
	{
		my ($what, $edges) = @$kind;
		for my $from (sort keys %$edges)
		{
			my $ff = folder_of($p, $from);
			if (!exists $rank{$ff})
			{
				fault("$from: folder $ff is not in $p->{var}");
				next;
			}
			for my $to (sort keys %{ $edges->{$from} })
			{
				my $ft = folder_of($p, $to);
				next if $ft eq $ff;
				$folder_edges{$ff}{$ft} = 1;
				if (!exists $rank{$ft})
				{
					fault("$to: folder $ft is not in $p->{var}");
				}
				elsif ($rank{$ft} > $rank{$ff})
				{
					my @what = sort(uniq(@{ $edges->{$from}{$to} }));
					fault("$from $what up into $ft/: $to (" . join(', ', @what) . ')');
				}
			}
		}
	}
	my @two_way = grep { my ($a, $b) = @$_; $a lt $b && $folder_edges{$b}{$a} }
	  map { my $a = $_; map { [ $a, $_ ] } keys %{ $folder_edges{$a} } } keys %folder_edges;
	my @include_circles = circles($includes);
	for my $c (@include_circles)
	{
		fault('include circle: ' . join(' <-> ', @$c));
	}
	my @call_circles = circles($calls);
	for my $c (@call_circles)
	{
		my $msg = 'call circle: ' . join(' <-> ', @$c);
		my %in = map { folder_of($p, $_) => 1 } @$c;
		if ($p->{no_call_circles} || keys(%in) > 1)
		{
			fault(keys(%in) > 1 ? "$msg (across folders)" : $msg);
		}
		elsif (!$quiet)
		{
			print "  (inside one folder, allowed) $msg\n";
		}
	}
	printf "  derived order: %s\n", join(' < ', derived_order(\%folder_edges, @layers));
	printf "  %d folder pair(s) tied both ways, %d include circle(s), %d call circle(s), %d fault(s)\n",
	  scalar(@two_way), scalar(@include_circles), scalar(@call_circles), $faults - $before;
}

sub uniq
{
	my %s;
	return grep { !$s{$_}++ } @_;
}
