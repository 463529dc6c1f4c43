/** PostgreSQL error classes, whichever driver (or drizzle wrapper) raised them. */
const sqlState = (e: unknown): string | undefined => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code;
};
export const isUniqueViolation = (e: unknown) => sqlState(e) === '23505';
export const isForeignKeyViolation = (e: unknown) => sqlState(e) === '23503';
