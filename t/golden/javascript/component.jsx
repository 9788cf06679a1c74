// JSX: tags come out as punctuation and words; text between tags is not
// a token of its own (out of scope).
const el = <div className="box" onClick={() => go(1 / 2)}>{items.map(i => <Item key={i} />)}</div>;
