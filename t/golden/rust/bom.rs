#!/usr/bin/env rustx
fn main() {}
