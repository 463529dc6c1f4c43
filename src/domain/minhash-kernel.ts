/**
 * The MinHash signature's inner loop in WebAssembly SIMD: the same 128 minimums as the scalar loop
 * in `works.ts` (murmur3's finalizer of each shingle hash xor each seed, unsigned minimum), four
 * seeds an instruction. The loop is the arithmetic of work linking (128 finalizers a shingle), and
 * V8 runs it about four times faster this way; the result is bit-identical, so signatures stored
 * before compare with new ones (a test holds both paths to the same answer on real texts).
 *
 * The module is assembled here from its instructions (no binary file, no build step). Where the
 * engine has no SIMD, `minhashKernel()` is null and the caller keeps the scalar loop.
 *
 * Memory (one 64 KiB page): the seeds at 0 (512 bytes), the signature written at 512 (512 bytes),
 * the shingle hashes from 1024 (at most MAX_HASHES).
 */

/** Shingle hashes one call takes: a text's distinct shingles are fewer than its words (5,000). */
export const MAX_HASHES = (65_536 - 1_024) / 4;

const SEEDS_AT = 0;
const SIGNATURE_AT = 512;
const HASHES_AT = 1_024;

const C1 = 0x85ebca6b;
const C2 = 0xc2b2ae35;

/* ---- encoding ----------------------------------------------------------------------------- */

/** unsigned LEB128 */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** signed LEB128 of a small non-negative constant (the only kind used here) */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

const lanes = (v: number): number[] => {
  const b = new Uint8Array(16);
  const view = new DataView(b.buffer);
  for (let i = 0; i < 4; i++) view.setUint32(i * 4, v, true);
  return [...b];
};

// instructions
const I32 = 0x7f;
const V128 = 0x7b;
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const tee = (l: number) => [0x22, l];
const i32 = (n: number) => [0x41, ...sleb(n)];
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const memarg = (alignLog2: number, offset: number) => [alignLog2, ...uleb(offset)];
const v128Load = (offset: number) => simd(0x00, ...memarg(4, offset));
const v128Load32Splat = simd(0x09, ...memarg(2, 0));
const v128Store = (offset: number) => simd(0x0b, ...memarg(4, offset));
const v128Const = (v: number) => simd(0x0c, ...lanes(v));
const v128Xor = simd(0x51);
const i32x4ShrU = simd(0xad);
const i32x4Mul = simd(0xb5);
const i32x4MinU = simd(0xb7);
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LT_U = 0x49;
const I32_GE_U = 0x4f;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const BR_IF = 0x0d;
const END = 0x0b;

// sig(n): locals
const N = 0; // param: hashes to read
const J = 1; // byte offset of the four seeds in hand (0, 16, ..., 496)
const P = 2; // address of the hash in hand
const STOP = 3; // address past the last hash
const SEED = 4;
const ACC = 5;
const X = 6;
const K1 = 7;
const K2 = 8;

/** x ^= x >>> s, on the local X */
const xorShift = (s: number) => [...get(X), ...get(X), ...i32(s), ...i32x4ShrU, ...v128Xor, ...set(X)];

const body: number[] = [
  ...vec([
    [3, I32],
    [5, V128],
  ]),
  ...v128Const(C1),
  ...set(K1),
  ...v128Const(C2),
  ...set(K2),
  // STOP = HASHES_AT + n * 4
  ...get(N),
  ...i32(2),
  I32_SHL,
  ...i32(HASHES_AT),
  I32_ADD,
  ...set(STOP),
  ...i32(0),
  ...set(J),
  ...LOOP,
  /**/ ...get(J),
  /**/ ...v128Load(SEEDS_AT),
  /**/ ...set(SEED),
  /**/ ...v128Const(0xffffffff),
  /**/ ...set(ACC),
  /**/ ...i32(HASHES_AT),
  /**/ ...set(P),
  /**/ ...BLOCK,
  /*    */ ...get(P),
  /*    */ ...get(STOP),
  /*    */ I32_GE_U,
  /*    */ BR_IF,
  /*    */ 0,
  /*    */ ...LOOP,
  /*        x = fmix(hash ^ seed), four seeds at once */
  /*        */ ...get(P),
  /*        */ ...v128Load32Splat,
  /*        */ ...get(SEED),
  /*        */ ...v128Xor,
  /*        */ ...set(X),
  /*        */ ...xorShift(16),
  /*        */ ...get(X),
  /*        */ ...get(K1),
  /*        */ ...i32x4Mul,
  /*        */ ...set(X),
  /*        */ ...xorShift(13),
  /*        */ ...get(X),
  /*        */ ...get(K2),
  /*        */ ...i32x4Mul,
  /*        */ ...set(X),
  /*        */ ...xorShift(16),
  /*        acc = min(acc, x), unsigned */
  /*        */ ...get(ACC),
  /*        */ ...get(X),
  /*        */ ...i32x4MinU,
  /*        */ ...set(ACC),
  /*        */ ...get(P),
  /*        */ ...i32(4),
  /*        */ I32_ADD,
  /*        */ ...tee(P),
  /*        */ ...get(STOP),
  /*        */ I32_LT_U,
  /*        */ BR_IF,
  /*        */ 0,
  /*    */ END,
  /**/ END,
  /**/ ...get(J),
  /**/ ...get(ACC),
  /**/ ...v128Store(SIGNATURE_AT),
  /**/ ...get(J),
  /**/ ...i32(16),
  /**/ I32_ADD,
  /**/ ...tee(J),
  /**/ ...i32(SIGNATURE_AT - SEEDS_AT),
  /**/ I32_LT_U,
  /**/ BR_IF,
  /**/ 0,
  END,
  END,
];

/** The module's bytes: one function `sig(n)` and one page of memory, both exported. */
export function kernelModuleBytes(): Uint8Array<ArrayBuffer> {
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32]]), ...vec([])]])), // type 0: (i32) -> ()
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(5, vec([[0x00, 1]])), // one memory, one page
    ...section(
      7,
      vec([
        [...name('mem'), 0x02, 0],
        [...name('sig'), 0x00, 0],
      ]),
    ),
    ...section(10, vec([[...uleb(body.length), ...body]])),
  ]);
}

export interface MinhashKernel {
  /** The signature of these hashes (at most MAX_HASHES) under the seeds the kernel was made with. */
  signature(hashes: ArrayLike<number>): Uint32Array;
}

/** A kernel for these seeds (the signature's length is seeds.length, 128), or null without SIMD. */
export function minhashKernel(seeds: Uint32Array): MinhashKernel | null {
  if (seeds.length * 4 !== SIGNATURE_AT - SEEDS_AT) throw new Error('minhash kernel: 128 seeds');
  const bytes = kernelModuleBytes();
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return null;
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  const memory = instance.exports.mem as WebAssembly.Memory;
  const sig = instance.exports.sig as (n: number) => void;
  new Uint32Array(memory.buffer, SEEDS_AT, seeds.length).set(seeds);
  const input = new Uint32Array(memory.buffer, HASHES_AT, MAX_HASHES);
  const output = new Uint32Array(memory.buffer, SIGNATURE_AT, seeds.length);
  return {
    signature(hashes) {
      if (hashes.length > MAX_HASHES) throw new RangeError(`minhash kernel: ${hashes.length} hashes`);
      input.set(hashes);
      sig(hashes.length);
      return output.slice();
    },
  };
}
