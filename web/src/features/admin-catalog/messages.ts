import { useI18n } from '../../lib/i18n';

/** Strings of the catalog editing and provider test (issue 18). */
const en = {
  edit: 'Edit',
  save: 'Save',
  cancel: 'Cancel',
  actions: 'Actions',
  editing: 'Edit {name}',
  test: 'Test',
  testing: 'Testing…',
  testOk: 'OK: {model} answered in {ms} ms',
  testFailed: 'Failed ({model}, {ms} ms): {error}',
  keyUnchanged: 'Leave empty to keep the current key',
  keyNone: 'No key stored',
  clearKey: 'Remove the stored key',
};
const zhTW: typeof en = {
  edit: '編輯',
  save: '儲存',
  cancel: '取消',
  actions: '操作',
  editing: '編輯 {name}',
  test: '測試',
  testing: '測試中…',
  testOk: '成功：{model} 於 {ms} 毫秒內回應',
  testFailed: '失敗（{model}，{ms} 毫秒）：{error}',
  keyUnchanged: '留空則保留目前的金鑰',
  keyNone: '尚未儲存金鑰',
  clearKey: '移除已儲存的金鑰',
};

export type CatalogText = typeof en;
export function useCatalogText(): CatalogText {
  return useI18n().locale === 'zh-TW' ? zhTW : en;
}
export const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
