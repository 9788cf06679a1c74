let z = "never closed
fn x() {}
