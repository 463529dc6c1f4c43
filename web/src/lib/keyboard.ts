import { useLayoutEffect, useRef } from 'react';

/**
 * Single-key shortcuts (`j`, `?`, `Enter`) and two-key sequences (`g a`) on the window. They never
 * fire while the reader types (inputs, selects, text areas, editable content) or holds Ctrl, Alt
 * or Meta, and `Enter` is left to links and buttons that have the focus.
 */
export type Hotkeys = Record<string, (e: KeyboardEvent) => void>;

const SEQUENCE_MS = 1500;

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function isInteractive(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest('a, button, summary, [role="menuitemradio"]');
}

export function useHotkeys(keys: Hotkeys, enabled = true): void {
  // the latest handlers without re-subscribing on every render
  const ref = useRef(keys);
  ref.current = keys;
  // a layout effect: the keys listen from the commit that shows the page, so a key pressed the
  // moment a cached article appears is not lost to a passive effect React has not run yet
  useLayoutEffect(() => {
    if (!enabled) return;
    let pending: { key: string; at: number } | null = null;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || isTyping(e.target)) return;
      if (document.querySelector('dialog[open]') && e.key !== '?') return;
      const map = ref.current;
      if (pending && Date.now() - pending.at < SEQUENCE_MS) {
        const handler = map[`${pending.key} ${e.key}`];
        pending = null;
        if (handler) {
          e.preventDefault();
          handler(e);
          return;
        }
      }
      if (Object.keys(map).some((k) => k.startsWith(`${e.key} `))) {
        pending = { key: e.key, at: Date.now() };
        return;
      }
      if (e.key === 'Enter' && isInteractive(e.target)) return;
      const handler = map[e.key];
      if (handler) {
        e.preventDefault();
        handler(e);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
