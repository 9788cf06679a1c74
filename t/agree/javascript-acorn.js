// Helper of t/agree/javascript.sh: tokenize each file named on stdin (one
// path a line) with acorn's tokenizer and write one JSON line per file:
//   {"f": PATH, "mode": "module"|"script", "t": [TOKEN_TEXT, ...]}
// or {"f": PATH, "err": MESSAGE} when acorn cannot tokenize it in either mode.
// TOKEN_TEXT is src.slice(tok.start, tok.end).  A template literal, which
// acorn gives as several tokens (` template ${ ...code... } template `), is
// reassembled into one span from its opening backquote to the matching
// closing one, nested templates included, since tokstream keeps a template
// literal as one token.
"use strict";
const fs = require("fs");
const path = require("path");
const acorn = require(path.join(process.argv[2], "node_modules", "acorn"));
const tt = acorn.tokTypes;

function tokens(src, sourceType) {
	const out = [];
	// Stack of what is open inside a template: "tpl" (template text) or a
	// substitution's open-brace count (a number).
	const stack = [];
	let spanStart = -1;
	const tk = acorn.tokenizer(src, {
		ecmaVersion: "latest", sourceType, allowHashBang: true, locations: false,
	});
	for (;;) {
		const tok = tk.getToken();
		if (tok.type === tt.eof)
			break;
		const top = stack.length ? stack[stack.length - 1] : null;
		if (top === "tpl") {
			// Inside template text: template chunks, ${ or the closing `.
			if (tok.type === tt.dollarBraceL) {
				stack.push(0);
			} else if (tok.type === tt.backQuote) {
				stack.pop();
				if (!stack.length) {
					out.push(src.slice(spanStart, tok.end));
					spanStart = -1;
				}
			}
			continue;
		}
		if (tok.type === tt.backQuote) {
			if (!stack.length)
				spanStart = tok.start;
			stack.push("tpl");
			continue;
		}
		if (top !== null) {
			// Code inside a substitution: only braces matter.
			if (tok.type === tt.braceL || tok.type === tt.dollarBraceL) {
				stack[stack.length - 1]++;
			} else if (tok.type === tt.braceR) {
				if (top === 0)
					stack.pop();   // closes the ${, back in template text
				else
					stack[stack.length - 1]--;
			}
			continue;
		}
		out.push(src.slice(tok.start, tok.end));
	}
	if (stack.length)
		throw new Error("unterminated template");
	return out;
}

const files = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const f of files) {
	const src = fs.readFileSync(f, "utf8");
	let rec = null, err = null;
	for (const mode of ["module", "script"]) {
		try {
			rec = { f, mode, t: tokens(src, mode) };
			break;
		} catch (e) {
			err = String(e.message || e);
		}
	}
	process.stdout.write(JSON.stringify(rec || { f, err }) + "\n");
}
