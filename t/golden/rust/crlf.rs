fn main() {
    // crlf
    let s = "a
b"; /* c
 */ let r = r"x
";
}
