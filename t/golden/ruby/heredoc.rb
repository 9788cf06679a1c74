# Heredocs: the marker is a token where it stands, the body one more.
a = <<~EOS
  Hello "world
  it's #{name} here
EOS
b = <<-'RAW'.strip + x
    raw #{not interpolated}
    RAW
c = <<PLAIN
  EOS inside, not the end
PLAIN
foo(<<~ONE, <<~"TWO") { |x| x / 2 }
  one's body
ONE
  two "body"
  TWO
puts <<~MSG if ok
  a # not a comment
MSG
shift = x <<y
append = list << item
class <<self
  def it; end
end
empty = <<~E
E
open = <<~NEVER
  runs to the end of the file
