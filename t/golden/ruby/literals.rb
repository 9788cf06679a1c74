# Literals: each one token, #{} inside its string.
s = "a #{"inner #{deep} }"} b"
t = "multi
line string"
u = 'it''s \' ok'
w = %w[a b [c] d] + %i(x y) + %W{#{a} b}
q = %q{don't {nest}} + %Q|#{x}| + %(paren (nested) #{y})
r = %r{^/foo/(\d+)#{PARAM}}i.freeze
HEADER = %r{(?:;#{HEADER_PARAM})*}.freeze
m = x =~ /ab+c/i ? $~[1] : $" + $/ + $-w
case y
when /a#b/ then 1
when %r!x! then 2
end
sym = [:sym, :"quoted #{sym}", :'single', :empty?, :save!, :name=, :@iv, :$gv]
ops = [:+, :[]=, :<=>, :==, :!, :-@, :`]
h = { key: 1, "k" => :v, if: 2, class: 3 }
c = [?a, ?", ?\n, ?\C-a, ?\u{1F600}, ?é]
t = cond ? a : b
n = x.empty? ? 1 : 2
d = 10 / 2 / 1 + total % 3 - a.size / b
e = (a) / 2 + arr[0] / 3 + Foo / 4
puts /regex/
puts %w[arg]
p ?x
o = `ls #{dir}`
z = 1_000 + 0x1F + 0b101 + 1.5e-3 + 3r + 2i + 1..5
def `(cmd) = cmd
def /(other) = other
@a = @@b = $c = 1
x = y \
  / 2
=begin
block comment
"unterminated
=end
v = 1 # trailing "comment
__END__
@@ index
<h1>Hello, #{name}</h1> it's data
