0 1 123 1_000_000 1.5 .5 5. 1e10 1E-7 1.5e+3 2n
0x1F 0XfF 0x_dead 0o17 0O7 0b1010 0B1_0 0xFFn 0b1n 123n
1..toString() 1.0.toFixed(2) 0.1+.2
