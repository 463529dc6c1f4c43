/** What a form held when it was sent: every field's values, in order, by name. */
export type SentForm = ReadonlyMap<string, readonly string[]>;

function snapshot(form: HTMLFormElement): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string') continue; // a file input is compared by its name alone
    fields.set(name, [...(fields.get(name) ?? []), value]);
  }
  return fields;
}

/** Take this when the form is submitted; hand it to {@link clearIfUnchanged} once the write answered. */
export const sentForm = (form: HTMLFormElement): SentForm => snapshot(form);

/**
 * Empties a form after its write succeeded, unless the user has typed into it since it was sent.
 *
 * A write's success handler runs only after the lists it touched were fetched again, and the list
 * shows the new row as soon as its own refetch is back: a quick user (or a test) may already be
 * typing the next entry, which a plain `form.reset()` would throw away.
 */
export function clearIfUnchanged(form: HTMLFormElement, sent: SentForm): boolean {
  const now = snapshot(form);
  const same =
    now.size === sent.size &&
    [...sent].every(([name, values]) => {
      const current = now.get(name);
      return current?.length === values.length && values.every((v, i) => current[i] === v);
    });
  if (same) form.reset();
  return same;
}
