import { useI18n } from '../../lib/i18n';

/** Strings of the sources part of the catalog page (issue 18): preview, discovery, history, fetch now. */
const en = {
  url: 'Site or feed address',
  name: 'Name',
  namePlaceholder: "Default: the feed's title",
  interval: 'Fetch interval (minutes)',
  intervalCol: 'Interval',
  every: 'every {n}',
  lastFetch: 'Last fetch',
  nextFetch: 'Next fetch',
  neverFetched: 'Never fetched',
  atNextRun: 'At the next scheduled run',
  dueNow: 'Due at the next scheduled run',
  check: 'Check',
  checking: 'Checking…',
  add: 'Add source',
  addTitle: 'Add a source',
  saveAnyway: 'Save anyway (an intranet feed that is down for now); it is read again at every fetch',
  feedFound: 'Feed found: {title}',
  feedFormat: 'Format',
  items: '{n} items',
  newest: 'Newest item: ',
  published: 'published {date}',
  noDate: 'no date',
  foundThrough: 'Found on the page “{page}”',
  pickOne: 'This page links to {n} feeds. Pick one:',
  use: 'Use this feed',
  untitled: 'Untitled feed',
  notAFeed: 'Not a feed: ',
  notAFeedSaved: 'This address is not a feed, so it was not saved. Check it, or tick “Save anyway”.',
  badInterval: 'The fetch interval must be a whole number of minutes from 5 to 10080 (a week).',
  httpLine: 'HTTP {status}',
  counts: '{new} new · {dup} duplicates',
  seen: '{n} items read',
  notModified: 'Not modified since the last fetch',
  pending: 'Counting…',
  fetchNow: 'Fetch now',
  fetching: 'Fetching…',
  fetchDone: 'Fetched',
  fetchFailed: 'The run failed: {error}',
  history: 'History',
  hideHistory: 'Hide history',
  historyTitle: 'Last 20 fetches of {name}',
  historyEmpty: 'No fetch yet. Use “Fetch now” or wait for the next scheduled run.',
  colStarted: 'Started',
  colDuration: 'Duration',
  colHttp: 'HTTP',
  colSeen: 'Read',
  colNew: 'New',
  colDup: 'Duplicates',
  colResult: 'Result',
  ok: 'OK',
  ms: '{n} ms',
  minutes: '{n} min',
  hours: '{n} h',
  days: '{n} d',
  'problem.http_status': 'The server answered HTTP {status}{meaning}.',
  'problem.timeout': 'The server did not answer in time.',
  'problem.too_large': 'The document is larger than the size limit.',
  'problem.redirects': 'Too many redirects, or a redirect without a target.',
  'problem.network': 'The server could not be reached (name, connection or certificate).',
  'problem.refused':
    'The address was refused: it points into a private network (allow it with FETCH_ALLOWED_HOSTS).',
  'problem.not_a_feed': 'This is not an RSS, Atom or JSON feed.',
  'problem.malformed': 'The feed is malformed.',
  'problem.malformed_line': 'The feed is malformed at line {line}.',
  'problem.no_feed_found': 'This web page links to no feed.',
  'problem.unknown': 'The feed could not be read.',
  'status.401': ': the feed needs a login',
  'status.403': ': the server refuses us',
  'status.404': ': the address does not exist (any more)',
  'status.410': ': the feed was removed',
  'status.429': ': too many requests, try later',
  'status.5xx': ': the server failed',
  'format.rss': 'RSS 2.0',
  'format.rdf': 'RSS 1.0 (RDF)',
  'format.atom': 'Atom',
  'format.json': 'JSON Feed',
};
const zhTW: typeof en = {
  url: '網站或訂閱源網址',
  name: '名稱',
  namePlaceholder: '預設：訂閱源自身的標題',
  interval: '抓取間隔（分鐘）',
  intervalCol: '間隔',
  every: '每 {n}',
  lastFetch: '上次抓取',
  nextFetch: '下次抓取',
  neverFetched: '尚未抓取',
  atNextRun: '下一次排程執行時',
  dueNow: '下一次排程執行時抓取',
  check: '檢查',
  checking: '檢查中…',
  add: '新增來源',
  addTitle: '新增來源',
  saveAnyway: '仍然儲存（暫時無法連線的內部網路訂閱源）；每次抓取時會再讀取',
  feedFound: '找到訂閱源：{title}',
  feedFormat: '格式',
  items: '{n} 則項目',
  newest: '最新項目：',
  published: '發布於 {date}',
  noDate: '無日期',
  foundThrough: '在網頁「{page}」上找到',
  pickOne: '此網頁連結了 {n} 個訂閱源，請選擇一個：',
  use: '使用此訂閱源',
  untitled: '未命名的訂閱源',
  notAFeed: '不是訂閱源：',
  notAFeedSaved: '此網址不是訂閱源，因此未儲存。請先檢查，或勾選「仍然儲存」。',
  badInterval: '抓取間隔必須是 5 到 10080（一週）之間的整數分鐘。',
  httpLine: 'HTTP {status}',
  counts: '新增 {new} 則 · 重複 {dup} 則',
  seen: '讀取 {n} 則',
  notModified: '自上次抓取後沒有變更',
  pending: '統計中…',
  fetchNow: '立即抓取',
  fetching: '抓取中…',
  fetchDone: '已抓取',
  fetchFailed: '執行失敗：{error}',
  history: '紀錄',
  hideHistory: '隱藏紀錄',
  historyTitle: '{name} 最近 20 次抓取',
  historyEmpty: '尚未抓取。請按「立即抓取」或等待下一次排程執行。',
  colStarted: '開始時間',
  colDuration: '耗時',
  colHttp: 'HTTP',
  colSeen: '讀取',
  colNew: '新增',
  colDup: '重複',
  colResult: '結果',
  ok: '成功',
  ms: '{n} 毫秒',
  minutes: '{n} 分鐘',
  hours: '{n} 小時',
  days: '{n} 天',
  'problem.http_status': '伺服器回應 HTTP {status}{meaning}。',
  'problem.timeout': '伺服器未在時限內回應。',
  'problem.too_large': '文件超過大小上限。',
  'problem.redirects': '重新導向次數過多，或重新導向沒有目標。',
  'problem.network': '無法連線到伺服器（名稱解析、連線或憑證問題）。',
  'problem.refused': '此網址遭拒：它指向私有網路（可用 FETCH_ALLOWED_HOSTS 允許）。',
  'problem.not_a_feed': '這不是 RSS、Atom 或 JSON 訂閱源。',
  'problem.malformed': '訂閱源格式錯誤。',
  'problem.malformed_line': '訂閱源在第 {line} 行格式錯誤。',
  'problem.no_feed_found': '此網頁沒有連結任何訂閱源。',
  'problem.unknown': '無法讀取訂閱源。',
  'status.401': '：訂閱源需要登入',
  'status.403': '：伺服器拒絕存取',
  'status.404': '：網址不存在（或已移除）',
  'status.410': '：訂閱源已被移除',
  'status.429': '：請求過多，請稍後再試',
  'status.5xx': '：伺服器發生錯誤',
  'format.rss': 'RSS 2.0',
  'format.rdf': 'RSS 1.0 (RDF)',
  'format.atom': 'Atom',
  'format.json': 'JSON Feed',
};

export type SourceText = typeof en;
export function useSourceText(): SourceText {
  return useI18n().locale === 'zh-TW' ? zhTW : en;
}

export interface ProblemLike {
  code: string;
  http_status?: number | null;
  line?: number | null;
}

const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));

/** A fetch problem in plain words (the reader's own message is shown beside it). */
export function problemText(text: SourceText, p: ProblemLike): string {
  if (p.code === 'http_status' && p.http_status) {
    const s = p.http_status;
    const key = s >= 500 ? 'status.5xx' : (`status.${s}` as keyof SourceText);
    return fill(text['problem.http_status'], { status: s, meaning: key in text ? text[key] : '' });
  }
  if (p.code === 'malformed' && p.line) return fill(text['problem.malformed_line'], { line: p.line });
  const key = `problem.${p.code}` as keyof SourceText;
  return key in text ? text[key] : text['problem.unknown'];
}

/** An interval in its largest whole unit: 90 → "90 min", 120 → "2 h", 1440 → "1 d". */
export function intervalText(text: SourceText, minutes: number): string {
  if (minutes % 1440 === 0) return fill(text.days, { n: minutes / 1440 });
  if (minutes % 60 === 0) return fill(text.hours, { n: minutes / 60 });
  return fill(text.minutes, { n: minutes });
}

export { fill };
