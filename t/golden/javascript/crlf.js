const s = "a\
b";
let t = 1; // crlf comment
/* block
 */ u = `x
y`;
