/** One scratch database per test or bench run: the bench's own helper, shared (one copy). */
export * from '../../bench/support/scratch-database.js';
