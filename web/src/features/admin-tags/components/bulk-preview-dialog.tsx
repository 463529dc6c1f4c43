import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '../../../lib/dialog';
import { useI18n, useT } from '../../../lib/i18n';
import { ErrorState, errorMessage } from '../../../lib/ui';
import {
  previewMerge,
  previewMove,
  type MergeResult,
  type MoveResult,
  type TagRow,
  type TagWrites,
} from '../api/tags';
import { tagsMessages } from '../messages';

export type BulkAction =
  | { kind: 'merge'; sourceIds: string[]; targetId: string; targetName: string }
  | { kind: 'move'; tagIds: string[]; groupId: string | null; groupName: string };

interface Props {
  action: BulkAction;
  writes: TagWrites;
  onClose(): void;
  onDone(notice: string): void;
}

/**
 * The server's dry run of a bulk merge or move (links that move, duplicates dropped, tags that
 * disappear), then the same request for real once the admin confirms.
 */
export function BulkPreviewDialog({ action, writes, onClose, onDone }: Props) {
  const { t } = useT(tagsMessages);
  const common = useI18n().t;
  const preview = useQuery<MergeResult | MoveResult>({
    queryKey: ['tag-preview', action],
    gcTime: 0,
    queryFn: () =>
      action.kind === 'merge'
        ? previewMerge({ source_ids: action.sourceIds, target_id: action.targetId })
        : previewMove({ tag_ids: action.tagIds, tag_group_id: action.groupId }),
  });
  const write = action.kind === 'merge' ? writes.mergeTags : writes.moveTags;
  // an error of an earlier attempt is not this one's
  const { reset } = write;
  useEffect(() => reset(), [reset]);

  const confirm = () => {
    if (action.kind === 'merge') {
      writes.mergeTags.mutate(
        { source_ids: action.sourceIds, target_id: action.targetId },
        {
          onSuccess: (r) =>
            onDone(
              t('tags.done.merged', {
                name: r.target.name,
                count: r.removed.length + r.already_merged.length,
              }),
            ),
        },
      );
    } else {
      writes.moveTags.mutate(
        { tag_ids: action.tagIds, tag_group_id: action.groupId },
        {
          onSuccess: (r) =>
            onDone(
              t('tags.done.moved', {
                count: r.moved.length + r.merged.reduce((s, m) => s + m.removed.length, 0),
              }),
            ),
        },
      );
    }
  };
  const title =
    action.kind === 'merge'
      ? t('tags.preview.mergeTitle', { name: action.targetName })
      : t('tags.preview.moveTitle', { group: action.groupName });

  return (
    <Dialog
      title={title}
      onClose={onClose}
      className="tag-preview"
      testId="tag-preview"
      actions={
        <>
          <button
            type="button"
            className="primary"
            onClick={confirm}
            disabled={!preview.data || write.isPending}
            data-testid="tag-preview-confirm"
          >
            {action.kind === 'merge' ? t('tags.preview.confirmMerge') : t('tags.preview.confirmMove')}
          </button>
          <button type="button" onClick={onClose}>
            {t('tags.cancel')}
          </button>
        </>
      }
    >
      {preview.isLoading ? (
        <p role="status">{t('tags.preview.loading')}</p>
      ) : preview.isError ? (
        <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
      ) : preview.data && action.kind === 'merge' ? (
        <MergePreview result={preview.data as MergeResult} />
      ) : preview.data ? (
        <MovePreview result={preview.data as MoveResult} />
      ) : null}
      {write.error != null && (
        <p className="form-error" role="alert">
          {errorMessage(write.error, common('common.error'))}
        </p>
      )}
    </Dialog>
  );
}

function TagList({ tags, testId }: { tags: TagRow[]; testId: string }) {
  const { t } = useT(tagsMessages);
  return (
    <ul className="preview-tags" data-testid={testId}>
      {tags.map((x) => (
        <li key={x.id} data-tag-name={x.name}>
          <strong>{x.name}</strong>{' '}
          <small className="muted">
            ({x.group_name ?? t('tags.ungrouped')}, {t('tags.articles', { count: x.article_count })})
          </small>
        </li>
      ))}
    </ul>
  );
}

function MergePreview({ result: r }: { result: MergeResult }) {
  const { t } = useT(tagsMessages);
  if (r.removed.length === 0) return <p>{t('tags.preview.nothing')}</p>;
  const name = r.target.name;
  return (
    <div className="preview-body" data-testid="merge-preview">
      <ul className="preview-figures">
        <li data-figure="moved">{t('tags.preview.linksMoved', { name, count: r.links_moved })}</li>
        <li data-figure="dropped">{t('tags.preview.linksDropped', { name, count: r.links_dropped })}</li>
        <li data-figure="count">
          {t('tags.preview.countChange', {
            name,
            before: r.target_article_count.before,
            after: r.target_article_count.after,
          })}
        </li>
      </ul>
      <h3>{t('tags.preview.removed')}</h3>
      <TagList tags={r.removed} testId="preview-removed" />
    </div>
  );
}

function MovePreview({ result: r }: { result: MoveResult }) {
  const { t } = useT(tagsMessages);
  if (r.moved.length === 0 && r.merged.length === 0) return <p>{t('tags.preview.nothing')}</p>;
  return (
    <div className="preview-body" data-testid="move-preview">
      {r.moved.length > 0 && (
        <>
          <h3>{t('tags.preview.moved')}</h3>
          <TagList tags={r.moved} testId="preview-moved" />
        </>
      )}
      {r.merged.map((m) => (
        <div key={m.into.id}>
          <h3>
            {t('tags.preview.mergedInto', {
              name: m.into.name,
              moved: m.links_moved,
              dropped: m.links_dropped,
            })}
          </h3>
          <TagList tags={m.removed} testId="preview-merged" />
        </div>
      ))}
      {r.unchanged.length > 0 && (
        <>
          <h3>{t('tags.preview.unchanged')}</h3>
          <TagList tags={r.unchanged} testId="preview-unchanged" />
        </>
      )}
    </div>
  );
}
