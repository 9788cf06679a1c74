#!/usr/bin/env tclsh
# Count words; colours like #ff0000 are arguments, not comments.
namespace eval ::counter {
    variable total 0 ;# trailing comment after a semicolon
}
proc ::counter::add {word {n 1}} {
    variable total
    incr total $n
    puts "adding $word: [string length $word] chars\
          over two lines"
    return [expr {$total ** 2 >= 10 && $n != 0}]
}
label .l -fg #ff0000 -text \"quoted\"
foreach w {a b c} { ::counter::add $w }
set msg "unterminated
