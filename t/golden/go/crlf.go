package main

// crlf comment
var s = `raw
lines`
var t = "x" /* c
 */
