import { describe, expect, it } from 'vitest';
import { contentWords, detectLanguage, extractiveSummary, keywordTags } from '../shared/text/plain-text.js';
import { OfflineAnalyzer } from './offline-analyzer.js';

describe('the built-in analyzer', () => {
  it('guesses the language from scripts and stop words', () => {
    expect(detectLanguage('The model is trained on a large corpus of protein sequences and it works.')).toBe(
      'en',
    );
    expect(detectLanguage('Die Ergebnisse zeigen, dass das Modell mit den Daten nicht schneller ist.')).toBe(
      'de',
    );
    expect(detectLanguage('Les résultats montrent que le modèle est plus rapide pour les données.')).toBe(
      'fr',
    );
    expect(detectLanguage('研究人員提出了一種新的蛋白質結構預測方法。')).toBe('zh');
    expect(detectLanguage('研究者たちは新しいタンパク質の構造予測の方法を提案した。')).toBe('ja');
  });

  it('summarizes by the sentences that carry the most frequent content words, in their order', () => {
    const text =
      'Protein folding models predict structures from sequences. The weather was nice that day. ' +
      'Sparse attention makes protein folding models faster on long sequences. Lunch was served at noon. ' +
      'Folding accuracy of protein models stays the same with sparse attention.';
    const summary = extractiveSummary(text, 2);
    expect(summary.split('. ')).toHaveLength(2);
    expect(summary).not.toContain('weather');
    expect(summary).not.toContain('Lunch');
    expect(summary.indexOf('Protein folding models predict')).toBe(0);
  });

  it('tags by keywords, favouring the title', () => {
    expect(
      keywordTags(
        'Graph transformers for molecules',
        'We train graph models on molecules. Graph data is sparse.',
        3,
      ),
    ).toEqual(['graph', 'molecules', 'transformers']);
  });

  it('answers summary, tags and language with no model at all', async () => {
    const out = await new OfflineAnalyzer().analyze({
      articleId: 'a',
      runId: 'r',
      title: 'Quantum error correction milestone',
      text: 'A team demonstrated quantum error correction below threshold. Logical qubits lived longer than physical ones.',
      language: null,
    });
    expect(out.language).toBe('en');
    expect(out.summary).toContain('quantum error correction');
    expect(out.tags).toContain('quantum');
  });

  it('never repeats the title in the summary', () => {
    const title = 'Sparse attention speeds up protein folding';
    // feeds often run the title into the text, or repeat it as the first sentence
    const repeated = `${title}. Sparse attention speeds up protein folding! The method cuts memory by half on long chains. Accuracy on CASP targets is unchanged.`;
    const summary = extractiveSummary(repeated, { title });
    expect(summary.toLowerCase()).not.toContain('speeds up protein folding');
    expect(summary).toContain('cuts memory by half');
    const runIn = `${title} The method cuts memory by half on long chains.`;
    expect(extractiveSummary(runIn, { title })).toBe('The method cuts memory by half on long chains.');
    // nothing but the title: no summary at all
    expect(extractiveSummary(title, { title })).toBe('');
  });

  it('picks sentences by the scoring rule: frequent content words, lead bonus, fragments penalised', () => {
    const text =
      'Graphene sensors detect gas leaks early. Click here. Graphene sensors cost little and graphene ' +
      'films are thin. The weather was fine. Gas leaks in mines are detected by graphene sensors within seconds.';
    const summary = extractiveSummary(text, { title: 'Cheap gas detection', maxSentences: 2 });
    expect(summary).not.toContain('Click here');
    expect(summary).not.toContain('weather');
    expect(summary.startsWith('Graphene sensors detect gas leaks early.')).toBe(true);
  });

  it('answers plain text without entities or tags', async () => {
    const out = await new OfflineAnalyzer().analyze({
      articleId: 'a',
      runId: 'r',
      title: 'Cats &amp; dogs',
      text: 'Cats &amp; dogs share homes&#8230; <b>Owners</b> report fewer conflicts&nbsp;than expected. Dogs &lt;3 cats.',
      language: 'en',
    });
    expect(out.summary).not.toMatch(/&[#a-z0-9]+;|<\/?b>/i);
    expect(out.summary).toContain('Owners report fewer conflicts than expected.');
    expect(out.tags.join(' ')).not.toMatch(/&|;|</);
  });

  it('leaves English stop words out of tags and segments Chinese with Intl.Segmenter', () => {
    const tags = keywordTags(
      'What works against malaria',
      'Against malaria what works: bed nets and vaccines against malaria.',
    );
    expect(tags).toContain('malaria');
    for (const stop of ['what', 'against', 'works', 'and']) expect(tags).not.toContain(stop);
    const zh = keywordTags(
      '蛋白質結構預測的新方法',
      '研究人員提出了一種蛋白質結構預測的新方法，預測速度更快。',
    );
    expect(zh).toContain('蛋白質');
    expect(zh).toContain('預測');
    expect(zh).not.toContain('蛋白質結構預測的新方法');
    expect(zh.every((t) => [...t].length <= 4)).toBe(true);
    expect(contentWords('我們提出一種方法')).toEqual([]);
  });
});
