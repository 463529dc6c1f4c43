import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useHotkeys } from '../../../lib/keyboard';
import type { Article } from '../api/articles';

interface Options {
  items: Article[];
  hrefOf(a: Article): string;
  signedIn: boolean;
  /** changes with the page's content: a new page, sort or filter */
  resetKey: string;
  onFavorite(a: Article): void;
  onRead(a: Article): void;
  /** a guest pressed f or m: they are told to sign in */
  onGuest(): void;
  /** j past the last card / k before the first: go to the next or previous page, if any */
  onPageEdge(direction: 1 | -1): boolean;
}

function focusCard(i: number) {
  const link = document.querySelectorAll<HTMLAnchorElement>('[data-testid="article-link"]')[i];
  link?.focus();
  link?.closest('article')?.scrollIntoView({ block: 'nearest' });
}

/**
 * j/k move a selection over the cards (the card's title link takes the focus, so it is visible and
 * Enter opens it), o opens the selection, f and m toggle its favorite and read state (a guest is
 * told to sign in instead).
 */
export function useListKeys({
  items,
  hrefOf,
  signedIn,
  resetKey,
  onFavorite,
  onRead,
  onGuest,
  onPageEdge,
}: Options) {
  const navigate = useNavigate();
  const [selected, setSelected] = useState(-1);
  const edge = useRef<1 | -1 | 0>(0);

  useEffect(() => {
    // after paging with j/k the selection continues on the new page's first (or last) card
    const i = edge.current === 1 ? 0 : edge.current === -1 ? items.length - 1 : -1;
    edge.current = 0;
    setSelected(i);
    if (i >= 0) focusCard(i);
    // only a new page resets the selection, not a refetch of the same one
    // (items is read at that moment on purpose)
  }, [resetKey]);

  // a card reached with Tab or the mouse counts as the selection too
  const focused = () => {
    const card = document.activeElement?.closest('article[data-article-id]');
    const i = card ? items.findIndex((a) => a.id === card.getAttribute('data-article-id')) : -1;
    return i >= 0 ? i : selected;
  };
  const select = (i: number) => {
    setSelected(i);
    focusCard(i);
  };
  const move = (d: 1 | -1) => {
    if (items.length === 0) return;
    const from = focused();
    const next = from + d;
    if (from < 0) select(0);
    else if (next >= 0 && next < items.length) select(next);
    else if (onPageEdge(d)) edge.current = d;
  };
  const current = () => items[focused()];
  const open = () => {
    const a = current();
    if (a) void navigate(hrefOf(a));
  };

  useHotkeys({
    j: () => move(1),
    k: () => move(-1),
    o: open,
    Enter: open,
    f: () => {
      const a = current();
      if (!signedIn) onGuest();
      else if (a) onFavorite(a);
    },
    m: () => {
      const a = current();
      if (!signedIn) onGuest();
      else if (a) onRead(a);
    },
  });
  return selected;
}
