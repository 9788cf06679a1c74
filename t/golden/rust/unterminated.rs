let s = "unterminated
string";
let c = '\u{41
let r = r#"raw to the end
