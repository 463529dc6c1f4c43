import type { SelectHTMLAttributes } from 'react';
import { useTopics } from './topics';

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
  /** the visible label the select is named by */
  label: string;
  /** when given, a first option with an empty value (e.g. "All topics") */
  allLabel?: string;
  /** the label as plain text (inside catalog forms) instead of the small field label of toolbars */
  plainLabel?: boolean;
  testId?: string;
};

/** A labelled select of the topics (shared query), used by the toolbars and the admin forms. */
export function TopicSelect({ label, allLabel, plainLabel, testId, ...select }: Props) {
  const topics = useTopics();
  return (
    <label>
      {plainLabel ? label : <span className="field-label">{label}</span>}
      <select {...select} data-testid={testId}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {topics.data?.map((topic) => (
          <option key={topic.id} value={topic.id}>
            {topic.name}
          </option>
        ))}
      </select>
    </label>
  );
}
