const a = `plain`;
const b = `one ${x} two ${y + 1} three`;
const c = `outer ${ `inner ${ `deepest ${z}` } back` } end`;
const d = `braces ${ {k: {v: 1}}.k.v } and ${ f({a: '}'}) }`;
const e = `strings ${"}"} ${'`'} ${`}`} done`;
const f = `comment ${ /* } ` */ 1 } and regex ${ s.replace(/[`}]/g, "") }`;
const g = `escapes \` \${not} \\${real}`;
const h = `multi
line ${
  value
} text`;
const i = tag`tagged ${x}`.length / 2;
const j = `$ {not} $${money} {}`;
