struct S<'a, 'static_ref: 'a> { r: &'a str, s: &'static str }
fn f<'a>(x: &'a u8) -> char {
    let cs = ['a', '\n', '\'', '"', '\\', '\u{1F600}', '\x41', 'é', '世', ' '];
    'outer: loop { break 'outer; }
    let lt = 'a ;
    let ch = 'a';
    '1'
}
impl<'de> Deserialize<'de> for T {}
