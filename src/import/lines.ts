/** Splits a byte stream into text lines (LF or CRLF), decoding each complete line, so UTF-8 never splits. */

export interface Line {
  /** 1-based line number. */
  number: number;
  text: string;
}

const LF = 0x0a;
const CR = 0x0d;

function decode(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
  return bytes.toString('utf8', 0, end);
}

export async function* readLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Line> {
  let number = 0;
  let carry: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, nl);
      const bytes = carry.length === 0 ? piece : Buffer.concat([...carry, piece]);
      carry = [];
      number++;
      yield { number, text: decode(bytes) };
      start = nl + 1;
    }
    if (start < chunk.length) carry.push(chunk.subarray(start));
  }
  if (carry.length > 0) {
    number++;
    yield { number, text: decode(Buffer.concat(carry)) };
  }
}
