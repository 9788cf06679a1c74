fn main() {
    let s = "plain \"escaped\" \\ \n";
    let m = "multi
line";
    let r = r"raw \n";
    let r1 = r#"raw with "quotes""#;
    let r3 = r###"has "# and "## inside"###;
    let b = b"bytes\x00";
    let br = br"raw bytes";
    let brh = br#"raw "bytes""#;
    let c = c"C string";
    let cr = cr#"raw C "string""#;
    let cr0 = cr"raw C";
    let bytes = [b'x', b'\n', b'\'', b'\\', b'\x7f'];
}
