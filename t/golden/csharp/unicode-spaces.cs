using System;
// white space: U+00A0, the other Zs (U+3000 U+2002), U+FEFF, the line breaks U+0085 U+2028 U+2029
class　C {
	int x = 1 + @if ;int y = 2; int z﻿= 3; 
	// a comment ends at U+0085int w; // and at U+2028 int v;
	string été = " "; // letters stay whole: ªⁱ
	int ªⁱあ;
}
