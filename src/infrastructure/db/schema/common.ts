import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Embeddings are stored as real[]; cosine similarity is computed in code over small sets (no vector extension). */
export const realArray = customType<{ data: number[]; driverData: number[] | string }>({
  dataType() {
    return 'real[]';
  },
  fromDriver(value) {
    if (Array.isArray(value)) return value.map(Number);
    // node-postgres returns real[] parsed; a text literal '{1,2}' is handled for safety
    return value
      .replace(/^\{|\}$/g, '')
      .split(',')
      .filter(Boolean)
      .map(Number);
  },
});

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
