export const View = (p: Props) => <span title={p.t}>{p.n / 2}</span>;
