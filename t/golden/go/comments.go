// Package doc comment.
package main /* inline */ import "fmt"

/*
Block comment spanning lines, with // inside and a "quote"
*/
func main() { fmt.Println("hi") } // trailing
/* unterminated block comment
runs to the end
