# frozen_string_literal: true
=begin
A stack, with a block comment.
=end
class Stack
  attr_reader :items

  def initialize(*items) = @items = items

  def push(x)
    @items << x unless x.nil?
    self
  end

  def empty? = @items.empty?
  def pop! ; @items.pop ; end
  def ok?(n) = n != 0 && n <=> 1
end

s = Stack.new(1, 2.5, 1e-3, 0xff)
s.push("it's #{s.items.size}").push('a\'b')
$stderr.puts `date` if s&.items&.any? { |i| i =~ /x/ }
half = s.items.size / 2 / 1
(1..10).each_slice(3) { |a, b| h = { key: a, "k" => b } }
