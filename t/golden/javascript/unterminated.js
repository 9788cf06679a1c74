const s = "unterminated
const t = 'also
x = 1;
y = `template to the end ${ a + "b" }
still template
