import { useCallback, useState } from 'react';
import type { TagRow } from '../api/tags';

/**
 * The selected tags (kept across pages, with their rows so the bulk actions can name them), the
 * anchor of a Shift range, and the page-wide toggle.
 */
export function useSelection() {
  const [selected, setSelected] = useState<Map<string, TagRow>>(new Map());
  const [anchor, setAnchor] = useState<number | null>(null);

  /** toggles row `i`; with `range`, sets every row between the anchor and `i` as `i` becomes */
  const toggle = useCallback(
    (rows: TagRow[], i: number, range: boolean) => {
      const row = rows[i];
      if (!row) return;
      setSelected((prev) => {
        const next = new Map(prev);
        const on = !prev.has(row.id);
        const [from, to] = range && anchor !== null ? [Math.min(anchor, i), Math.max(anchor, i)] : [i, i];
        for (let k = from; k <= to; k++) {
          const r = rows[k];
          if (!r) continue;
          if (on) next.set(r.id, r);
          else next.delete(r.id);
        }
        return next;
      });
      setAnchor(i);
    },
    [anchor],
  );

  const togglePage = useCallback((rows: TagRow[]) => {
    setSelected((prev) => {
      const next = new Map(prev);
      const all = rows.length > 0 && rows.every((r) => prev.has(r.id));
      for (const r of rows) {
        if (all) next.delete(r.id);
        else next.set(r.id, r);
      }
      return next;
    });
  }, []);

  const clear = useCallback(() => {
    setSelected(new Map());
    setAnchor(null);
  }, []);

  const remove = useCallback((ids: string[]) => {
    setSelected((prev) => {
      const next = new Map(prev);
      for (const id of ids) next.delete(id);
      return next;
    });
  }, []);

  return { selected, toggle, togglePage, clear, remove };
}
export type Selection = ReturnType<typeof useSelection>;
