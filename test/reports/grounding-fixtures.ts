import { isTranslation } from '../helpers/report-env.js';
import { groundingReply, schemaOf, type ChatCall, type ChatReply } from '../peers/openai-peer.js';

/*
 * A week of three papers and a peer model whose report gets every kind of citation wrong: the
 * weekly report tests and the browser journey of a grounded report share them.
 */

/** ranked by citations, so the writer sees them as [1], [2], [3] */
export const PAPERS = [
  {
    title: 'Diamond magnetometry at room temperature',
    summary:
      'Sensitive magnetometers usually need cryogenics. Diamond magnetometry with an ensemble of colour ' +
      'centres reaches 3 pT sensitivity at room temperature.',
    citations: 30,
  },
  {
    title: 'Atom interferometers measure gravity in the field',
    summary:
      'Our atom interferometers measured gravity in the field for 14 days with a stability of 10 nGal.',
    citations: 20,
  },
  {
    title: 'Squeezed light for gravitational-wave detectors',
    summary: 'Injecting squeezed light reduced the shot noise of the LIGO detector by 6 dB across its band.',
    citations: 10,
  },
];

/** The writer's draft: the five cases, a partly supported sentence and a reversed claim. */
export const DRAFT = [
  // (a) correct; and one whose last words no source states (partial)
  'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1]. Diamond magnetometry ' +
    'reaches that sensitivity with colour centres, a first for the field [1].',
  '',
  '- Quantum computers broke RSA encryption this week [2].', // (b) in no source
  '- Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].', // (c) source 3's
  '- Quantum sensors will replace GPS by 2030 [7].', // (d) there is no [7]
  '- Atom interferometers measured gravity in the field for 30 days [2].', // (e) 14 in the source
  // the local pass lets this through (its words are all there); the model's judgement does not
  '- Sensitive magnetometers no longer need cryogenics [1].',
].join('\n');

/** What is stored once the draft is grounded, renumbered by first citation. */
export const DRAFT_GROUNDED = [
  'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1]. Diamond magnetometry ' +
    'reaches that sensitivity with colour centres, a first for the field [1].',
  '',
  '- Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].',
  '- Atom interferometers measured gravity in the field for 14 days [3].',
  '- Sensitive magnetometers usually need cryogenics [1].',
].join('\n');

/** the peer's translations of the grounded sentences (markers kept) */
const ZH: [string, string][] = [
  [
    'Diamond magnetometry reaches 3 pT sensitivity at room temperature',
    '鑽石磁力計在室溫下達到 3 pT 的靈敏度',
  ],
  [
    'Diamond magnetometry reaches that sensitivity with colour centres, a first for the field',
    '鑽石磁力計靠色心達到這個靈敏度，為該領域首見',
  ],
  [
    'Squeezed light reduced the shot noise of the LIGO detector by 6 dB',
    '壓縮光使 LIGO 偵測器的散粒雜訊降低 6 dB',
  ],
  ['Atom interferometers measured gravity in the field for 14 days', '原子干涉儀在野外連續 14 天測量重力'],
  ['Sensitive magnetometers usually need cryogenics', '高靈敏度磁力計通常需要低溫冷卻'],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The peer model: writes DRAFT, judges and revises from the text it is given, translates. */
export function quantumModel(overrides: { judge?: (call: ChatCall) => ChatReply } = {}) {
  return (call: ChatCall): ChatReply => {
    if (isTranslation(call)) {
      let zh = (JSON.parse(call.messages[1]!.content) as { summary_text: string }).summary_text;
      for (const [en, t] of ZH) zh = zh.replace(new RegExp(`${escape(en)}( \\[\\d+\\])\\.`, 'g'), `${t}$1。`);
      return JSON.stringify({ title: '本週量子感測', summary_text: zh });
    }
    if (schemaOf(call) === 'citation_judgements' && overrides.judge) return overrides.judge(call);
    return (
      groundingReply(call) ?? JSON.stringify({ title: 'Quantum sensing this week', summary_text: DRAFT })
    );
  };
}
