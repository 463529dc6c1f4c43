import { defineMessages, type Translator } from '../../lib/i18n-core';

/** Strings of the catalog editing and provider test (namespace `catalog`). */
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
  keyMoves:
    'This address is on another host: the stored key is not sent there and is removed when you save. Type the key for the new address to keep one.',
  keyForNewAddress: 'Key for the new address',
};
const zhTW = {
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
  keyMoves:
    '此位址位於另一個主機：已儲存的金鑰不會傳送到那裡，儲存時將會移除。若要保留金鑰，請輸入新位址的金鑰。',
  keyForNewAddress: '新位址的金鑰',
};

export const catalogMessages = defineMessages('catalog', en, zhTW);
export type CatalogText = Translator<keyof typeof en>;
