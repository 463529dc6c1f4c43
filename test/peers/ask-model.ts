import type { ChatCall } from './openai-peer.js';

/**
 * A deterministic model for POST /ask, written apart from the service's code: it reads the
 * numbered passages and the question from the prompt as any model would, takes the passage that
 * holds most of the question's words, and answers with that passage's best sentence and its
 * number. When no passage holds at least `minShare` of the question's words it answers NO_ANSWER.
 * `stray` adds a sentence citing a number that was never listed (a model's typical slip), which
 * the service must drop.
 */
export interface PassageModelOptions {
  minShare?: number;
  stray?: boolean;
}

interface PromptPassage {
  n: number;
  title: string;
  text: string;
}

const STOP = new Set(
  (
    'what which who whom whose when where why how did does do is are was were the a an of to in on at for ' +
    'by with from and or that this these those about according after before into over under his her its ' +
    'their they he she it as be been has have had many much most more say says said tell'
  ).split(' '),
);
const HAN_FUNCTION =
  /[的了是在有什麼哪誰嗎呢何為如些個這那與和及於對被把也都就還會能可以篇則該其中之而請問多少幾時候怎樣]/u;

/** lower-case words of 3+ letters (crudely singular) and Chinese character pairs */
function tokens(text: string): Set<string> {
  const out = new Set<string>();
  const spaced = text.normalize('NFKC').replace(/\p{Script=Han}+/gu, ' $& ');
  for (const w of spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Han}/u.test(w)) {
      const chars = [...w];
      for (let i = 0; i + 1 < chars.length; i++)
        if (!HAN_FUNCTION.test(chars[i]!) && !HAN_FUNCTION.test(chars[i + 1]!))
          out.add(chars[i]! + chars[i + 1]!);
    } else if ((w.length >= 3 || /\d/.test(w)) && !STOP.has(w)) out.add(w.replace(/(es|s)$/, ''));
  }
  return out;
}

export function parseAskPrompt(call: ChatCall): { passages: PromptPassage[]; question: string; zh: boolean } {
  const user = call.messages.find((m) => m.role === 'user')?.content ?? '';
  const system = call.messages.find((m) => m.role === 'system')?.content ?? '';
  const question = /\nQuestion: ([\s\S]*)$/.exec(user)?.[1]?.trim() ?? '';
  const passages: PromptPassage[] = [];
  for (const block of user.split(/\n\n(?=\[\d+\] )/)) {
    const m = /^(?:Passages:\n\n)?\[(\d+)\] ([^\n]*)\n([\s\S]*?)(?:\n\nQuestion: [\s\S]*)?$/.exec(block);
    if (m) passages.push({ n: Number(m[1]), title: m[2]!, text: m[3]! });
  }
  return { passages, question, zh: /Traditional Chinese/.test(system) };
}

export function passageModel(opts: PassageModelOptions = {}) {
  const minShare = opts.minShare ?? 0.5;
  return (call: ChatCall): string => {
    const { passages, question, zh } = parseAskPrompt(call);
    const asked = tokens(question);
    if (!asked.size) return 'NO_ANSWER';
    let best: { p: PromptPassage; share: number } | null = null;
    for (const p of passages) {
      const have = tokens(`${p.title} ${p.text}`);
      const share = [...asked].filter((t) => have.has(t)).length / asked.size;
      if (!best || share > best.share) best = { p, share };
    }
    if (!best || best.share < minShare) return 'NO_ANSWER';
    const sentences = best.p.text.split(/(?<=[.!?])\s+|(?<=[。！？])|\n/u).filter((s) => s.trim());
    const pool =
      zh && sentences.some((s) => /\p{Script=Han}/u.test(s))
        ? sentences.filter((s) => /\p{Script=Han}/u.test(s))
        : sentences;
    let sentence = pool[0] ?? best.p.text;
    let most = -1;
    for (const s of pool) {
      const have = tokens(s);
      const n = [...asked].filter((t) => have.has(t)).length;
      if (n > most) {
        most = n;
        sentence = s;
      }
    }
    const bare = sentence.trim().replace(/[.!?。！？]$/u, '');
    const stop = zh ? '。' : '.';
    const answer = `${bare} [${best.p.n}]${stop}`;
    return opts.stray
      ? `${answer} Independent reviewers confirmed this in 42 separate trials [${passages.length + 3}]${stop}`
      : answer;
  };
}
