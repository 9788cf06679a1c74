fn n() {
    let a = [0, 1u32, 1_000_000i64, 0x_FF, 0xFFu8, 0o777, 0b1010_1010, 0b1u8];
    let f = [1.0, 1.0f64, 2.5e10, 1e-3, 1E+3f32, 6.02e23_f64, 1_000.000_1, 3f32];
    let r = 1..2; let i = 1..=2; let d = 1.max(2); let t = tup.0.1; let e = 1.;
    let g = x.0; let h = 2.0.sqrt();
}
