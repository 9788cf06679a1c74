#!
[allow(unused)]
fn main() {}
