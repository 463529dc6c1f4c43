import { useState } from 'react';
import type { TagGroup, TagWrites } from '../api/tags';
import { GroupCard } from './group-card';
import { MergeDialog } from './merge-dialog';

/** Groups in their sort order, reorderable by drag and drop or by the arrow buttons. */
export function GroupBoard({
  groups,
  writes,
  onShowTags,
}: {
  groups: TagGroup[];
  writes: TagWrites;
  onShowTags(groupId: string): void;
}) {
  const real = groups.filter((g) => g.id !== null).sort((a, b) => a.sort_order - b.sort_order);
  const virtual = groups.filter((g) => g.id === null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [merging, setMerging] = useState<TagGroup | null>(null);

  const saveOrder = (ids: string[]) => writes.reorder.mutate(ids.map((id, i) => ({ id, sort_order: i })));
  const move = (id: string, beforeId: string | null) => {
    const ids = real.map((g) => g.id!).filter((x) => x !== id);
    const at = beforeId === null ? ids.length : ids.indexOf(beforeId);
    ids.splice(at < 0 ? ids.length : at, 0, id);
    saveOrder(ids);
  };
  const shift = (id: string, delta: number) => {
    const ids = real.map((g) => g.id!);
    const i = ids.indexOf(id);
    const j = i + delta;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    saveOrder(ids);
  };

  return (
    <>
      <div className="board" data-testid="tag-board">
        {real.map((g, i) => (
          <div
            key={g.id}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData('text/plain', g.id!);
              e.dataTransfer.effectAllowed = 'move';
              setDragging(g.id);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(g.id);
            }}
            onDrop={(e) => {
              e.preventDefault();
              const id = e.dataTransfer.getData('text/plain') || dragging;
              setOver(null);
              if (id && id !== g.id) move(id, g.id);
            }}
            className={[
              dragging === g.id ? 'dragging' : '',
              over === g.id && dragging !== g.id ? 'drop-target' : '',
            ].join(' ')}
          >
            <GroupCard
              group={g}
              writes={writes}
              onShowTags={() => onShowTags(g.id!)}
              onMerge={() => setMerging(g)}
              onUp={i > 0 ? () => shift(g.id!, -1) : undefined}
              onDown={i < real.length - 1 ? () => shift(g.id!, 1) : undefined}
            />
          </div>
        ))}
        {virtual.map((g) => (
          <GroupCard key="ungrouped" group={g} writes={writes} onShowTags={() => onShowTags('ungrouped')} />
        ))}
      </div>
      {merging && (
        <MergeDialog source={merging} groups={real} writes={writes} onClose={() => setMerging(null)} />
      )}
    </>
  );
}
