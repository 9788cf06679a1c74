interface Box<T> { value: T; next?: Box<T> | null }
type Deep = Array<Array<Map<string, number>>>;
let m: Map<string, Array<number>> = new Map();
enum Color { Red = 1 << 0, Green = 1 << 1 }
function id<T extends object>(x: T): T { return x!; }
const n = (y as unknown as number) / 2;
@Component({ selector: "app" })
class C implements I { private readonly re = /<[^>]+>/g; #n = 0n; }
declare module "m" { export const v: `prefix-${string}`; }
let u = obj?.a!.b ?? def;
abstract class A { abstract f(): void; }
x satisfies Y;
