import { describe, expect, it } from 'vitest';
import { renderReportEmail, renderReportTelegram, type ReportView } from './report-message.js';

const view = (o: Partial<ReportView> = {}): ReportView => ({
  title: 'Agents <b>plan</b>',
  summary_text: '## Highlights\n\n**Planning** improved [1].\n\n- one [2]\n- two',
  topicName: 'AI & Agents',
  weekStartDate: '2026-11-09',
  coverImageUrl: 'https://site.test/media/covers/t/2026-11-09.png',
  sources: [
    { id: 'a', title: 'Paper <A>', url: 'https://example.org/a?x=1&y=2' },
    { id: 'b', title: 'Paper B', url: 'javascript:alert(1)' },
  ],
  siteUrl: 'https://site.test',
  ...o,
});
const reader = { email: 'r@example.test', displayName: null, locale: 'en' as const };

describe('weekly report e-mail', () => {
  it('escapes model and feed text and links only web URLs', () => {
    const { html } = renderReportEmail(view(), reader);
    expect(html).toContain('Agents &lt;b&gt;plan&lt;/b&gt;');
    expect(html).not.toContain('<b>plan</b>');
    expect(html).toContain('AI &amp; Agents');
    expect(html).toContain('<strong>Planning</strong>');
    expect(html).toContain('href="https://example.org/a?x=1&amp;y=2"');
    expect(html).not.toContain('javascript:');
    expect(html).toMatch(/<ul[^>]*><li[^>]*>one \[2\]<\/li>/);
  });

  it('says after a source how many articles cover its work, in the reader’s language', () => {
    const covered = view({
      sources: [
        { id: 'a', title: 'Paper A', url: 'https://example.org/a', coverage: 3 },
        { id: 'b', title: 'Paper B', url: 'https://example.org/b', coverage: 0 },
      ],
    });
    const en = renderReportEmail(covered, reader);
    expect(en.html).toContain(
      'Paper A</a> <span class="source-coverage" style="color:#6b7280;">· covered by 3</span>',
    );
    expect(en.html.match(/source-coverage/g)).toHaveLength(1);
    expect(en.text).toContain('[1] Paper A · covered by 3 — https://example.org/a');
    expect(en.text).toContain('[2] Paper B — https://example.org/b');
    const zh = renderReportEmail(covered, { ...reader, locale: 'zh-TW' });
    expect(zh.html).toContain('· 3 篇報導');
    expect(renderReportTelegram(covered, 'zh-TW')).toContain('[1] Paper A · 3 篇報導\nhttps://example.org/a');
  });

  it('renders text-only without a cover', () => {
    const { html, text } = renderReportEmail(view({ coverImageUrl: null }), reader);
    expect(html).not.toContain('background-image');
    expect(html).toContain('class="report-box"');
    expect(text).toContain('Planning improved [1].');
    expect(text).toContain('• one [2]');
    expect(text).toContain('[1] Paper <A> — https://example.org/a?x=1&y=2');
  });
});

describe('weekly report Telegram message', () => {
  it('fits the 4096 character limit, keeping the call to action', () => {
    const long = renderReportTelegram(view({ summary_text: 'word [1] '.repeat(1000) }), 'zh-TW');
    expect(long.length).toBeLessThanOrEqual(4096);
    expect(long.endsWith('查看完整報告: https://site.test')).toBe(true);
    const short = renderReportTelegram(view(), 'en');
    expect(short).toContain('[1] Paper <A>\nhttps://example.org/a?x=1&y=2');
  });
});
