use std::collections::HashMap;
fn f(x: i32) -> i32 { match x { 0 => 1, 1..=9 => 2, _ => 3 } }
fn g() { a <<= 1; a >>= 2; a << b >> c; a += 1; a -= 1; a *= 2; a /= 2; a %= 2;
    a ^= 1; a &= 1; a |= 1; a && b || !c; a == b; a != b; a <= b; a >= b; a < -b;
    let v = &&x; let w = x?; let p = *ptr; let t = ..; let u = ...; }
macro_rules! m { ($x:expr, $($y:tt)*) => { $x } }
let r#match = r#type + r#fn; let r##x = 1;
#[derive(Debug)] struct A; #![allow(dead_code)]
let at = n @ 1..=5; ~x; 'x' as u8;
