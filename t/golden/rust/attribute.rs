#![allow(unused)]
fn main() {}
