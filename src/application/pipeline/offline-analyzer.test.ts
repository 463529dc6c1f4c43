import { describe, expect, it } from 'vitest';
import { OfflineAnalyzer, detectLanguage, extractiveSummary, keywordTags } from './offline-analyzer.js';

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
});
