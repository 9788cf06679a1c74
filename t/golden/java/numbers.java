class Numbers {
    int a = 0, b = 123, c = 1_000_000, d = 0x7fff_ffff, e = 0XCAFE, f = 0b1010_1010, g = 0B1;
    int h = 0777, i = 0_7, j = 00;
    long k = 1L, l = 0xFFl, m = 0b1L, n = 9_223_372_036_854_775_807L;
    float o = 1f, p = 1.5F, q = .5f, r = 1e10f, s = 3.4028235e+38f;
    double t = 1d, u = 1.5D, v = 1., w = .5, x = 1e-5, y = 1E+5d, z = 1_0.2_5e1_0;
    double hex1 = 0x1.8p3d, hex2 = 0x1p-2, hex3 = 0X.8P0f, hex4 = 0x1.fffffffffffffP+1023, hex5 = 0xAp0;
    Object dots = a.b, more = 1 .toString();
}
