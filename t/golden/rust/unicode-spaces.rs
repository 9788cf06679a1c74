// rustc's white space: U+0085 U+200E U+200F U+2028 U+2029; U+00A0 and U+3000 are none
fnmain()‎{‏let x = 1;
	// a comment runs on past U+2028  to its LF
	let y = été　+ 'a+ r#x‎;
}
