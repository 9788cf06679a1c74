package main

var s = "interpreted \"quoted\" \\ \n"
var r = `raw \n no escapes "here"
second line`
var runes = []rune{'a', '\n', '\'', '\\', '\x41', '\u12e4', '\U00101234', '世'}
var empty, bq = ``, "`"
var u = "unterminated
var after = 1
