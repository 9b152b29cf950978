// Counts in words ("1 file", "3 files"), so no message says "file(s)".

/** `n` and the noun in the number it takes: `count(1, 'file')` is "1 file", `count(2, 'file')` "2 files". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
