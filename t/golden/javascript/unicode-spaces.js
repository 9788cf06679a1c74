// U+00A0 before a name (express had " console.log"), U+3000, U+200A, U+1680, U+202F, U+205F
var a　= b + c d ;
  console.log(a)
// U+2028 and U+2029 end a line, a line comment and a regular expression
x = /re/g y = 1 z = 2 // to here w
r = a / b / c
// U+FEFF anywhere; letters beyond ASCII stay in names, those that share a lead byte too
y = 1 ﻿+ été + ªⁱあＡ
`a ${ b　} c`; class K { #ªx; m() { return this.#ªx } }
n = 1 + 0x1 + x\u0061 ;
t = /a / 2
