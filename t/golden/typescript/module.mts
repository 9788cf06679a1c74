export type M = { a: number };
export const m: M = { a: 0x1_0 };
