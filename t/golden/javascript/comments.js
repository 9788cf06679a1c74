#!/usr/bin/env node
// line comment /* not a block */
/* block
   comment */ x = 1; /** doc */
/* unterminated-free */ y = 2; // end with CRLF next line
z = 3; /***/ /**/ w = #priv;
a # b
b #!c
