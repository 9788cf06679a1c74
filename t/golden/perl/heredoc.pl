print <<"EOF" . <<'RAW', "after\n";
interpolated $x
EOF
raw $y
RAW
my $t = <<~EOT;
    indented
    EOT
print << "SPACED";
spaced
SPACED
print <<EOF;
bare
EOF
print <<\ESC;
escaped
ESC
my $shift = 1 << 3;

=pod

This is POD, with 'quotes' and code: s/x/y/

=cut

print "after pod";
=head1 NAME

Foo - bar
=cut
__END__
anything 'goes" here
=head1 DOC
