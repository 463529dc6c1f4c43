import { useI18n } from '../../../lib/i18n';
import type { TagGroup } from '../api/tags';

/** Where a tag can go: Ungrouped (empty value) first, then every real group. */
export function GroupOptions({ groups }: { groups: TagGroup[] }) {
  const { t } = useI18n();
  return (
    <>
      <option value="">{t('admin.tags.ungrouped')}</option>
      {groups.map((g) => (
        <option key={g.id} value={g.id!}>
          {g.display_name}
        </option>
      ))}
    </>
  );
}
