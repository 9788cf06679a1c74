#!/bin/sh
test_description='functions: where each function of a file begins and ends

What html'"'"'s function table and the report'"'"'s oldest functions count
(contrib/functions.c), checked through t/helper/test-functions, which
prints "NAME FIRST-LINE LAST-LINE TOKENS" for each: a Python function
runs by indentation past a signature that wraps, a C function with
old-style parameter declarations is one, a constructor'"'"'s member
initializers are not its body, and anonymous functions and Go
receivers name no function.'
. ./test-lib.sh

FUNCTIONS="$TEST_DIRECTORY/helper/test-functions"

test_expect_success 'python: a signature that wraps and closes at the def'"'"'s indentation' '
	cat >wrapped.py <<-\EOF &&
	def parametrize(
	    self,
	    argnames,
	    ids=None,
	) -> None:
	    x = 1
	    return x


	class C:
	    @property
	    def f(self, a=lambda y: y,
	    ) -> dict[str, int]:
	        return {
	"a": 1}

	    async def g(self):
	        pass
	EOF
	"$FUNCTIONS" wrapped.py >actual &&
	cat >expect <<-\EOF &&
	parametrize 1 7 19
	f 12 15 26
	g 17 18 6
	EOF
	test_cmp expect actual
'

test_expect_success 'python: comments, continuation lines and brackets left of the body do not end it' '
	cat >body.py <<-\EOF &&
	def f(a):
	    total = a + \
	1
	# a comment at the left edge
	    items = [
	2]
	    return total
	# after the function: not its

	def g(): return 1
	x = g()
	EOF
	"$FUNCTIONS" body.py >actual &&
	cat >expect <<-\EOF &&
	f 1 7 18
	g 10 10 6
	EOF
	test_cmp expect actual
'

test_expect_success 'C: old-style parameter declarations, wrapped parameters; no call or declaration' '
	cat >kr.c <<-\EOF &&
	int proto(int a);
	static int
	old(a, b)
		int a;
		char *b;
	{
		return a + *b;
	}
	MODULE_THING(x);
	DECLARE(y)
	int z;
	struct s {
		int m;
	};
	int
	wrapped(int a,
		int b)
	{
		return a - b;
	}
	EOF
	"$FUNCTIONS" kr.c >actual &&
	cat >expect <<-\EOF &&
	old 3 8 21
	wrapped 16 20 15
	EOF
	test_cmp expect actual
'

test_expect_success 'C++: the braces of member initializers are not the body' '
	cat >init.cc <<-\EOF &&
	Point::Point(int x, int y) : x_{x}, y_{y} {
		check();
	}
	int later(void) { return 1; }
	EOF
	"$FUNCTIONS" init.cc >actual &&
	cat >expect <<-\EOF &&
	Point 1 3 24
	later 4 4 9
	EOF
	test_cmp expect actual
'

test_expect_success 'JavaScript and Go: "function" and "func" name no function' '
	cat >a.js <<-\EOF &&
	(function () {
		function inner(a,
			b
		) {
			return a + b;
		}
		module.exports = function (x) { return inner(x, 1); };
	})();
	EOF
	cat >m.go <<-\EOF &&
	package p

	func (r *Reader) Read(p []byte) (n int, err error) {
		return 0, nil
	}
	EOF
	"$FUNCTIONS" a.js m.go >actual &&
	cat >expect <<-\EOF &&
	inner 2 6 13
	Read 3 5 20
	EOF
	test_cmp expect actual
'

test_expect_success 'ruby: a def runs to its own end; blocks, modifiers and loops counted as Ruby does' '
	cat >app.rb <<-\EOF &&
	class App
	  def self.run!(options = {}, &block)
	    return if running?
	    unless defined?(Handler)
	      warn <<~MSG
	        def not_a_function
	        end
	      MSG
	    end
	    %w[a b].each { |x| puts x }
	    items.map do |i|
	      i.end if i.begin
	    end
	    while x do x -= 1 end
	    begin; retry; end until done
	    y = if a then 1 else 2 end
	    set :bind, proc { development? ? 1 : 2 }
	  end
	  def ==(other) = other.class == self.class
	  def [](k)
	    @h[k]
	  end
	  def name=(v); @name = v; end
	  def valid?
	    css = { class: "x", if: 1 }
	  end
	  after_run { call }
	end
	__END__
	def data_not_code
	EOF
	"$FUNCTIONS" app.rb >actual &&
	cat >expect <<-\EOF &&
	run! 2 18 82
	== 19 19 12
	[] 20 22 9
	name= 23 23 10
	valid? 24 26 11
	EOF
	test_cmp expect actual
'

# converted_with REPO FILE: a repository REPO of one commit holding FILE, converted into REPO.git
converted_with () {
	git init -q "$1" &&
	cp "$2" "$1/" &&
	git -C "$1" add "$2" &&
	git -C "$1" commit -q -m "$2" &&
	"$TOKSTREAM" convert -q "$1" "$1.git"
}

test_expect_success 'ruby: -L :run! blames the def of run! to its end' '
	converted_with rb app.rb &&
	"$TOKSTREAM" blame -C rb.git --no-pager --color=never -L :run! app.rb >rbout &&
	sed -n "/^\$/q;p" rbout | sed "s/^.* \([0-9][0-9]*\)  .*/\1/" >numbers &&
	seq 2 18 >expect &&
	test_cmp expect numbers &&
	test_expect_code 128 "$TOKSTREAM" blame -C rb.git -L :not_a_function app.rb
'

test_expect_success 'html counts the tokens of a function whose signature wraps' '
	converted_with src wrapped.py &&
	"$TOKSTREAM" html -C src.git out &&
	grep -o "<tr><td>parametrize</td><td class=\"num\"><a href=\"#L1\">1</a></td><td class=\"num\">19</td>" out/wrapped.py.html
'

test_done
